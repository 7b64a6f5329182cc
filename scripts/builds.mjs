// Builds the console (console/dist) when the build is missing or older than its sources (console/ or shared/).
// Used by `npm start` and by the browser tests' global set-up (e2e/global-setup.ts), so parallel tests never build at once.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const built = `${root}console/dist/index.html`;

/** The newest modification time under a directory (skipping build output, dependencies and tests). */
function newest(dir) {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "dist" || entry.name === "node_modules" || entry.name.startsWith(".") || entry.name.includes(".test.")) continue;
    const p = join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return max;
}

export function consoleBuildIsStale() {
  return !existsSync(built) || Math.max(newest(`${root}console`), newest(`${root}shared`)) > statSync(built).mtimeMs;
}

export function ensureConsoleBuilt({ quiet = false } = {}) {
  if (!consoleBuildIsStale()) return false;
  if (!quiet) console.log("[start] building the console…");
  execFileSync(
    process.execPath,
    [`${root}node_modules/vite/bin/vite.js`, "build", "--config", "console/vite.config.ts", "--logLevel", "warn"],
    {
      cwd: root,
      stdio: quiet ? "ignore" : "inherit",
      // A build started from the test run would inherit NODE_ENV=test and bundle React's development build.
      env: { ...process.env, NODE_ENV: "production" },
    },
  );
  return true;
}
