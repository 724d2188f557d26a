// The service's check of a shop page (POST /api/page-check): why the visual editor's page did not
// answer. A write only in HTTP terms (the service fetches the page); nothing is stored.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SessionInfo } from "@storefit/contract";
import { apiFetch } from "./client";
import { queryKeys } from "./queries";

export type PageCheck = {
  url: string;
  reachable: boolean;
  status: number | null;
  error: string | null;
  frame_refused_by: string | null;
  snippet: "this_account" | "other_account" | "missing" | null;
};

export function usePageCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url: string) => {
      const session = queryClient.getQueryData<SessionInfo | null>(queryKeys.session);
      return apiFetch<PageCheck>("/api/page-check", { method: "POST", body: { url }, csrfToken: session?.csrf_token });
    },
  });
}
