// The operator's session: who is signed in (its CSRF token is what apiFetch sends on writes, see
// queryClient.ts), signing in and signing out. Writes update the session query so the router
// reacts at once, without another round trip.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SessionInfo, SignInRequest } from "@storefit/contract";
import { apiFetch, isUnauthorized } from "./client";

export const sessionKeys = { session: ["session"] as const };

/** The signed-in operator, or `null` when there is no session (the service answers 401). */
export function useSession() {
  return useQuery({
    queryKey: sessionKeys.session,
    queryFn: async ({ signal }): Promise<SessionInfo | null> => {
      try {
        return await apiFetch<SessionInfo>("/api/session", { signal });
      } catch (error) {
        if (isUnauthorized(error)) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: SignInRequest) =>
      apiFetch<SessionInfo>("/api/session", { method: "POST", body: credentials }),
    onSuccess: (session) => {
      queryClient.setQueryData(sessionKeys.session, session);
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await apiFetch<void>("/api/session", { method: "DELETE" });
      } catch (error) {
        // A session that already expired is as signed out as we want it to be.
        if (!isUnauthorized(error)) throw error;
      }
    },
    onSuccess: () => {
      // No session: the route guard sends the operator to the sign-in form. Then drop every
      // cached answer of the old session, so the next operator never sees it.
      queryClient.setQueryData(sessionKeys.session, null);
      queryClient.removeQueries({
        predicate: (query) => query.queryKey[0] !== sessionKeys.session[0],
      });
    },
  });
}
