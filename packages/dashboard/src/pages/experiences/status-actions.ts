import type { ExperienceStatus } from "@storefit/contract";

/**
 * The status changes the service allows (packages/server/src/admin/experiences.ts
 * STATUS_TRANSITIONS), as the buttons that make them. Archived is the end of an experience's
 * life; "Restore" brings it back as a draft.
 */
export const STATUS_ACTIONS: Readonly<
  Record<ExperienceStatus, readonly { to: ExperienceStatus; label: string }[]>
> = {
  draft: [
    { to: "running", label: "Start" },
    { to: "archived", label: "Archive" },
  ],
  running: [
    { to: "paused", label: "Pause" },
    { to: "archived", label: "Archive" },
  ],
  paused: [
    { to: "running", label: "Resume" },
    { to: "archived", label: "Archive" },
  ],
  archived: [{ to: "draft", label: "Restore" }],
};
