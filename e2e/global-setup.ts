// Vitest's global set-up for the browser tests: they (and `npm start`) serve console/dist and load the extension's
// build (.output/chrome-mv3), so both are built here once, before test files run in parallel, and never by two of them
// at the same time (a build empties its output folder first, under a browser another file is starting).
import { execFileSync } from "node:child_process";
import { ensureConsoleBuilt } from "../scripts/console-build.mjs";
import { repoRoot } from "./app-process.ts";

export default function setup() {
  ensureConsoleBuilt({ quiet: true });
  execFileSync("npx", ["wxt", "build"], { cwd: repoRoot, stdio: "ignore" });
}
