// Query hooks of the results screen (issue #7 part 3). One hook per query (conventions habit 10);
// the results screen and the experiences list's headline cell read results only through these.
// The experience itself (names, status) is `useExperience` of api/experiences.ts, shared with the
// editor, so an edit there refreshes the names here.
import { useQuery } from "@tanstack/react-query";
import type {
  ExperienceResults,
  ResultsCorrection,
  ResultsEngine,
} from "@storefit/contract";
import { apiFetch } from "./client";

/** What the operator chose; absent fields take the service's defaults. */
export type ResultsOptions = {
  engine?: ResultsEngine;
  correction?: ResultsCorrection;
  alpha?: number;
  /** UTC days (YYYY-MM-DD), both included; absent: open (docs/results.md "Date range"). */
  from?: string;
  to?: string;
};

export const resultsQueryKeys = {
  results: (experienceId: string, options: ResultsOptions) =>
    ["results", experienceId, options] as const,
};

/** Results are recomputed from all events on each request; a minute-old answer is fine to show. */
export const RESULTS_STALE_TIME_MS = 60_000;

export function resultsPath(experienceId: string, options: ResultsOptions): string {
  const params = new URLSearchParams();
  if (options.engine) params.set("engine", options.engine);
  if (options.correction) params.set("correction", options.correction);
  if (options.alpha !== undefined) params.set("alpha", String(options.alpha));
  if (options.from) params.set("from", options.from);
  if (options.to) params.set("to", options.to);
  const query = params.toString();
  return `/api/results/${encodeURIComponent(experienceId)}${query ? `?${query}` : ""}`;
}

export function useExperienceResults(experienceId: string, options: ResultsOptions = {}) {
  return useQuery({
    queryKey: resultsQueryKeys.results(experienceId, options),
    queryFn: ({ signal }) =>
      apiFetch<ExperienceResults>(resultsPath(experienceId, options), { signal }),
    staleTime: RESULTS_STALE_TIME_MS,
    // Switching engine keeps the last table on screen until the new answer arrives; never the
    // results of another experience.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === experienceId ? previous : undefined,
  });
}
