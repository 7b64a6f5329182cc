import { rmSync } from "node:fs";
import { ensureConsoleBuilt } from "../../scripts/console-build.mjs";
import { dropPostgresTemplate, makePgliteTemplate, makePostgresTemplate, TEMPLATE_ENV } from "./templates.ts";

export default async function setup() {
  // The browser tests and `npm start` serve console/dist: build it once here, before test files run in parallel.
  ensureConsoleBuilt({ quiet: true });
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = await makePostgresTemplate(url);
    process.env[TEMPLATE_ENV] = name;
    return async () => dropPostgresTemplate(url, name);
  }
  const file = await makePgliteTemplate();
  process.env[TEMPLATE_ENV] = file;
  return async () => rmSync(file, { force: true });
}
