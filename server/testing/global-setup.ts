import { rmSync } from "node:fs";
import {
  dropPostgresTemplate,
  makePgliteTemplate,
  makePgliteTemplateDir,
  makePostgresTemplate,
  removeRunScratch,
  RUN_ENV,
  TEMPLATE_DIR_ENV,
  TEMPLATE_ENV,
} from "./templates.ts";

// The database template every test server copies (testing/templates.ts), made once before test files run in parallel;
// on PGlite also as a data directory, for the tests that start the server as a process (e2e/app-process.ts).
export default async function setup() {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = await makePostgresTemplate(url);
    process.env[TEMPLATE_ENV] = name;
    return async () => dropPostgresTemplate(url, name);
  }
  const file = await makePgliteTemplate();
  const dir = await makePgliteTemplateDir(file);
  process.env[TEMPLATE_ENV] = file;
  process.env[TEMPLATE_DIR_ENV] = dir;
  process.env[RUN_ENV] = String(process.pid);
  return async () => {
    rmSync(file, { force: true });
    rmSync(dir, { recursive: true, force: true });
    removeRunScratch(String(process.pid));
  };
}
