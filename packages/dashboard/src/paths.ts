/** Routes of the operator app; the service falls back to index.html for any non-API path. */
export const paths = {
  login: "/login",
  experiences: "/",
  newExperience: "/experiences/new",
  experience: (id: string) => `/experiences/${encodeURIComponent(id)}`,
  results: (id: string) => `/experiences/${encodeURIComponent(id)}/results`,
  visualEditor: (id: string) => `/experiences/${encodeURIComponent(id)}/visual`,
  audiences: "/audiences",
  settings: "/settings",
  install: "/install",
  events: "/events",
} as const;

/** Route patterns (react-router) of the parameterised paths above. */
export const routePatterns = {
  newExperience: "/experiences/new",
  experience: "/experiences/:experienceId",
  results: "/experiences/:experienceId/results",
  visualEditor: "/experiences/:experienceId/visual",
} as const;
