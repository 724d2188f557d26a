// Account hooks (conventions habit 10): the account and its settings, team members and secret
// keys. One hook per query or mutation; the screens under pages/settings and pages/install
// never call apiFetch themselves.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AccountPatch,
  AccountView,
  Member,
  MemberInput,
  MemberListResponse,
  MemberPatch,
  SecretKeyCreated,
  SecretKeyInput,
  SecretKeyListResponse,
} from "@storefit/contract";
import { apiFetch } from "./client";
import { useSession } from "./queries";

export const accountKeys = {
  account: ["account"] as const,
  members: ["account", "members"] as const,
  keys: ["account", "keys"] as const,
};

function useCsrf(): string | undefined {
  return useSession().data?.csrf_token;
}

/** Only owners change the account, its members and its keys (product.md §3 roles). */
export function useIsOwner(): boolean {
  return useSession().data?.user.role === "owner";
}

export function useAccount() {
  return useQuery({
    queryKey: accountKeys.account,
    queryFn: ({ signal }) => apiFetch<AccountView>("/api/account", { signal }),
  });
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  const csrfToken = useCsrf();
  return useMutation({
    mutationFn: (patch: AccountPatch) => apiFetch<AccountView>("/api/account", { method: "PATCH", body: patch, csrfToken }),
    onSuccess: (account) => {
      queryClient.setQueryData(accountKeys.account, account);
    },
  });
}

/** Owners only: the service answers 403 to anyone else, so the hook does not even ask. */
export function useMembers(enabled: boolean) {
  return useQuery({
    queryKey: accountKeys.members,
    queryFn: ({ signal }) => apiFetch<MemberListResponse>("/api/account/members", { signal }),
    enabled,
  });
}

export function useAddMember() {
  const queryClient = useQueryClient();
  const csrfToken = useCsrf();
  return useMutation({
    mutationFn: (input: MemberInput) => apiFetch<Member>("/api/account/members", { method: "POST", body: input, csrfToken }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountKeys.members }),
  });
}

export function useChangeMemberRole() {
  const queryClient = useQueryClient();
  const csrfToken = useCsrf();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: MemberPatch }) =>
      apiFetch<Member>(`/api/account/members/${encodeURIComponent(id)}`, { method: "PATCH", body: patch, csrfToken }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountKeys.members }),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  const csrfToken = useCsrf();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/account/members/${encodeURIComponent(id)}`, { method: "DELETE", csrfToken }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountKeys.members }),
  });
}

export function useSecretKeys(enabled: boolean) {
  return useQuery({
    queryKey: accountKeys.keys,
    queryFn: ({ signal }) => apiFetch<SecretKeyListResponse>("/api/account/keys", { signal }),
    enabled,
  });
}

export function useCreateSecretKey() {
  const queryClient = useQueryClient();
  const csrfToken = useCsrf();
  return useMutation({
    mutationFn: (input: SecretKeyInput) => apiFetch<SecretKeyCreated>("/api/account/keys", { method: "POST", body: input, csrfToken }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountKeys.keys }),
  });
}

export function useRevokeSecretKey() {
  const queryClient = useQueryClient();
  const csrfToken = useCsrf();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/account/keys/${encodeURIComponent(id)}`, { method: "DELETE", csrfToken }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountKeys.keys }),
  });
}
