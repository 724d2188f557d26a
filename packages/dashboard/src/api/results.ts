// Query hooks of the results screen (issue #7 part 3). One hook per query (conventions habit 10);
// the results screen and the experiences list's headline cell read results only through these.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type {
  ExperienceDetail,
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
};

export const resultsQueryKeys = {
  results: (experienceId: string, options: ResultsOptions) =>
    ["results", experienceId, options] as const,
  experience: (experienceId: string) => ["experience", experienceId] as const,
};

/** Results are recomputed from all events on each request; a minute-old answer is fine to show. */
export const RESULTS_STALE_TIME_MS = 60_000;

export function resultsPath(experienceId: string, options: ResultsOptions): string {
  const params = new URLSearchParams();
  if (options.engine) params.set("engine", options.engine);
  if (options.correction) params.set("correction", options.correction);
  if (options.alpha !== undefined) params.set("alpha", String(options.alpha));
  const query = params.toString();
  return `/api/results/${encodeURIComponent(experienceId)}${query ? `?${query}` : ""}`;
}

export function useExperienceResults(experienceId: string, options: ResultsOptions = {}) {
  return useQuery({
    queryKey: resultsQueryKeys.results(experienceId, options),
    queryFn: ({ signal }) =>
      apiFetch<ExperienceResults>(resultsPath(experienceId, options), { signal }),
    staleTime: RESULTS_STALE_TIME_MS,
    // Switching engine keeps the last table on screen until the new answer arrives.
    placeholderData: keepPreviousData,
  });
}

/** The experience's names (goals, variations, status) shown around its results. */
export function useExperienceDetail(experienceId: string) {
  return useQuery({
    queryKey: resultsQueryKeys.experience(experienceId),
    queryFn: ({ signal }) =>
      apiFetch<ExperienceDetail>(`/api/experiences/${encodeURIComponent(experienceId)}`, {
        signal,
      }),
  });
}
