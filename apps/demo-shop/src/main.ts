// Starts Little Sprouts on 127.0.0.1. PORT (default 4200) and STOREFIT_API_URL (default
// http://localhost:4100) come from the environment; STOREFIT_CLIENT_KEY overrides the demo key.
import type { AddressInfo } from "node:net";
import { createDemoShop } from "./server";
import { UK_DOMAIN, US_DOMAIN } from "./shops";

const port = Number(process.env["PORT"] ?? 4200);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(
    `demo-shop: PORT must be a port number, got ${JSON.stringify(process.env["PORT"])}`,
  );
  process.exit(1);
}
const apiUrl = process.env["STOREFIT_API_URL"] || "http://localhost:4100";
const clientKey = process.env["STOREFIT_CLIENT_KEY"] || undefined;

const server = createDemoShop({ apiUrl, ...(clientKey ? { clientKey } : {}) });
server.listen(port, "127.0.0.1", () => {
  const { port: actual } = server.address() as AddressInfo;
  console.log(`Little Sprouts (US):  http://${US_DOMAIN}:${actual}/`);
  console.log(`Little Sprouts (UK):  http://${UK_DOMAIN}:${actual}/`);
  console.log(`Storefit snippet from ${apiUrl}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    // Browsers keep connections open; close them so the process exits promptly.
    server.closeAllConnections();
  });
}
