// `npm start` (after the build): the service with its embedded SQLite on PORT (4100), which also
// serves the dashboard, and the demo shop on DEMO_SHOP_PORT (4200). One process each; if one
// stops, the other is stopped too.
import { spawn } from "node:child_process";

const port = process.env.PORT ?? "4100";
const shopPort = process.env.DEMO_SHOP_PORT ?? "4200";
const apiUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;

const children = [
  spawn(process.execPath, ["packages/server/dist/main.js"], {
    stdio: "inherit",
    // DEMO_SHOP_PORT too: the demo account stores the shop's addresses with their port. The
    // demo shop is on loopback (`*.localhost`): the page check may fetch it (docs/security.md).
    env: { PAGE_CHECK_PRIVATE_ADDRESSES: "loopback", ...process.env, PORT: port, DEMO_SHOP_PORT: shopPort },
  }),
  spawn(process.execPath, ["apps/demo-shop/dist/main.js"], {
    stdio: "inherit",
    env: { ...process.env, PORT: shopPort, STOREFIT_API_URL: apiUrl },
  }),
];

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  process.exitCode = code;
}
for (const c of children) c.on("exit", (code) => stopAll(code ?? 1));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(0));
