// Vitest's global set-up for the browser tests: they (and `npm start`) serve console/dist and load the extension's
// build (.output/chrome-mv3), so both are built here once, before test files run in parallel, and never by two of them
// at the same time (a build empties its output folder first, under a browser another file is starting). A build newer
// than its sources is kept (CI builds both in steps of their own before the two test runs).
import { ensureConsoleBuilt, ensureExtensionBuilt } from "../scripts/builds.mjs";

export default function setup() {
  ensureConsoleBuilt({ quiet: true });
  ensureExtensionBuilt();
}
