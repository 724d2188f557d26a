// The sample-ratio check's threshold in words, for the quiet line and the warning alike. The
// service flags a mismatch below p = 0.001 (docs/results.md "Sample-ratio check").
import { formatPStatement } from "./format";

/** The service's threshold (results/compute.ts SRM_P_THRESHOLD). */
export const SRM_THRESHOLD = 0.001;

export const SRM_THRESHOLD_TEXT =
  "The check raises an alarm only when a split this uneven would happen by chance less than once in 1,000 times (p < 0.001).";

/** The line shown when the split passes. */
export function srmOkText(pValue: number): string {
  return `Traffic split matches the weights (sample-ratio check, ${formatPStatement(pValue)}; a mismatch is flagged only below p = 0.001, a 1-in-1,000 chance).`;
}
