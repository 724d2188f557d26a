// The service's check of a shop page (POST /api/page-check): why the visual editor's page did not
// answer. A write only in HTTP terms (the service fetches the page); nothing is stored.
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "./client";

export type PageCheck = {
  url: string;
  reachable: boolean;
  status: number | null;
  error: string | null;
  frame_refused_by: string | null;
  snippet: "this_account" | "other_account" | "missing" | null;
};

export function usePageCheck() {
  return useMutation({
    mutationFn: (url: string) => apiFetch<PageCheck>("/api/page-check", { method: "POST", body: { url } }),
  });
}
