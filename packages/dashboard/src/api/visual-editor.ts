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
import { apiFetch } from "./client";
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
  /** The experience as loaded: its other variations are written back unchanged. */
  experience: ExperienceDetail;
  variationId: string;
  configs: ConfigDefinition[];
};

/** Saves one variation's configs (PUT /api/experiences/{id}); answers the stored experience. */
export function useSaveVariationConfigs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ experience, variationId, configs }: SaveVariationConfigs) => {
      const session = queryClient.getQueryData<SessionInfo | null>(queryKeys.session);
      return apiFetch<ExperienceDetail>(`/api/experiences/${encodeURIComponent(experience.id)}`, {
        method: "PUT",
        body: withVariationConfigs(experience, variationId, configs),
        csrfToken: session?.csrf_token,
      });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(visualEditorKeys.experience(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.experiences });
    },
  });
}
