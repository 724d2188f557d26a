// Builds the operator app into static files that the provider service serves at "/" (same origin
// as the admin API, so the session cookie and CSRF header need no CORS).
import { defineConfig, defaultClientConditions } from "vite";
import react from "@vitejs/plugin-react";

const SERVICE_ORIGIN = "http://localhost:4100";

export default defineConfig({
  plugins: [react()],
  base: "/",
  resolve: {
    // "source" makes workspace packages such as @storefit/contract resolve to their TypeScript
    // source, so the dashboard builds without building them first. Setting `conditions` replaces
    // Vite's defaults, hence the spread.
    conditions: ["source", ...defaultClientConditions],
  },
  build: { outDir: "dist", emptyOutDir: true },
  server: {
    // `npm run dev -w @storefit/dashboard` against a running service: same-origin paths from the
    // browser's point of view, forwarded to the service.
    proxy: {
      "/api": SERVICE_ORIGIN,
      "/v1": SERVICE_ORIGIN,
      "/sdk": SERVICE_ORIGIN,
    },
  },
});
