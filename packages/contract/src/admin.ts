// Wire shapes of the admin API under /api/ (product.md §3 "Admin API and auth"), shared by the
// service and the dashboard so that both sides change together.

/** Every 4xx/5xx answer of the service, client API and admin API alike. */
export type ApiError = { error: { code: string; message: string; details?: unknown } };

export type Role = "owner" | "editor" | "viewer";

export type SessionInfo = {
  user: { id: string; email: string; role: Role };
  account: { id: string; name: string; client_key: string };
  /** Sent back as the `x-csrf-token` header on every write (POST/PUT/PATCH/DELETE). */
  csrf_token: string;
};

export type SignInRequest = { email: string; password: string };

export type ExperienceStatus = "draft" | "running" | "paused" | "archived";
export type ExperienceKind = "personalization" | "ab_test";

export type ExperienceSummary = {
  id: string;
  name: string;
  status: ExperienceStatus;
  kind: ExperienceKind;
  priority: number;
  /** Page targeting, as `domain + page_path` with its match kind. */
  pages: { domain: string; page_path: string; page_match: "exact_match" | "contains" | "regex" }[];
  variation_count: number;
  updated_at: string;
};

export type ExperienceListResponse = { experiences: ExperienceSummary[] };

/** One stored event as the dashboard's live list shows it. */
export type StoredEventView = {
  insert_id: string;
  event_type: string;
  event_customer_id: string;
  domain: string;
  page_path: string | null;
  user_id: string;
  session_id: string | null;
  event_timestamp: number;
  received_at: string;
};

export type EventListResponse = { total: number; events: StoredEventView[] };
