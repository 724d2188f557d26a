// The line at the top of a paused or archived experience's results: the storefront no longer
// shows it, but a visitor exposed before keeps converting, and every conversion after a visitor's
// first exposure counts (docs/results.md, a visitor "converts"), so the numbers can still move.
import type { ExperienceStatus } from "@storefit/contract";

export function statusNoticeText(status: ExperienceStatus): string | null {
  if (status !== "paused" && status !== "archived") return null;
  const state = status === "paused" ? "paused" : "archived";
  return (
    `This experience is ${state}: shoppers no longer see it. Conversions of visitors who saw it ` +
    "before still count, so these numbers can still change."
  );
}
