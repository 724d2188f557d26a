// The experiences screens' queries and writes, one hook each (conventions habit 10). The list
// itself is `useExperiences` (queries.ts); every write here invalidates ["experiences"], which
// also covers each experience's detail query (["experiences", id]).
//
// The detail query holds the experience with its ETag (docs/api.md "Lost updates"): editors send
// it back as If-Match, so a save over a version they did not load answers 412 instead of
// silently overwriting what another tab or the visual editor saved meanwhile.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";
import type {
  AccountView,
  AudienceListResponse,
  ExclusionGroup,
  ExperienceDetail,
  ExperienceInput,
  ExperienceListResponse,
  ExperienceOverlapsResponse,
  ExperienceStatus,
  SessionInfo,
} from "@storefit/contract";
import { ApiRequestError, CLIENT_ERROR_CODES, apiFetch } from "./client";
import { queryKeys } from "./queries";

export const experienceKeys = {
  detail: (id: string) => [...queryKeys.experiences, id] as const,
  /** Under the experiences key: every experience write invalidates it too. */
  overlaps: (id: string) => [...queryKeys.experiences, id, "overlaps"] as const,
  audiences: ["audiences"] as const,
  account: ["account"] as const,
};

const csrf = (queryClient: QueryClient) =>
  queryClient.getQueryData<SessionInfo | null>(queryKeys.session)?.csrf_token;

export const experiencePath = (id: string) => `/api/experiences/${encodeURIComponent(id)}`;

/** An experience as the service sent it, with the ETag of that version (null if none came). */
export type VersionedExperience = { experience: ExperienceDetail; etag: string | null };

/** The service's answer when If-Match names a version that is no longer stored. */
export const PRECONDITION_FAILED = "precondition_failed";

export const isVersionConflict = (error: unknown): boolean =>
  error instanceof ApiRequestError && error.status === 412;

/**
 * GET, PUT or PATCH of one experience, keeping the ETag of the answer. apiFetch's contract (same
 * origin, CSRF header, errors as ApiRequestError) with the one header apiFetch does not carry.
 */
export async function fetchVersionedExperience(
  id: string,
  options: {
    method?: "GET" | "PUT" | "PATCH";
    body?: unknown;
    csrfToken?: string | undefined;
    ifMatch?: string | null | undefined;
    signal?: AbortSignal | undefined;
  } = {},
): Promise<VersionedExperience> {
  const method = options.method ?? "GET";
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET" && options.csrfToken) headers["x-csrf-token"] = options.csrfToken;
  if (options.ifMatch) headers["if-match"] = options.ifMatch;
  let response: Response;
  try {
    response = await fetch(experiencePath(id), {
      method,
      headers,
      credentials: "same-origin",
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiRequestError(
      0,
      CLIENT_ERROR_CODES.network,
      "Could not reach the Storefit service.",
    );
  }
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } })
      ?.error;
    if (error && typeof error.code === "string" && typeof error.message === "string")
      throw new ApiRequestError(response.status, error.code, error.message, error.details);
    throw new ApiRequestError(
      response.status,
      `http_${response.status}`,
      `The service answered ${response.status} ${response.statusText}`.trim() + ".",
    );
  }
  if (body === undefined)
    throw new ApiRequestError(
      response.status,
      CLIENT_ERROR_CODES.badResponse,
      "The service sent no JSON body.",
    );
  return { experience: body as ExperienceDetail, etag: response.headers.get("etag") };
}

/** The experience with its ETag, for the screens that edit it. */
export function useVersionedExperience(id: string | undefined) {
  return useQuery({
    queryKey: experienceKeys.detail(id ?? ""),
    queryFn: ({ signal }) => fetchVersionedExperience(id ?? "", { signal }),
    enabled: id !== undefined,
  });
}

/** The experience alone, for the screens that only show it. */
export function useExperience(id: string | undefined) {
  return useQuery({
    queryKey: experienceKeys.detail(id ?? ""),
    queryFn: ({ signal }) => fetchVersionedExperience(id ?? "", { signal }),
    enabled: id !== undefined,
    select: (v: VersionedExperience) => v.experience,
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

/** GET /api/experiences/{id}/overlaps: running experiences that change the same elements. */
export function fetchExperienceOverlaps(id: string, signal?: AbortSignal) {
  return apiFetch<ExperienceOverlapsResponse>(`${experiencePath(id)}/overlaps`, { signal });
}

/**
 * The running experiences that can change the same element on the same page as this one, and who
 * wins (docs/dashboard.md "Overlaps"). Refetched after any experience write.
 */
export function useExperienceOverlaps(id: string | undefined) {
  return useQuery({
    queryKey: experienceKeys.overlaps(id ?? ""),
    queryFn: ({ signal }) => fetchExperienceOverlaps(id ?? "", signal),
    enabled: id !== undefined,
  });
}

/** The experiences list as stored now (not a cached answer): slices are planned on it. */
export function useFreshExperienceList() {
  const queryClient = useQueryClient();
  return () =>
    queryClient.fetchQuery({
      queryKey: queryKeys.experiences,
      queryFn: ({ signal }) => apiFetch<ExperienceListResponse>("/api/experiences", { signal }),
      staleTime: 0,
    });
}

/** The overlaps as they are now (not a cached answer): Start decides on them. */
export function useFreshOverlaps() {
  const queryClient = useQueryClient();
  return (id: string) =>
    queryClient.fetchQuery({
      queryKey: experienceKeys.overlaps(id),
      queryFn: ({ signal }) => fetchExperienceOverlaps(id, signal),
      staleTime: 0,
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
      const csrfToken = csrf(queryClient);
      const write = async (id: string, group: ExclusionGroup) => {
        const latest = await fetchVersionedExperience(id);
        return fetchVersionedExperience(id, {
          method: "PATCH",
          body: { exclusion_group: group },
          csrfToken,
          ifMatch: latest.etag,
        });
      };
      const other = await write(otherId, groups.other);
      const self = await write(selfId, groups.self);
      return { self, other };
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: queryKeys.experiences }),
    onSuccess: ({ self, other }) => {
      queryClient.setQueryData(experienceKeys.detail(self.experience.id), self);
      queryClient.setQueryData(experienceKeys.detail(other.experience.id), other);
    },
  });
}

/** The audiences a rule can target (GET /api/audiences; viewers may read it). */
export function useAudienceOptions() {
  return useQuery({
    queryKey: experienceKeys.audiences,
    queryFn: ({ signal }) => apiFetch<AudienceListResponse>("/api/audiences", { signal }),
  });
}

/** The account, for its main domain: an empty page-target domain means that one. */
export function useAccountForTargeting() {
  return useQuery({
    queryKey: experienceKeys.account,
    queryFn: ({ signal }) => apiFetch<AccountView>("/api/account", { signal }),
    staleTime: 60_000,
  });
}

function useVersionedWrite<Vars>(
  request: (vars: Vars, csrfToken: string | undefined) => Promise<VersionedExperience>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: Vars) => request(vars, csrf(queryClient)),
    onSuccess: (saved) => {
      queryClient.setQueryData(experienceKeys.detail(saved.experience.id), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.experiences });
    },
  });
}

/** A write answered by the experience alone (create, status): its ETag is read again. */
function useExperienceWrite<Vars>(
  request: (vars: Vars, csrfToken: string | undefined) => Promise<ExperienceDetail>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: Vars) => request(vars, csrf(queryClient)),
    // The detail query is refetched, with the new version's ETag.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.experiences }),
  });
}

/** POST /api/experiences: a new draft. */
export function useCreateExperience() {
  return useExperienceWrite((input: ExperienceInput, csrfToken) =>
    apiFetch<ExperienceDetail>("/api/experiences", { method: "POST", body: input, csrfToken }),
  );
}

/**
 * PUT /api/experiences/{id}: replaces the experience, status kept. `ifMatch` is the ETag of the
 * version the form was loaded from: if the experience changed since, the answer is 412 and
 * nothing is stored (isVersionConflict).
 */
export function useUpdateExperience() {
  return useVersionedWrite(
    (
      { id, input, ifMatch }: { id: string; input: ExperienceInput; ifMatch: string | null },
      csrfToken,
    ) => fetchVersionedExperience(id, { method: "PUT", body: input, csrfToken, ifMatch }),
  );
}

/** POST /api/experiences/{id}/status: start (running), pause, archive, restore (draft). */
export function useChangeExperienceStatus() {
  return useExperienceWrite(({ id, status }: { id: string; status: ExperienceStatus }, csrfToken) =>
    apiFetch<ExperienceDetail>(`${experiencePath(id)}/status`, {
      method: "POST",
      body: { status },
      csrfToken,
    }),
  );
}

/** Reads the whole experience and saves a copy as a new draft. */
export function useDuplicateExperience(toInput: (e: ExperienceDetail) => ExperienceInput) {
  const queryClient = useQueryClient();
  return useExperienceWrite(async (id: string, csrfToken) => {
    const { experience: detail } = await queryClient.fetchQuery({
      queryKey: experienceKeys.detail(id),
      queryFn: ({ signal }) => fetchVersionedExperience(id, { signal }),
    });
    return apiFetch<ExperienceDetail>("/api/experiences", {
      method: "POST",
      body: toInput(detail),
      csrfToken,
    });
  });
}
