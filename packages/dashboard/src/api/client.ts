// The one way the dashboard talks to the service: same-origin fetches under /api/ with the
// session cookie, the session's CSRF token on every write (product.md §3 "Admin API and auth"),
// and every failure turned into an ApiRequestError carrying the server's
// `{ error: { code, message } }`. The hooks in the other api/ modules are its only callers.
import type { ApiError } from "@storefit/contract";

/** Codes the dashboard produces itself, when the server's answer carries none. */
export const CLIENT_ERROR_CODES = {
  network: "network_error",
  badResponse: "bad_response",
} as const;

export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  /** HTTP status, or 0 when the request never got an answer. */
  readonly status: number;
  readonly code: string;
  readonly details: unknown;

  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function isApiRequestError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

export function isUnauthorized(error: unknown): boolean {
  return isApiRequestError(error) && error.status === 401;
}

export type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** The ETag of the version a write is based on (docs/api.md "Lost updates"). */
  ifMatch?: string | null | undefined;
  signal?: AbortSignal | undefined;
};

let csrfToken: () => string | undefined = () => undefined;

/**
 * Where apiFetch reads the session's CSRF token, which the service requires on every write.
 * createQueryClient (queryClient.ts) points it at the cached session, so no caller passes it.
 */
export function setCsrfTokenSource(source: () => string | undefined): void {
  csrfToken = source;
}

function isApiErrorBody(value: unknown): value is ApiError {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = (value as { error: unknown }).error;
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { code?: unknown }).code === "string" &&
    typeof (error as { message?: unknown }).message === "string"
  );
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * What a 429 shows wherever the screen shows its error (docs/security.md "Rate limits"): polled
 * screens recover on their next poll once the wait is over.
 */
export function rateLimitedMessage(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  const wait = Number.isInteger(seconds) && seconds > 0 ? `about ${seconds} s` : "a moment";
  return `Too many requests for now: the service limits how often one person may call it, searches, date ranges and visitor timelines most. Wait ${wait} and try again.`;
}

/** Sends the request; answers the response when it is a 2xx, else throws its ApiRequestError. */
async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? "GET";
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET") {
    const token = csrfToken();
    if (token) headers["x-csrf-token"] = token;
  }
  if (options.ifMatch) headers["if-match"] = options.ifMatch;

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
    });
  } catch (cause) {
    // An abort is react-query cancelling the request; let it through unchanged.
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiRequestError(
      0,
      CLIENT_ERROR_CODES.network,
      "Could not reach the Storefit service.",
    );
  }
  if (response.ok) return response;

  const body = await readJson(response);
  if (response.status === 429) {
    throw new ApiRequestError(429, "rate_limited", rateLimitedMessage(response.headers.get("retry-after")));
  }
  if (isApiErrorBody(body)) {
    throw new ApiRequestError(
      response.status,
      body.error.code,
      body.error.message,
      body.error.details,
    );
  }
  throw new ApiRequestError(
    response.status,
    `http_${response.status}`,
    `The service answered ${response.status} ${response.statusText}`.trim() + ".",
  );
}

/** The JSON body of a 2xx answer; one without any is an error. */
async function readBody(response: Response): Promise<unknown> {
  const body = await readJson(response);
  if (body === undefined) {
    throw new ApiRequestError(
      response.status,
      CLIENT_ERROR_CODES.badResponse,
      "The service sent no JSON body.",
    );
  }
  return body;
}

export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  if (response.status === 204) return undefined as T;
  return (await readBody(response)) as T;
}

/** apiFetch that also answers the ETag of the version the service sent (null if none came). */
export async function apiFetchVersioned<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ body: T; etag: string | null }> {
  const response = await send(path, options);
  return { body: (await readBody(response)) as T, etag: response.headers.get("etag") };
}
