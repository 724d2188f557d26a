// Audience hooks (conventions habit 10): one per query key or mutation; the audiences screens
// and the experience editor's audience choice read them here and never call apiFetch themselves.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Audience, AudienceEvaluateRequest, AudienceEvaluateResponse, AudienceInput, AudienceListResponse } from "@storefit/contract";
import { apiFetch } from "./client";

export const audienceKeys = {
  all: ["audiences"] as const,
  one: (id: string) => ["audiences", id] as const,
};

const audiencePath = (id: string) => `/api/audiences/${encodeURIComponent(id)}`;

export type { AudienceEvaluateRequest, AudienceEvaluateResponse, ClauseVerdict } from "@storefit/contract";

export function useAudiences() {
  return useQuery({
    queryKey: audienceKeys.all,
    queryFn: ({ signal }) => apiFetch<AudienceListResponse>("/api/audiences", { signal }),
  });
}

export function useAudience(id: string | undefined) {
  return useQuery({
    queryKey: audienceKeys.one(id ?? ""),
    queryFn: ({ signal }) => apiFetch<Audience>(audiencePath(id!), { signal }),
    enabled: id !== undefined,
  });
}

/** Create or replace: the saved audience is cached and the list read again. */
function useAudienceSave<Vars>(request: (vars: Vars) => Promise<Audience>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (saved) => {
      queryClient.setQueryData(audienceKeys.one(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: audienceKeys.all, exact: true });
    },
  });
}

export const useCreateAudience = () =>
  useAudienceSave((input: AudienceInput) => apiFetch<Audience>("/api/audiences", { method: "POST", body: input }));

export const useUpdateAudience = () =>
  useAudienceSave(({ id, input }: { id: string; input: AudienceInput }) =>
    apiFetch<Audience>(audiencePath(id), { method: "PUT", body: input }),
  );

export function useDeleteAudience() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(audiencePath(id), { method: "DELETE" }),
    onSuccess: (_void, id) => {
      queryClient.removeQueries({ queryKey: audienceKeys.one(id), exact: true });
      void queryClient.invalidateQueries({ queryKey: audienceKeys.all, exact: true });
    },
  });
}

/** The tester: a mutation (a POST that stores nothing), run when the operator asks. */
export function useEvaluateAudience() {
  return useMutation({
    mutationFn: (request: AudienceEvaluateRequest) =>
      apiFetch<AudienceEvaluateResponse>("/api/audiences/evaluate", { method: "POST", body: request }),
  });
}
