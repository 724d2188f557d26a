// The visual editor's queries and its one write (conventions habit 10: one hook per query or
// mutation; screens never call apiFetch). The editor reads the experience (its variations and
// their configs) and the account (its shop domains, docs/visual-editor.md "Origins"), and saves a
// variation's configs by replacing the experience (PUT keeps the status and every other field).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AccountView,
  ConfigDefinition,
  ExperienceDetail,
  ExperienceInput,
  SessionInfo,
} from "@storefit/contract";
import { ApiRequestError, apiFetch } from "./client";
import { queryKeys } from "./queries";
import { PRECONDITION_FAILED, canonicalJson, fetchVersionedExperience } from "./experiences";
import type { VersionedExperience } from "./experiences";

// The same keys as the experience editor's (api/experiences.ts): a save here updates the detail
// it shows, and its writes' invalidation of ["experiences"] reaches this query too.
export const visualEditorKeys = {
  experience: (id: string) => [...queryKeys.experiences, id] as const,
  account: ["account"] as const,
};

export function useEditedExperience(id: string) {
  return useQuery({
    queryKey: visualEditorKeys.experience(id),
    queryFn: ({ signal }) => fetchVersionedExperience(id, { signal }),
    // The operator's unsaved edits live in the page; a background refetch must not race them.
    refetchOnWindowFocus: false,
  });
}

/** The account, for its shop domains (settings.domain and settings.subdomains). */
export function useShopAccount() {
  return useQuery({
    queryKey: visualEditorKeys.account,
    queryFn: ({ signal }) => apiFetch<AccountView>("/api/account", { signal }),
    staleTime: 60_000,
  });
}

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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      experienceId,
      variationId,
      configs,
      loaded,
    }: SaveVariationConfigs): Promise<VersionedExperience> => {
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
      const session = queryClient.getQueryData<SessionInfo | null>(queryKeys.session);
      return fetchVersionedExperience(experienceId, {
        method: "PUT",
        body: withVariationConfigs(latest.experience, variationId, configs),
        csrfToken: session?.csrf_token,
        ifMatch: latest.etag,
      });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(visualEditorKeys.experience(saved.experience.id), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.experiences });
    },
  });
}

/** Reads the experience again (the "Reload the latest version" action after a conflict). */
export function useReloadExperience() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (experienceId: string) =>
      queryClient.fetchQuery({
        queryKey: visualEditorKeys.experience(experienceId),
        queryFn: ({ signal }) => fetchVersionedExperience(experienceId, { signal }),
        staleTime: 0,
      }),
  });
}
