// Vitest's global set-up for the browser and process tests: they (and `npm start`) serve console/dist, run the server's
// bundle (.build/server/main.mjs) and load the extension's build (.output/chrome-mv3), so all three are built here once,
// before test files run in parallel, and never by two of them at the same time (a build empties its output folder
// first, under a browser another file is starting). A build newer than its sources is kept (CI builds the console and
// the extension in steps of their own before the two test runs).
import { ensureConsoleBuilt, ensureExtensionBuilt, ensureServerBuilt } from "../scripts/builds.mjs";

export default async function setup() {
  ensureConsoleBuilt({ quiet: true });
  await ensureServerBuilt({ quiet: true });
  ensureExtensionBuilt();
}
