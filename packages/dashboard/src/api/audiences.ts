// Audience hooks (conventions habit 10): one per query or mutation; the screens under
// pages/audiences never call apiFetch themselves.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Audience, AudienceEvaluateRequest, AudienceEvaluateResponse, AudienceInput, AudienceListResponse } from "@storefit/contract";
import { apiFetch } from "./client";
import { useSession } from "./queries";

export const audienceKeys = {
  all: ["audiences"] as const,
  one: (id: string) => ["audiences", id] as const,
};

export type { AudienceEvaluateRequest, AudienceEvaluateResponse, ClauseVerdict } from "@storefit/contract";

function useCsrf(): string | undefined {
  return useSession().data?.csrf_token;
}

export function useAudiences() {
  return useQuery({
    queryKey: audienceKeys.all,
    queryFn: ({ signal }) => apiFetch<AudienceListResponse>("/api/audiences", { signal }),
  });
}

export function useAudience(id: string | undefined) {
  return useQuery({
    queryKey: audienceKeys.one(id ?? ""),
    queryFn: ({ signal }) => apiFetch<Audience>(`/api/audiences/${encodeURIComponent(id!)}`, { signal }),
    enabled: id !== undefined,
  });
}

export function useCreateAudience() {
  const queryClient = useQueryClient();
  const csrfToken = useCsrf();
  return useMutation({
    mutationFn: (input: AudienceInput) => apiFetch<Audience>("/api/audiences", { method: "POST", body: input, csrfToken }),
    onSuccess: (saved) => {
      queryClient.setQueryData(audienceKeys.one(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: audienceKeys.all, exact: true });
    },
  });
}

export function useUpdateAudience() {
  const queryClient = useQueryClient();
  const csrfToken = useCsrf();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: AudienceInput }) =>
      apiFetch<Audience>(`/api/audiences/${encodeURIComponent(id)}`, { method: "PUT", body: input, csrfToken }),
    onSuccess: (saved) => {
      queryClient.setQueryData(audienceKeys.one(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: audienceKeys.all, exact: true });
    },
  });
}

export function useDeleteAudience() {
  const queryClient = useQueryClient();
  const csrfToken = useCsrf();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/audiences/${encodeURIComponent(id)}`, { method: "DELETE", csrfToken }),
    onSuccess: (_void, id) => {
      queryClient.removeQueries({ queryKey: audienceKeys.one(id), exact: true });
      void queryClient.invalidateQueries({ queryKey: audienceKeys.all, exact: true });
    },
  });
}

/** The tester: a mutation (a POST that stores nothing), run when the operator asks. */
export function useEvaluateAudience() {
  const csrfToken = useCsrf();
  return useMutation({
    mutationFn: (request: AudienceEvaluateRequest) =>
      apiFetch<AudienceEvaluateResponse>("/api/audiences/evaluate", { method: "POST", body: request, csrfToken }),
  });
}
