// Account hooks (conventions habit 10): the account and its settings, team members and secret
// keys. One hook per query key or mutation; every screen that shows the account (settings,
// install, live events, the experience editor's domains, the visual editor's shop origins) reads
// it through useAccount, and none calls apiFetch itself.
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
import { useSession } from "./session";

export const accountKeys = {
  account: ["account"] as const,
  members: ["account", "members"] as const,
  keys: ["account", "keys"] as const,
};

/** Only owners change the account, its members and its keys (product.md §3 roles). */
export function useIsOwner(): boolean {
  return useSession().data?.user.role === "owner";
}

/** The account changes rarely, and through its owners' saves here, which update this query. */
const ACCOUNT_STALE_TIME_MS = 60_000;

export function useAccount() {
  return useQuery({
    queryKey: accountKeys.account,
    queryFn: ({ signal }) => apiFetch<AccountView>("/api/account", { signal }),
    staleTime: ACCOUNT_STALE_TIME_MS,
  });
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: AccountPatch) => apiFetch<AccountView>("/api/account", { method: "PATCH", body: patch }),
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

export function useSecretKeys(enabled: boolean) {
  return useQuery({
    queryKey: accountKeys.keys,
    queryFn: ({ signal }) => apiFetch<SecretKeyListResponse>("/api/account/keys", { signal }),
    enabled,
  });
}

/** A write to the members or the keys: that list is read again. */
function useListWrite<Vars, Answer>(list: readonly string[], request: (vars: Vars) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: list }),
  });
}

const memberPath = (id: string) => `/api/account/members/${encodeURIComponent(id)}`;
const keyPath = (id: string) => `/api/account/keys/${encodeURIComponent(id)}`;

export const useAddMember = () =>
  useListWrite(accountKeys.members, (input: MemberInput) => apiFetch<Member>("/api/account/members", { method: "POST", body: input }));

export const useChangeMemberRole = () =>
  useListWrite(accountKeys.members, ({ id, patch }: { id: string; patch: MemberPatch }) =>
    apiFetch<Member>(memberPath(id), { method: "PATCH", body: patch }),
  );

export const useRemoveMember = () =>
  useListWrite(accountKeys.members, (id: string) => apiFetch<void>(memberPath(id), { method: "DELETE" }));

export const useCreateSecretKey = () =>
  useListWrite(accountKeys.keys, (input: SecretKeyInput) =>
    apiFetch<SecretKeyCreated>("/api/account/keys", { method: "POST", body: input }),
  );

export const useRevokeSecretKey = () =>
  useListWrite(accountKeys.keys, (id: string) => apiFetch<void>(keyPath(id), { method: "DELETE" }));
