// Builds the console (console/dist) and the extension (.output/chrome-mv3) when a build is missing or older than its
// sources. Used by `npm start` (the console) and by the tests' global set-up (e2e/global-setup.ts: both, once per run
// before test files run in parallel), so a run after CI's build steps reuses their output instead of building again.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The newest modification time under a path (skipping build output, dependencies, dot-folders and tests). */
function newest(path) {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === "dist" || entry.name === "node_modules" || entry.name.startsWith(".") || entry.name.includes(".test.")) continue;
    max = Math.max(max, newest(join(path, entry.name)));
  }
  return max;
}

/** A build is stale when its marker file is missing or older than any of its sources. */
function isStale(marker, sources) {
  return !existsSync(marker) || Math.max(...sources.map((s) => newest(`${root}${s}`))) > statSync(marker).mtimeMs;
}

const consoleBuildIsStale = () => isStale(`${root}console/dist/index.html`, ["console", "shared"]);

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

const extensionBuildIsStale = () =>
  isStale(`${root}.output/chrome-mv3/manifest.json`, ["extension", "shared", "wxt.config.ts", "package-lock.json"]);

/** `npm run build:extension` when its build is stale (quietly: the browser tests' set-up). */
export function ensureExtensionBuilt() {
  if (!extensionBuildIsStale()) return false;
  execFileSync(process.execPath, [`${root}node_modules/wxt/bin/wxt.mjs`, "build"], {
    cwd: root,
    stdio: "ignore",
    env: { ...process.env, NODE_ENV: "production" },
  });
  return true;
}
