import { QueryCache, QueryClient } from "@tanstack/react-query";
import { isApiRequestError, isUnauthorized } from "./client";
import { queryKeys } from "./queries";

const MAX_RETRIES = 2;

export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        // Any 401 means the session cookie expired or was revoked: forget the session, and the
        // router sends the operator to the sign-in form.
        if (isUnauthorized(error)) queryClient.setQueryData(queryKeys.session, null);
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
  return queryClient;
}
