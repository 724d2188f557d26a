// Small JSON Schema builders shared by the route schemas. The same objects validate requests
// (Fastify's Ajv) and describe them in /api/openapi.json, so the two cannot drift.

export type JsonSchema = { [key: string]: unknown };

export const str = (maxLength = 1024, minLength = 0): JsonSchema =>
  minLength > 0 ? { type: "string", minLength, maxLength } : { type: "string", maxLength };

export const bool: JsonSchema = { type: "boolean" };
export const num: JsonSchema = { type: "number" };

export const strArray = (maxItems = 100, maxLength = 256): JsonSchema => ({
  type: "array",
  maxItems,
  items: str(maxLength),
});

/** A closed object: unknown keys are refused so a typo is seen at once (docs/decisions.md, "Unknown top-level keys"). */
export function obj(properties: Record<string, JsonSchema>, required: string[] = [], description?: string): JsonSchema {
  return {
    type: "object",
    ...(description ? { description } : {}),
    ...(required.length ? { required } : {}),
    additionalProperties: false,
    properties,
  };
}

export const enumOf = (values: readonly string[]): JsonSchema => ({ type: "string", enum: [...values] });

/** Ids we generate and ids a caller chooses: no ":" (it separates "expId:variationId"). */
export const ID_PATTERN = "^[A-Za-z0-9_.-]{1,128}$";

/**
 * Names every plain JavaScript object already has (`__proto__`, `constructor`, `toString`, …):
 * not ids. Ids are keys of objects the service and the dashboard build, and `map[id] = …` with
 * such an id on `{}` sets the object's prototype or adds to an inherited function. Those maps
 * guard themselves too (results, the visual editor); refusing the names keeps new ones out.
 */
export const RESERVED_IDS: readonly string[] = [...new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__", "prototype"])].sort();

/** The 400's message for a reserved id (Ajv's own for `not` says only "must NOT be valid"). */
export const RESERVED_ID_MESSAGE = `must not be a name every JavaScript object has (${RESERVED_IDS.join(", ")})`;

/** Refuses the reserved names (with `type: "string"`): ids, and other names used as keys (config ids). */
export const notReserved: JsonSchema = { not: { enum: [...RESERVED_IDS] } };

export const id: JsonSchema = { type: "string", pattern: ID_PATTERN, ...notReserved };

export const idParams = obj({ id }, ["id"]);

/** `{ error: { code, message } }`: every 4xx/5xx answer of the service. */
export const errorSchema: JsonSchema = obj(
  {
    error: obj({ code: str(64), message: str(2048), details: {} }, ["code", "message"]),
  },
  ["error"],
);

/** Response documentation: a status and what it means, with a body schema where there is one. */
export type ResponseDocs = Record<number, JsonSchema>;

export const describe = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });

export const errorResponses = (...statuses: number[]): ResponseDocs => {
  const meaning: Record<number, string> = {
    400: "Invalid JSON or a body, query or path that does not fit the schema",
    401: "Not signed in, or an unknown key",
    403: "The role, the CSRF token or the origin does not allow this",
    404: "Not found in this account",
    409: "Conflicts with the current state",
    412: "If-Match does not match the current ETag: changed since it was read; nothing was stored",
    413: "The body is larger than the route's limit: 64 KiB for one visitor's client calls, 1 MiB for event and summary batches and the admin API (docs/security.md)",
    415: "Unsupported content type",
    429: "Rate limited; see Retry-After",
    503: "Another node held the database's write lock for over 5 s; nothing was stored; retry (Retry-After)",
  };
  return Object.fromEntries(statuses.map((s) => [s, describe(errorSchema, meaning[s] ?? "Error")]));
};

/** The security requirement of every /api route but sign-in and the OpenAPI document. */
export const ADMIN_SECURITY: SecurityRequirement[] = [{ session: [] }, { secretKey: [] }];

/** OpenAPI security requirement: scheme name → scopes (none here). */
export type SecurityRequirement = Record<string, string[]>;
