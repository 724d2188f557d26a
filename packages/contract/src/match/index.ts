// The pure matchers (spec §2, §3 "Rules and lists", §5, §6), shared by the storefront script, the
// service and the dashboard. Helpers used only between these files stay unexported here.
export { normalizePagePath, matchPagePath, matchPage, configMatchesPage, REGEX_INPUT_MAX_LENGTH, regexBudget, testRegExp } from "./path.js";
export type { PageMatchKind } from "./path.js";
export { matchDomain, resolveEventDomain, isConfiguredDomain } from "./domain.js";
export { eventCustomerId } from "./event-id.js";
export { matchPathCheck, mergedPagePath, matchesAnyPattern } from "./path-check.js";
// PathCheckType (path-check.ts) is not re-exported: types.ts already exports the same union and
// both are re-exported by ../index.ts, where a second export of the name is an error (TS2308).
