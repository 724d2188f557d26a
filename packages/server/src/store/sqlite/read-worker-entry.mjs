// The read worker's thread (read-worker.ts says why it exists). Plain JavaScript, so Node runs it
// as it is from the sources (tests; the contract then comes from its build, packages/contract/dist)
// as well as bundled beside dist/main.js (build.mjs).
// One read-only connection to the node's file; each request is a list of statements read in one
// transaction (one snapshot), answered with their rows or with the error's message.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { matchDomain } from "@storefit/contract";

const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
// The writer's checkpoint can hold the file a moment: wait as the node's connection does.
db.pragma("busy_timeout = 5000");

/** During a request: goal id → the page paths that match the goal page (sent with the request). */
let goalPaths = new Map();
// The same functions, with the same answers, as the node's connection (store/sqlite/results.ts).
db.function("storefit_goal_path", { deterministic: false }, (goalId, path) =>
  typeof goalId === "string" && typeof path === "string" && goalPaths.get(goalId)?.has(path) ? 1 : 0,
);
db.function("storefit_domain_match", { deterministic: true }, (domain, pattern) =>
  typeof domain === "string" && typeof pattern === "string" && matchDomain(domain, pattern) ? 1 : 0,
);

const readAll = db.transaction((statements) => statements.map((s) => db.prepare(s.sql).all(s.params)));

parentPort.on("message", ({ id, statements, paths }) => {
  goalPaths = new Map(paths.map(([goal, list]) => [goal, new Set(list)]));
  try {
    parentPort.postMessage({ id, rows: readAll(statements) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  } finally {
    goalPaths = new Map();
  }
});
