// The one storage interface of the service (product.md §1: "keep storage behind one
// interface"). SQLite implements it today; a PostgreSQL implementation must satisfy the same
// methods later, so nothing here leaks SQL or better-sqlite3 types.

import type {
  ConfigSummary,
  ExperienceKind,
  ExperienceStatus,
  PageMatch,
  Role,
  StorefitSettings,
  TrackedEvent,
  User,
  Config,
} from "@storefit/contract";

/** What an account stores: everything of the settings global except what the service derives. */
export type AccountSettings = Omit<StorefitSettings, "client_key" | "api_host" | "cdn_host">;

export type Account = {
  id: string;
  name: string;
  client_key: string;
  settings: AccountSettings;
  created_at: string;
  updated_at: string;
};

/** A config as the operator defines it inside a variation; the service completes it per answer. */
export type ConfigDefinition = Pick<
  Config,
  "config_customer_id" | "config_id" | "variation" | "variation_data_type" | "properties"
> & { version?: number };

export type VariationDefinition = {
  id: string;
  name: string;
  /** Relative weight; the weights of a behaviour need not sum to 1. */
  weight: number;
  configs: ConfigDefinition[];
};

export type BehaviourDefinition = {
  id: string;
  name: string;
  /** Share of the matched audience that enters the experience, 0..1. */
  traffic_allocation: number;
  variations: VariationDefinition[];
};

export type RuleDefinition = {
  id: string;
  /** null: everyone. Audiences arrive with the decision engine (issue 6). */
  audience_id: string | null;
  audience_name?: string;
  behaviour: BehaviourDefinition;
};

export type PageTarget = { domain: string; page_path: string; page_match: PageMatch };

export type Experience = {
  id: string;
  account_id: string;
  name: string;
  status: ExperienceStatus;
  kind: ExperienceKind;
  priority: number;
  pages: PageTarget[];
  rules: RuleDefinition[];
  created_at: string;
  updated_at: string;
};

export type NewExperience = Omit<Experience, "created_at" | "updated_at">;

export type Operator = {
  id: string;
  account_id: string;
  email: string;
  password_hash: string;
  role: Role;
};

export type StoredEvent = {
  account_id: string;
  insert_id: string;
  event_type: string;
  event_customer_id: string;
  domain: string;
  page_path: string | null;
  user_id: string;
  session_id: string | null;
  event_timestamp: number;
  received_at: string;
  event: TrackedEvent;
};

export type Exposure = ConfigSummary & { probability?: number };

export type InsertResult = { accepted: number; duplicates: number };

export interface Store {
  /** Applies pending numbered migrations; safe to call on every start. */
  migrate(): void;
  close(): void;

  createAccount(account: Omit<Account, "created_at" | "updated_at">): Account;
  getAccountByClientKey(clientKey: string): Account | null;
  getAccount(id: string): Account | null;

  createOperator(operator: Operator): void;
  getOperatorByEmail(email: string): Operator | null;
  getOperator(id: string): Operator | null;

  createSession(tokenHash: string, operatorId: string, csrfToken: string, expiresAt: number): void;
  getSession(tokenHash: string, now: number): { operator_id: string; csrf_token: string } | null;
  deleteSession(tokenHash: string): void;

  saveExperience(experience: NewExperience): Experience;
  listExperiences(accountId: string): Experience[];
  listRunningExperiences(accountId: string): Experience[];

  /** Records the visitor (first and last seen). */
  touchVisitor(accountId: string, userId: string, user: User, now: string): void;

  /** Idempotent on (account, insert_id): a repeated event counts as a duplicate, stored once. */
  insertEvents(accountId: string, userId: string, events: TrackedEvent[], now: string): InsertResult;
  countEvents(accountId: string): number;
  listEvents(accountId: string, limit: number): StoredEvent[];

  insertExposures(accountId: string, exposures: Exposure[], now: string): InsertResult;
  countExposures(accountId: string): number;

  addDevices(
    accountId: string,
    devices: { device_customer_id: string; device_type: string; user_id: string }[],
    now: string,
  ): InsertResult;
  addAlert(accountId: string, alert: unknown, now: string): void;
  countAlerts(accountId: string): number;
}
