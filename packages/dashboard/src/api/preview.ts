// The preview token of the dashboard's preview links (docs/dashboard.md "Preview links"): the
// service shows draft and paused experiences in preview only with it, for one hour. Fetched again
// well before it runs out, so a link shown or copied works for at least half an hour.
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "./client";

export type PreviewToken = { token: string; expires_at: string };

/** How often the token is renewed (it lives for an hour). */
export const PREVIEW_TOKEN_REFRESH_MS = 30 * 60 * 1000;

export const previewKeys = { token: ["preview-token"] as const };

export function usePreviewToken(enabled = true) {
  return useQuery({
    queryKey: previewKeys.token,
    queryFn: ({ signal }) => apiFetch<PreviewToken>("/api/preview-token", { method: "POST", signal }),
    enabled,
    staleTime: PREVIEW_TOKEN_REFRESH_MS,
    refetchInterval: PREVIEW_TOKEN_REFRESH_MS,
    refetchOnWindowFocus: false,
  });
}
