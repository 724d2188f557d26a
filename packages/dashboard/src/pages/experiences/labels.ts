import type { ExperienceKind, ExperienceStatus } from "@storefit/contract";

export const EXPERIENCE_KIND_LABELS: Record<ExperienceKind, string> = {
  personalization: "Personalization",
  ab_test: "A/B test",
};

export const EXPERIENCE_STATUS_LABELS: Record<ExperienceStatus, string> = {
  draft: "Draft",
  running: "Running",
  paused: "Paused",
  archived: "Archived",
};

export const PAGE_MATCH_LABELS = {
  exact_match: "exact",
  contains: "contains",
  regex: "regex",
} as const;
