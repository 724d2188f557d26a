import type { ExperienceStatus } from "@storefit/contract";
import { EXPERIENCE_STATUS_LABELS } from "./labels";

export function StatusBadge({ status }: { status: ExperienceStatus }) {
  return (
    <span className={`badge badge--${status}`} data-testid="status-badge" data-status={status}>
      {EXPERIENCE_STATUS_LABELS[status] ?? status}
    </span>
  );
}
