// Vitest's global set-up for the browser tests: they (and `npm start`) serve console/dist, so it is built here once,
// before test files run in parallel, and never by two of them at the same time.
import { ensureConsoleBuilt } from "../scripts/console-build.mjs";

export default function setup() {
  ensureConsoleBuilt({ quiet: true });
}
