export * from "./constants.js";
export * from "./errors.js";
export * from "./events.js";
export * from "./settings.js";
export type * from "./types.js";
export type * from "./admin.js";
export * from "./match/index.js";
export * from "./editor-protocol.js";
