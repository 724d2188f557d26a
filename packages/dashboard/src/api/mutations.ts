// Writes. Each sends the session's CSRF token (product.md §3) and updates the session query so
// the router reacts at once, without another round trip.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SessionInfo, SignInRequest } from "@storefit/contract";
import { apiFetch, isUnauthorized } from "./client";
import { queryKeys } from "./queries";

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: SignInRequest) =>
      apiFetch<SessionInfo>("/api/session", { method: "POST", body: credentials }),
    onSuccess: (session) => {
      queryClient.setQueryData(queryKeys.session, session);
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const session = queryClient.getQueryData<SessionInfo | null>(queryKeys.session);
      try {
        await apiFetch<void>("/api/session", { method: "DELETE", csrfToken: session?.csrf_token });
      } catch (error) {
        // A session that already expired is as signed out as we want it to be.
        if (!isUnauthorized(error)) throw error;
      }
    },
    onSuccess: () => {
      // No session: the route guard sends the operator to the sign-in form. Then drop every
      // cached answer of the old session, so the next operator never sees it.
      queryClient.setQueryData(queryKeys.session, null);
      queryClient.removeQueries({
        predicate: (query) => query.queryKey[0] !== queryKeys.session[0],
      });
    },
  });
}
