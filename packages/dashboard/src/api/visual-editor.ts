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

// The same keys as the experience editor's (api/experiences.ts): a save here updates the detail
// it shows, and its writes' invalidation of ["experiences"] reaches this query too.
export const visualEditorKeys = {
  experience: (id: string) => [...queryKeys.experiences, id] as const,
  account: ["account"] as const,
};

export function useEditedExperience(id: string) {
  return useQuery({
    queryKey: visualEditorKeys.experience(id),
    queryFn: ({ signal }) =>
      apiFetch<ExperienceDetail>(`/api/experiences/${encodeURIComponent(id)}`, { signal }),
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
};

/** The variation was removed from the experience while the editor had it open. */
export const VARIATION_GONE = "variation_gone";

/**
 * Saves one variation's configs; answers the stored experience. The experience is read again
 * first and only that variation's configs are replaced in it, so what others changed meanwhile
 * (its name, targeting, goals, the other variations) is kept, not overwritten with what the
 * editor loaded.
 */
export function useSaveVariationConfigs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ experienceId, variationId, configs }: SaveVariationConfigs) => {
      const path = `/api/experiences/${encodeURIComponent(experienceId)}`;
      const latest = await apiFetch<ExperienceDetail>(path);
      if (!latest.rules.some((r) => r.behaviour.variations.some((v) => v.id === variationId)))
        throw new ApiRequestError(
          409,
          VARIATION_GONE,
          "This variation was removed from the experience since the editor opened it.",
        );
      const session = queryClient.getQueryData<SessionInfo | null>(queryKeys.session);
      return apiFetch<ExperienceDetail>(path, {
        method: "PUT",
        body: withVariationConfigs(latest, variationId, configs),
        csrfToken: session?.csrf_token,
      });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(visualEditorKeys.experience(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.experiences });
    },
  });
}
