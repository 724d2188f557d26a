// The operator's statistics choices, kept in the URL query (?engine=&correction=) so a link to
// the results screen shows the same numbers to whoever opens it.
import type { ResultsCorrection, ResultsEngine } from "@storefit/contract";

/** Sequential (always valid) is the default: results may be peeked at daily without inflating errors. */
export const DEFAULT_ENGINE: ResultsEngine = "sequential";
/** Holm controls the family-wise error across goals; the service's default too. */
export const DEFAULT_CORRECTION: ResultsCorrection = "holm";

export const ENGINE_OPTIONS: readonly { value: ResultsEngine; label: string; hint: string }[] = [
  {
    value: "sequential",
    label: "Sequential (always valid)",
    hint: "Safe to check at any time: the intervals stay valid however often you look.",
  },
  {
    value: "frequentist",
    label: "Frequentist (fixed horizon)",
    hint: "Classic t-test: read once, at the sample size planned in advance.",
  },
  {
    value: "bayesian",
    label: "Bayesian",
    hint: "Chance to win and expected loss, from a Gaussian model of the lift.",
  },
];

export const CORRECTION_OPTIONS: readonly { value: ResultsCorrection; label: string }[] = [
  { value: "holm", label: "Holm (family-wise error)" },
  { value: "bh", label: "Benjamini-Hochberg (false discovery rate)" },
  { value: "none", label: "None" },
];

export const CORRECTION_LABELS: Record<ResultsCorrection, string> = {
  holm: "Holm",
  bh: "Benjamini-Hochberg",
  none: "none",
};

const ENGINES = new Set<string>(ENGINE_OPTIONS.map((o) => o.value));
const CORRECTIONS = new Set<string>(CORRECTION_OPTIONS.map((o) => o.value));

export type ResultsChoice = { engine: ResultsEngine; correction: ResultsCorrection };

/** Reads the choice from a URL query; anything unknown falls back to the defaults. */
export function readResultsChoice(params: URLSearchParams): ResultsChoice {
  const engine = params.get("engine");
  const correction = params.get("correction");
  return {
    engine: engine !== null && ENGINES.has(engine) ? (engine as ResultsEngine) : DEFAULT_ENGINE,
    correction:
      correction !== null && CORRECTIONS.has(correction)
        ? (correction as ResultsCorrection)
        : DEFAULT_CORRECTION,
  };
}

/** The query for a choice, keeping any other parameters of the URL. */
export function writeResultsChoice(params: URLSearchParams, choice: ResultsChoice): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set("engine", choice.engine);
  next.set("correction", choice.correction);
  return next;
}
