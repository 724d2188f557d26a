import { QueryCache, QueryClient } from "@tanstack/react-query";
import type { SessionInfo } from "@storefit/contract";
import { isApiRequestError, isUnauthorized, setCsrfTokenSource } from "./client";
import { sessionKeys } from "./session";

const MAX_RETRIES = 2;

export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        // Any 401 means the session cookie expired or was revoked: forget the session, and the
        // router sends the operator to the sign-in form.
        if (isUnauthorized(error)) queryClient.setQueryData(sessionKeys.session, null);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx will not change on retry; network errors and 5xx might.
        retry: (failureCount, error) =>
          failureCount < MAX_RETRIES &&
          !(isApiRequestError(error) && error.status >= 400 && error.status < 500),
      },
    },
  });
  // Every write carries the CSRF token of the session as cached now (none before sign-in).
  setCsrfTokenSource(
    () => queryClient.getQueryData<SessionInfo | null>(sessionKeys.session)?.csrf_token,
  );
  return queryClient;
}
