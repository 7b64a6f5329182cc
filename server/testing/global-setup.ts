import { rmSync } from "node:fs";
import { dropPostgresTemplate, makePgliteTemplate, makePostgresTemplate, TEMPLATE_ENV } from "./templates.ts";

// The database template every test server copies (testing/templates.ts), made once before test files run in parallel.
export default async function setup() {
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
