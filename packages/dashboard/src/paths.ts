/** Routes of the operator app; the service falls back to index.html for any non-API path. */
export const paths = {
  login: "/login",
  experiences: "/",
  events: "/events",
} as const;
