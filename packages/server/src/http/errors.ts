// One JSON error shape for every 4xx/5xx answer: `{ error: { code, message } }`.

import { API_ERROR_CODES } from "@storefit/contract";
import type { ApiErrorCode } from "@storefit/contract";
import type { FastifyReply } from "fastify";

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message?: string,
  ) {
    super(message ?? API_ERROR_CODES[code]);
  }
}

export function sendError(
  reply: FastifyReply,
  statusCode: number,
  code: ApiErrorCode,
  message?: string,
): FastifyReply {
  return reply
    .code(statusCode)
    .header("x-content-type-options", "nosniff")
    .type("application/json; charset=utf-8")
    .send({ error: { code, message: message ?? API_ERROR_CODES[code] } });
}

/** 429 with Retry-After (seconds), the one answer of every rate limit. */
export function sendRateLimited(reply: FastifyReply, retryAfterS: number): FastifyReply {
  reply.header("retry-after", String(retryAfterS));
  return sendError(reply, 429, "rate_limited", `Too many requests; retry after ${retryAfterS} s`);
}
