// Makes sure Debian's Chromium is there for the browser tests (playwright-core drives it; no
// browser is downloaded). Missing and root on Debian: installs it with apt-get. Otherwise it says
// exactly what to install and fails.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM_CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);

const found = () => CHROMIUM_CANDIDATES.find((p) => existsSync(p));

if (found()) {
  console.log(`chromium: ${found()}`);
  process.exit(0);
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const isDebian = existsSync("/etc/debian_version");
if (isRoot && isDebian) {
  console.log("chromium is missing: installing Debian's chromium (apt-get install -y chromium) …");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
  if (found()) {
    console.log(`chromium: ${found()}`);
    process.exit(0);
  }
}
console.error(
  [
    "The browser tests need Chromium, and none was found at /usr/bin/chromium.",
    isDebian
      ? "Install it as root:  apt-get update && apt-get install -y chromium"
      : "Install Chromium with your system's package manager (Debian/Ubuntu: apt-get install -y chromium),",
    "or point CHROMIUM_PATH at a Chromium or Chrome binary.",
  ].join("\n"),
);
process.exit(1);
