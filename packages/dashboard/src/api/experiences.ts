// Experiences (conventions habit 10): the list, one experience, its overlaps, and every write —
// from the list, the experience editor and the visual editor. One definition per query key
// (the *Query functions below); every write invalidates ["experiences"], which also covers each
// experience's detail (["experiences", id]) and overlaps (["experiences", id, "overlaps"]).
//
// The detail query holds the experience with its ETag (docs/api.md "Lost updates"): editors send
// it back as If-Match, so a save over a version they did not load answers 412 instead of
// silently overwriting what another tab or the visual editor saved meanwhile.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  ConfigDefinition,
  ExclusionGroup,
  ExperienceDetail,
  ExperienceInput,
  ExperienceListResponse,
  ExperienceOverlapsResponse,
  ExperienceStatus,
} from "@storefit/contract";
import { ApiRequestError, apiFetch, apiFetchVersioned } from "./client";
import type { RequestOptions } from "./client";

const ALL = ["experiences"] as const;

export const experienceKeys = {
  /** The list; the prefix of every experience query, so a write invalidates them all. */
  all: ALL,
  detail: (id: string) => [...ALL, id] as const,
  overlaps: (id: string) => [...ALL, id, "overlaps"] as const,
};

const experiencePath = (id: string) => `/api/experiences/${encodeURIComponent(id)}`;

/** An experience as the service sent it, with the ETag of that version (null if none came). */
export type VersionedExperience = { experience: ExperienceDetail; etag: string | null };

/** The service's answer when If-Match names a version that is no longer stored. */
export const PRECONDITION_FAILED = "precondition_failed";

export const isVersionConflict = (error: unknown): boolean =>
  error instanceof ApiRequestError && error.status === 412;

/** GET, PUT or PATCH of one experience, keeping the ETag of the answer. */
async function fetchVersionedExperience(
  id: string,
  options: RequestOptions & { method?: "GET" | "PUT" | "PATCH" } = {},
): Promise<VersionedExperience> {
  const { body, etag } = await apiFetchVersioned<ExperienceDetail>(experiencePath(id), options);
  return { experience: body, etag };
}

const listQuery = () =>
  queryOptions({
    queryKey: experienceKeys.all,
    queryFn: ({ signal }) => apiFetch<ExperienceListResponse>("/api/experiences", { signal }),
  });

const detailQuery = (id: string) =>
  queryOptions({
    queryKey: experienceKeys.detail(id),
    queryFn: ({ signal }) => fetchVersionedExperience(id, { signal }),
  });

const overlapsQuery = (id: string) =>
  queryOptions({
    queryKey: experienceKeys.overlaps(id),
    queryFn: ({ signal }) =>
      apiFetch<ExperienceOverlapsResponse>(`${experiencePath(id)}/overlaps`, { signal }),
  });

export function useExperiences() {
  return useQuery(listQuery());
}

/**
 * The experience with its ETag. `refetchOnWindowFocus: false` for a screen whose unsaved edits
 * live outside the form's reach (the visual editor): a background refetch must not race them.
 */
export function useVersionedExperience(
  id: string | undefined,
  { refetchOnWindowFocus = true }: { refetchOnWindowFocus?: boolean } = {},
) {
  return useQuery({ ...detailQuery(id ?? ""), enabled: id !== undefined, refetchOnWindowFocus });
}

/**
 * The running experiences that can change the same element on the same page as this one, and who
 * wins (docs/dashboard.md "Overlaps"). Refetched after any experience write.
 */
export function useExperienceOverlaps(id: string | undefined) {
  return useQuery({ ...overlapsQuery(id ?? ""), enabled: id !== undefined });
}

/** The experiences list as stored now (not a cached answer): slices are planned on it. */
export function useFreshExperienceList() {
  const queryClient = useQueryClient();
  return () => queryClient.fetchQuery({ ...listQuery(), staleTime: 0 });
}

/** The overlaps as they are now (not a cached answer): Start decides on them. */
export function useFreshOverlaps() {
  const queryClient = useQueryClient();
  return (id: string) => queryClient.fetchQuery({ ...overlapsQuery(id), staleTime: 0 });
}

/** Reads the experience again (the "Reload the latest version" action after a conflict). */
export function useReloadExperience() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (experienceId: string) =>
      queryClient.fetchQuery({ ...detailQuery(experienceId), staleTime: 0 }),
  });
}

/**
 * JSON with every object's keys sorted: two answers holding the same values compare equal even
 * when their keys come in another order (the service stores them in the order each writer sent,
 * and react-query's structural sharing keeps an equal old object in place of a new one).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The fields an editor saves are the same in both versions: only the status (or nothing) moved,
 * so a save based on `a` overwrites nothing of `b` (PUT keeps the status).
 */
export function sameEditedFields(a: ExperienceDetail, b: ExperienceDetail): boolean {
  return (
    sameFieldsButGroup(a, b) &&
    canonicalJson(a.exclusion_group) === canonicalJson(b.exclusion_group)
  );
}

/**
 * Everything an editor saves is the same except the mutually exclusive group: the "split traffic"
 * remedy moved it. A form whose group fields are untouched can take the new group over.
 */
export function sameFieldsButGroup(a: ExperienceDetail, b: ExperienceDetail): boolean {
  const fields = (e: ExperienceDetail) =>
    canonicalJson([e.name, e.kind, e.priority, e.pages, e.rules, e.goals]);
  return fields(a) === fields(b);
}

/** A write answered by the experience with its ETag: the detail holds it at once. */
function useVersionedWrite<Vars>(request: (vars: Vars) => Promise<VersionedExperience>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (saved) => {
      queryClient.setQueryData(experienceKeys.detail(saved.experience.id), saved);
      void queryClient.invalidateQueries({ queryKey: experienceKeys.all });
    },
  });
}

/** A write answered by the experience alone (create, status): its ETag is read again. */
function useExperienceWrite<Vars>(request: (vars: Vars) => Promise<ExperienceDetail>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    // The detail query is refetched, with the new version's ETag.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: experienceKeys.all }),
  });
}

/** POST /api/experiences: a new draft. */
export function useCreateExperience() {
  return useExperienceWrite((input: ExperienceInput) =>
    apiFetch<ExperienceDetail>("/api/experiences", { method: "POST", body: input }),
  );
}

/**
 * PUT /api/experiences/{id}: replaces the experience, status kept. `ifMatch` is the ETag of the
 * version the form was loaded from: if the experience changed since, the answer is 412 and
 * nothing is stored (isVersionConflict).
 */
export function useUpdateExperience() {
  return useVersionedWrite(
    ({ id, input, ifMatch }: { id: string; input: ExperienceInput; ifMatch: string | null }) =>
      fetchVersionedExperience(id, { method: "PUT", body: input, ifMatch }),
  );
}

/** POST /api/experiences/{id}/status: start (running), pause, archive, restore (draft). */
export function useChangeExperienceStatus() {
  return useExperienceWrite(({ id, status }: { id: string; status: ExperienceStatus }) =>
    apiFetch<ExperienceDetail>(`${experiencePath(id)}/status`, {
      method: "POST",
      body: { status },
    }),
  );
}

/** Reads the whole experience and saves a copy as a new draft. */
export function useDuplicateExperience(toInput: (e: ExperienceDetail) => ExperienceInput) {
  const queryClient = useQueryClient();
  return useExperienceWrite(async (id: string) => {
    const { experience: detail } = await queryClient.fetchQuery(detailQuery(id));
    return apiFetch<ExperienceDetail>("/api/experiences", {
      method: "POST",
      body: toInput(detail),
    });
  });
}

/**
 * The "split traffic" remedy: both experiences get their new mutually exclusive group. Each is read
 * fresh and PATCHed with If-Match on the version read, the other experience first (it is the one
 * the operator is not looking at; if it cannot move, this one is left as it was). `plan` computes
 * the two slices from what was read, so the groups' other members are those stored now.
 */
export function useSplitTraffic() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      selfId,
      otherId,
      plan,
    }: {
      selfId: string;
      otherId: string;
      plan: () => Promise<{ self: ExclusionGroup; other: ExclusionGroup }>;
    }) => {
      const groups = await plan();
      const write = async (id: string, group: ExclusionGroup) => {
        const latest = await fetchVersionedExperience(id);
        return fetchVersionedExperience(id, {
          method: "PATCH",
          body: { exclusion_group: group },
          ifMatch: latest.etag,
        });
      };
      const other = await write(otherId, groups.other);
      const self = await write(selfId, groups.self);
      return { self, other };
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: experienceKeys.all }),
    onSuccess: ({ self, other }) => {
      queryClient.setQueryData(experienceKeys.detail(self.experience.id), self);
      queryClient.setQueryData(experienceKeys.detail(other.experience.id), other);
    },
  });
}

// ---- The visual editor's save: one variation's configs ----

/**
 * The experience as PUT expects it, with one variation's configs replaced: every other field,
 * rule and variation exactly as the service sent it.
 */
export function withVariationConfigs(
  experience: ExperienceDetail,
  variationId: string,
  configs: ConfigDefinition[],
): ExperienceInput {
  return {
    name: experience.name,
    kind: experience.kind,
    priority: experience.priority,
    // PUT replaces the whole experience: a group left out would be removed.
    exclusion_group: experience.exclusion_group,
    pages: experience.pages,
    rules: experience.rules.map((rule) => ({
      ...rule,
      behaviour: {
        ...rule.behaviour,
        variations: rule.behaviour.variations.map((v) =>
          v.id === variationId ? { ...v, configs } : v,
        ),
      },
    })),
    goals: experience.goals,
  };
}

export type SaveVariationConfigs = {
  experienceId: string;
  variationId: string;
  configs: ConfigDefinition[];
  /** The variation's configs as the editor loaded (or last saved) them. */
  loaded: ConfigDefinition[];
};

/** The variation's configs in the experience, or undefined if it has no such variation. */
export function variationConfigs(
  experience: ExperienceDetail,
  variationId: string,
): ConfigDefinition[] | undefined {
  for (const rule of experience.rules)
    for (const v of rule.behaviour.variations) if (v.id === variationId) return v.configs;
  return undefined;
}

/** The variation was removed from the experience while the editor had it open. */
export const VARIATION_GONE = "variation_gone";

/**
 * Saves one variation's configs; answers the stored experience. The experience is read again
 * first and only that variation's configs are replaced in it, so what others changed meanwhile
 * (its name, targeting, goals, the other variations) is kept, not overwritten with what the
 * editor loaded. If that variation's configs were changed meanwhile (another visual editor, the
 * experience editor), the save is refused as a conflict (412 precondition_failed) instead of
 * overwriting them. The PUT carries If-Match with the version just read, so a save landing
 * between that read and this write is a conflict too (docs/api.md "Lost updates").
 */
export function useSaveVariationConfigs() {
  return useVersionedWrite(
    async ({ experienceId, variationId, configs, loaded }: SaveVariationConfigs) => {
      const latest = await fetchVersionedExperience(experienceId);
      const stored = variationConfigs(latest.experience, variationId);
      if (stored === undefined)
        throw new ApiRequestError(
          409,
          VARIATION_GONE,
          "This variation was removed from the experience since the editor opened it.",
        );
      if (canonicalJson(stored) !== canonicalJson(loaded))
        throw new ApiRequestError(
          412,
          PRECONDITION_FAILED,
          "This variation's changes were saved elsewhere since the editor loaded them.",
        );
      return fetchVersionedExperience(experienceId, {
        method: "PUT",
        body: withVariationConfigs(latest.experience, variationId, configs),
        ifMatch: latest.etag,
      });
    },
  );
}
