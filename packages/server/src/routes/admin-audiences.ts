// Audiences (product.md §3): named conditions over the visitor's attributes, shared by the
// rules of experiences. The condition is checked with validateCondition, and each `$regex` with
// recheck's analysis off the event loop (admin/patterns.ts), when saved or evaluated: a broken or
// slow one is refused at once rather than silently matching nobody, or stalling the node, later.

import type { FastifyInstance } from "fastify";
import type { Audience, AudienceEvaluateRequest, AudienceEvaluateResponse, AudienceInput, AudienceListResponse, ClauseVerdict } from "@storefit/contract";
import { requireAccess } from "../auth/access.js";
import { newId } from "../admin/experiences.js";
import { conditionPatternProblem } from "../admin/patterns.js";
import { attributesOf, evalCondition, validateCondition } from "../decide/conditions.js";
import type { Condition } from "../decide/conditions.js";
import { HttpError } from "../http/errors.js";
import { ADMIN_SECURITY, bool, errorResponses, idParams, obj, str } from "../schemas/common.js";
import type { JsonSchema } from "../schemas/common.js";
import { audienceBody, audienceListSchema, audienceSchema } from "../schemas/admin.js";
import type { AdminOptions } from "./admin.js";
import type { Store } from "../store/types.js";
import { REGEX_BUDGET_MS, withRegexBudget } from "../decide/regex-budget.js";

async function checkCondition(condition: unknown): Promise<void> {
  const result = validateCondition(condition);
  const problem = result.ok ? await conditionPatternProblem(condition) : result;
  if (problem) {
    const where = problem.path ? ` at ${problem.path}` : "";
    throw new HttpError(400, "invalid_condition", `The condition is not valid${where}: ${problem.error}`);
  }
}

// ---- "Would this visitor match?" (the dashboard's tester; wire types in @storefit/contract) ----

/** Nesting the verdict list goes into before it reports a clause as a whole. */
const MAX_EXPLAIN_DEPTH = 6;

export const evaluateBody = obj(
  {
    condition: { type: "object", description: "A condition, as an audience holds it (validated first)" },
    visitor: obj(
      {
        user: {
          type: "object",
          description: "The visitor as the script sends it (spec §3 User): properties, tags, campaign fields, …",
        },
        url: str(4096),
      },
      ["user"],
    ),
  },
  ["condition", "visitor"],
);

const clauseSchema: JsonSchema = obj(
  {
    path: str(4096),
    depth: { type: "integer" },
    attribute: { type: ["string", "null"] },
    operator: { type: ["string", "null"], description: "$and, $or, $nor or $not for a group; null for an attribute" },
    expected: { description: "What the clause asks for" },
    actual: { description: "The visitor's value of the attribute (absent when it has none)" },
    matches: bool,
  },
  ["path", "depth", "attribute", "operator", "matches"],
);

export const evaluateSchema = obj(
  {
    matches: bool,
    clauses: { type: "array", items: clauseSchema, description: "Every clause, depth first, with its own verdict" },
    attributes: { type: "object", additionalProperties: true, description: "The attributes the condition was evaluated against" },
  },
  ["matches", "clauses", "attributes"],
);

/** The value a dotted path reaches, for display; arrays are walked as the evaluator walks them. */
function valueAt(doc: unknown, path: string): unknown {
  let values: unknown[] = [doc];
  for (const part of path.split(".")) {
    const next: unknown[] = [];
    for (const v of values) {
      if (Array.isArray(v)) {
        if (/^\d+$/.test(part)) next.push(v[Number(part)]);
        else for (const el of v) if (el && typeof el === "object" && Object.hasOwn(el, part)) next.push((el as Record<string, unknown>)[part]);
      } else if (v && typeof v === "object" && Object.hasOwn(v, part)) {
        next.push((v as Record<string, unknown>)[part]);
      }
    }
    values = next;
  }
  return values.length === 0 ? undefined : values.length === 1 ? values[0] : values;
}

/** One verdict per clause, so the operator sees which part of a condition failed. */
export function explainCondition(attributes: Record<string, unknown>, condition: Condition, path = "", depth = 0): ClauseVerdict[] {
  const out: ClauseVerdict[] = [];
  for (const [key, arg] of Object.entries(condition)) {
    const here = path ? `${path}.${key}` : key;
    const clause = { [key]: arg } as Condition;
    const matches = evalCondition(attributes, clause);
    if (key === "$and" || key === "$or" || key === "$nor" || key === "$not") {
      out.push({ path: here, depth, attribute: null, operator: key, expected: arg as ClauseVerdict["expected"], matches });
      if (depth + 1 >= MAX_EXPLAIN_DEPTH) continue;
      const parts = key === "$not" ? [arg] : Array.isArray(arg) ? arg : [];
      parts.forEach((part, i) => {
        if (part && typeof part === "object" && !Array.isArray(part)) {
          out.push(...explainCondition(attributes, part as Condition, key === "$not" ? here : `${here}[${i}]`, depth + 1));
        }
      });
    } else {
      const actual = valueAt(attributes, key);
      out.push({
        path: here,
        depth,
        attribute: key,
        operator: null,
        expected: arg as ClauseVerdict["expected"],
        ...(actual === undefined ? {} : { actual: actual as ClauseVerdict["expected"] }),
        matches,
      });
    }
  }
  return out;
}

export function audienceRoutes(app: FastifyInstance, opts: AdminOptions): void {
  const { store } = opts;
  const viewer = requireAccess(opts, "viewer");
  const editor = requireAccess(opts, "editor");
  const doc = (summary: string) => ({ summary, tags: ["audiences"], security: ADMIN_SECURITY });

  const notFound = (audienceId: string) => new HttpError(404, "not_found", `No audience "${audienceId}" in this account`);
  const load = async (s: Store, accountId: string, audienceId: string): Promise<Audience> => {
    const a = await s.getAudience(accountId, audienceId);
    if (!a) throw notFound(audienceId);
    return a;
  };

  app.get(
    "/api/audiences",
    { onRequest: viewer, schema: { ...doc("All audiences, oldest first"), response: { 200: audienceListSchema, ...errorResponses(401) } } },
    async (req): Promise<AudienceListResponse> => ({ audiences: await store.listAudiences(req.caller!.account.id) }),
  );

  app.post<{ Body: AudienceInput }>(
    "/api/audiences",
    {
      onRequest: editor,
      schema: {
        ...doc("Create an audience; the condition is validated"),
        body: audienceBody,
        response: { 201: audienceSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (req, reply) => {
      await checkCondition(req.body.condition);
      const saved = await store.saveAudience({
        id: newId("aud"),
        account_id: req.caller!.account.id,
        name: req.body.name,
        description: req.body.description ?? "",
        condition: req.body.condition,
      });
      return reply.code(201).send(saved);
    },
  );

  app.post<{ Body: AudienceEvaluateRequest }>(
    "/api/audiences/evaluate",
    {
      onRequest: viewer,
      schema: {
        ...doc("Would this visitor match this condition, and why (stores nothing; any role)"),
        body: evaluateBody,
        response: { 200: evaluateSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (req): Promise<AudienceEvaluateResponse> => {
      await checkCondition(req.body.condition);
      const { user, url } = req.body.visitor;
      // The same attributes as a config call at this moment (`now` included).
      const attributes = attributesOf(user as Record<string, unknown>, { now: opts.clock(), ...(url === undefined ? {} : { url }) });
      const condition = req.body.condition as Condition;
      // The operator's patterns on the visitor's values they typed: within a budget (decide/regex-budget.ts).
      const { value: verdict, spent } = withRegexBudget(REGEX_BUDGET_MS.admin, "an audience test", () => ({
        matches: evalCondition(attributes, condition),
        clauses: explainCondition(attributes, condition),
      }));
      // An answer whose later clauses matched nothing for want of time would be a wrong answer.
      if (spent) {
        throw new HttpError(400, "invalid_condition", `The condition's regular expressions took more than ${REGEX_BUDGET_MS.admin} ms on these values: use fewer or anchored patterns, or shorter values`);
      }
      return { ...verdict, attributes: attributes as AudienceEvaluateResponse["attributes"] };
    },
  );

  app.get<{ Params: { id: string } }>(
    "/api/audiences/:id",
    { onRequest: viewer, schema: { ...doc("One audience"), params: idParams, response: { 200: audienceSchema, ...errorResponses(400, 401, 404) } } },
    async (req) => load(store, req.caller!.account.id, req.params.id),
  );

  app.put<{ Params: { id: string }; Body: AudienceInput }>(
    "/api/audiences/:id",
    {
      onRequest: editor,
      schema: {
        ...doc("Replace an audience; running experiences use the new condition on the next config call"),
        params: idParams,
        body: audienceBody,
        response: { 200: audienceSchema, ...errorResponses(400, 401, 403, 404, 413, 415, 503) },
      },
    },
    async (req) => {
      const accountId = req.caller!.account.id;
      await checkCondition(req.body.condition);
      // Atomic: an audience deleted meanwhile (on any node) is a 404, not re-created.
      const saved = await store.updateAudience(accountId, req.params.id, (current) => ({
        id: current.id,
        account_id: accountId,
        name: req.body.name,
        description: req.body.description ?? "",
        condition: req.body.condition,
      }));
      if (!saved) throw notFound(req.params.id);
      return saved;
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/api/audiences/:id",
    {
      onRequest: editor,
      schema: {
        ...doc("Delete an audience no experience uses"),
        params: idParams,
        response: { 204: { description: "Deleted", type: "null" }, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (req, reply) => {
      const accountId = req.caller!.account.id;
      // Atomic: no experience saved on another node between the check and the delete can be
      // left naming a deleted audience.
      const outcome = await store.deleteAudience(accountId, req.params.id);
      if (!outcome) throw notFound(req.params.id);
      if ("usedBy" in outcome) throw new HttpError(409, "in_use", `Used by: ${outcome.usedBy.join(", ")}`);
      return reply.code(204).send();
    },
  );
}
