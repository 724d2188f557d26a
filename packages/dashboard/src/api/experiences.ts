// The experiences screens' queries and writes, one hook each (conventions habit 10). The list
// itself is `useExperiences` (queries.ts); every write here invalidates ["experiences"], which
// also covers each experience's detail query (["experiences", id]).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";
import type {
  AccountView,
  AudienceListResponse,
  ExperienceDetail,
  ExperienceInput,
  ExperienceStatus,
  SessionInfo,
} from "@storefit/contract";
import { apiFetch } from "./client";
import { queryKeys } from "./queries";

export const experienceKeys = {
  detail: (id: string) => [...queryKeys.experiences, id] as const,
  audiences: ["audiences"] as const,
  account: ["account"] as const,
};

const csrf = (queryClient: QueryClient) =>
  queryClient.getQueryData<SessionInfo | null>(queryKeys.session)?.csrf_token;

const experiencePath = (id: string) => `/api/experiences/${encodeURIComponent(id)}`;

export function useExperience(id: string | undefined) {
  return useQuery({
    queryKey: experienceKeys.detail(id ?? ""),
    queryFn: ({ signal }) => apiFetch<ExperienceDetail>(experiencePath(id ?? ""), { signal }),
    enabled: id !== undefined,
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

function useExperienceWrite<Vars>(
  request: (vars: Vars, csrfToken: string | undefined) => Promise<ExperienceDetail>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: Vars) => request(vars, csrf(queryClient)),
    onSuccess: (saved) => {
      queryClient.setQueryData(experienceKeys.detail(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.experiences });
    },
  });
}

/** POST /api/experiences: a new draft. */
export function useCreateExperience() {
  return useExperienceWrite((input: ExperienceInput, csrfToken) =>
    apiFetch<ExperienceDetail>("/api/experiences", { method: "POST", body: input, csrfToken }),
  );
}

/** PUT /api/experiences/{id}: replaces the experience, status kept. */
export function useUpdateExperience() {
  return useExperienceWrite(({ id, input }: { id: string; input: ExperienceInput }, csrfToken) =>
    apiFetch<ExperienceDetail>(experiencePath(id), { method: "PUT", body: input, csrfToken }),
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
    const detail = await queryClient.fetchQuery({
      queryKey: experienceKeys.detail(id),
      queryFn: ({ signal }) => apiFetch<ExperienceDetail>(experiencePath(id), { signal }),
    });
    return apiFetch<ExperienceDetail>("/api/experiences", {
      method: "POST",
      body: toInput(detail),
      csrfToken,
    });
  });
}
