// The error catalogue of spec §8. The shipped storefront script keeps only the codes; the debug
// build and the service look the messages up here (conventions, habit 3).

export const ERROR_MESSAGES = {
  // Transport (spec §8 "Transport codes").
  CFJSSDK000: "Beacon sent, no answer awaited",
  CFJSSDK001: "The service answered with status 203 or above",
  CFJSSDK002: "The service answered with an unexpected status",
  CFJSSDK003: "An error response was received",
  CFJSSDK004: "A CORS or network error occurred",
  // Initialization stops (spec §8 "Initialization stops", spec §6).
  CFINIT001: "Subscription has expired",
  CFINIT002: "SDK is powered off",
  CFINIT003: "Bot detected",
  CFINIT004: "Init element is missing",
  CFINIT005: "Domain is not configured for this account; exiting",
  CFINIT006: "Init failed: the client key is missing",
  CFINIT007: "Multiple initialization is not allowed outside single-page mode",
  CFINIT008: "Edit mode: personalization is not run",
  CFINIT009: "Outbound-only account without a gate marker; exiting",
  CFINIT010: "Account is disabled",
  CFINIT011: "Skip flag is set",
  // Config call (spec §8 "Config call failure").
  CFCFG001: "Config call failed",
  CFCFG002: "Config call timed out",
  // Caught exceptions that are only logged (spec §8 "Other").
  CFRUN001: "A caught exception",
  CFRUN002: "A page element was not found before the time-out",
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** Error codes of the service's JSON error answers (`{ error: { code, message } }`). */
export const API_ERROR_CODES = {
  bad_request: "The request is not valid HTTP",
  request_timeout: "The request did not arrive in time",
  headers_too_large: "The request's headers are too large",
  invalid_json: "The body is not valid JSON",
  invalid_body: "The body does not have the expected shape",
  missing_client_key: "The client key (cfenc) is missing",
  unknown_client_key: "The client key is not known",
  forbidden_origin: "This origin is not a domain of the account",
  payload_too_large: "The body is larger than 1 MiB",
  unsupported_media_type: "This content type is not accepted",
  not_found: "Not found",
  unauthorized: "Sign in first",
  forbidden: "Your role does not allow this",
  csrf: "The CSRF token is missing or wrong",
  invalid_credentials: "The email or password is wrong",
  rate_limited: "Too many requests",
  invalid_condition: "The audience condition is not valid",
  invalid_reference: "The body refers to something that does not exist in this account",
  invalid_transition: "The experience cannot move to that status from its current one",
  not_publishable: "The experience cannot run: it needs pages and a variation with weight",
  in_use: "Still in use; remove the references first",
  conflict: "Conflicts with an existing resource",
  last_owner: "The account must keep at least one owner",
  precondition_failed: "Changed since it was read (If-Match does not match its ETag)",
  busy: "The database is busy with another write; retry in a moment",
  internal: "Internal error",
} as const;

export type ApiErrorCode = keyof typeof API_ERROR_CODES;
