// The one way the dashboard talks to the service: same-origin fetches under /api/ with the
// session cookie, the CSRF header on writes (product.md §3 "Admin API and auth"), and every
// failure turned into an ApiRequestError carrying the server's `{ error: { code, message } }`.
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

type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** Required by the service on every write; the session's `csrf_token`. */
  csrfToken?: string | undefined;
  signal?: AbortSignal | undefined;
};

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

export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? "GET";
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET" && options.csrfToken) headers["x-csrf-token"] = options.csrfToken;

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

  if (response.status === 204) return undefined as T;
  const body = await readJson(response);

  if (!response.ok) {
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
  if (body === undefined) {
    throw new ApiRequestError(
      response.status,
      CLIENT_ERROR_CODES.badResponse,
      "The service sent no JSON body.",
    );
  }
  return body as T;
}
