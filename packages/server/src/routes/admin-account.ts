// The account (settings of product.md §2), its team members and secret keys. Everyone signed in
// reads the account; only owners change it, its members and its keys (product.md §3 roles).

import type { FastifyInstance } from "fastify";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import type {
  AccountFlags,
  AccountPatch,
  AccountView,
  Member,
  MemberInput,
  MemberListResponse,
  MemberPatch,
  SecretKeyCreated,
  SecretKeyInput,
  SecretKeyListResponse,
  SecretKeyView,
} from "@storefit/contract";
import type { Account, Operator, SecretKeyRecord } from "../store/types.js";
import { hashPassword } from "../auth/password.js";
import { newSecretKey, requireAccess } from "../auth/access.js";
import { newId } from "../admin/experiences.js";
import { checkSettingsPatterns } from "../admin/patterns.js";
import { HttpError, sendError } from "../http/errors.js";
import { ADMIN_SECURITY, errorResponses, idParams } from "../schemas/common.js";
import {
  accountPatchBody,
  accountViewSchema,
  keyBody,
  keyCreatedSchema,
  keyListSchema,
  memberBody,
  memberListSchema,
  memberPatchBody,
  memberSchema,
} from "../schemas/admin.js";
import type { AdminOptions } from "./admin.js";

export function accountView(a: Account): AccountView {
  return {
    id: a.id,
    name: a.name,
    client_key: a.client_key,
    access_level: "client",
    settings: a.settings,
    revision: a.revision,
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

/**
 * Account states Storefit sets (a disabled account, a lapsed subscription, the plan's visitor limit
 * reached): the script obeys them and the dashboard shows them, but an operator cannot lift them by
 * editing the settings. Sending the stored value back is accepted, so a client that PATCHes the
 * settings it read keeps working.
 */
const PROVIDER_STATES = {
  account_enabled: "Whether the account is enabled",
  subscription_expired: "Whether the subscription has expired",
  personalized_users_limit_exceeded: "Whether the plan's visitor limit is reached",
} as const satisfies Partial<Record<keyof AccountFlags, string>>;

function refuseProviderStates(stored: AccountFlags, patch: Partial<AccountFlags>): void {
  for (const [name, what] of Object.entries(PROVIDER_STATES) as [keyof typeof PROVIDER_STATES, string][]) {
    const given = patch[name];
    if (given !== undefined && given !== (stored[name] ?? SETTINGS_DEFAULTS[name])) {
      throw new HttpError(403, "forbidden", `${what} (${name}) is set by Storefit and cannot be changed through the account settings`);
    }
  }
}

const memberView = (o: Operator): Member => ({ id: o.id, email: o.email, role: o.role });
const keyView = (k: SecretKeyRecord): SecretKeyView => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: k.created_at,
  last_used_at: k.last_used_at,
});

export function accountRoutes(app: FastifyInstance, opts: AdminOptions): void {
  const { store, clock } = opts;
  const viewer = requireAccess(opts, "viewer");
  const owner = requireAccess(opts, "owner");
  const now = () => new Date(clock()).toISOString();
  const doc = (summary: string, tags = ["account"]) => ({ summary, tags, security: ADMIN_SECURITY });

  app.get(
    "/api/account",
    {
      onRequest: viewer,
      schema: { ...doc("The account: client key (access level client) and settings"), response: { 200: accountViewSchema, ...errorResponses(401) } },
    },
    async (req) => accountView(req.caller!.account),
  );

  app.patch<{ Body: AccountPatch }>(
    "/api/account",
    {
      onRequest: owner,
      schema: {
        ...doc(
          "Change the name or settings (owner); each settings field given replaces the stored one. The states Storefit sets " +
            "(account_enabled, subscription_expired, personalized_users_limit_exceeded) are refused with 403 unless sent unchanged",
        ),
        body: accountPatchBody,
        response: { 200: accountViewSchema, ...errorResponses(400, 401, 403, 413, 415, 503) },
      },
    },
    async (req) => {
      const accountId = req.caller!.account.id;
      if (req.body.settings) await checkSettingsPatterns(req.body.settings);
      // The settings given are merged into the stored ones as they are now (not as read when the
      // request came in): a concurrent PATCH of another field, on any node, is kept.
      const updated = await store.updateAccount(accountId, (account) => {
        if (req.body.settings) refuseProviderStates(account.settings, req.body.settings);
        return {
          ...(req.body.name !== undefined ? { name: req.body.name } : {}),
          ...(req.body.settings ? { settings: { ...account.settings, ...req.body.settings } } : {}),
        };
      });
      if (!updated) throw new HttpError(404, "not_found");
      return accountView(updated);
    },
  );

  // ---- members ----

  app.get(
    "/api/account/members",
    {
      onRequest: owner,
      schema: { ...doc("Team members (owner)", ["members"]), response: { 200: memberListSchema, ...errorResponses(401, 403) } },
    },
    async (req): Promise<MemberListResponse> => ({ members: (await store.listOperators(req.caller!.account.id)).map(memberView) }),
  );

  app.post<{ Body: MemberInput }>(
    "/api/account/members",
    {
      onRequest: owner,
      schema: {
        ...doc("Add a team member with a password and role (owner)", ["members"]),
        body: memberBody,
        response: { 201: memberSchema, ...errorResponses(400, 401, 403, 409, 413, 415, 503) },
      },
    },
    async (req, reply) => {
      const email = req.body.email.trim().toLowerCase();
      if (await store.getOperatorByEmail(email)) return sendError(reply, 409, "conflict", "An operator with this email exists");
      const operator: Operator = {
        id: newId("op"),
        account_id: req.caller!.account.id,
        email,
        password_hash: await hashPassword(req.body.password),
        role: req.body.role,
      };
      // Checked again after the (slow) hashing, with the insert: the same email added meanwhile,
      // on this node or another, is a 409, not a failed insert.
      if (!(await store.createOperator(operator))) throw new HttpError(409, "conflict", "An operator with this email exists");
      return reply.code(201).send(memberView(operator));
    },
  );

  app.patch<{ Params: { id: string }; Body: MemberPatch }>(
    "/api/account/members/:id",
    {
      onRequest: owner,
      schema: {
        ...doc("Change a member's role (owner); the last owner stays owner", ["members"]),
        params: idParams,
        body: memberPatchBody,
        response: { 200: memberSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 503) },
      },
    },
    async (req) => {
      const accountId = req.caller!.account.id;
      // Atomic: two owners demoting each other at once, on any nodes, must leave one.
      const updated = await store.updateOperatorRole(accountId, req.params.id, req.body.role);
      if (updated === "last_owner") throw new HttpError(409, "last_owner");
      if (!updated) throw new HttpError(404, "not_found");
      return memberView(updated);
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/api/account/members/:id",
    {
      onRequest: owner,
      schema: {
        ...doc("Remove a member and end their sessions (owner)", ["members"]),
        params: idParams,
        response: { 204: { description: "Removed", type: "null" }, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (req, reply) => {
      const accountId = req.caller!.account.id;
      const removed = await store.deleteOperator(accountId, req.params.id);
      if (removed === "last_owner") throw new HttpError(409, "last_owner");
      if (!removed) throw new HttpError(404, "not_found");
      return reply.code(204).send();
    },
  );

  // ---- secret keys ----

  app.get(
    "/api/account/keys",
    {
      onRequest: owner,
      schema: { ...doc("Secret keys, without their secrets (owner)", ["keys"]), response: { 200: keyListSchema, ...errorResponses(401, 403) } },
    },
    async (req): Promise<SecretKeyListResponse> => ({ keys: (await store.listSecretKeys(req.caller!.account.id)).map(keyView) }),
  );

  app.post<{ Body: SecretKeyInput }>(
    "/api/account/keys",
    {
      onRequest: owner,
      schema: {
        ...doc("Create a secret key (owner); the secret is in this answer only", ["keys"]),
        body: keyBody,
        response: { 201: keyCreatedSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (req, reply) => {
      const { secret, hash, prefix } = newSecretKey();
      const record = await store.createSecretKey(
        { id: newId("key"), account_id: req.caller!.account.id, name: req.body.name, prefix, created_at: now() },
        hash,
      );
      const created: SecretKeyCreated = { ...keyView(record), secret };
      return reply.code(201).send(created);
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/api/account/keys/:id",
    {
      onRequest: owner,
      schema: {
        ...doc("Revoke a secret key (owner); it stops working at once", ["keys"]),
        params: idParams,
        response: { 204: { description: "Revoked", type: "null" }, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      if (!await store.revokeSecretKey(req.caller!.account.id, req.params.id, now())) return sendError(reply, 404, "not_found");
      return reply.code(204).send();
    },
  );
}
