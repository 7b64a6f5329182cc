// The import-circle check (scripts/check-cycles.mjs) on small trees written for it: what runs counts, types do not.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importCycles } from "./check-cycles.mjs";

const root = mkdtempSync(join(tmpdir(), "cycles-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>) {
  const dir = join(root, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return importCycles(dir, Object.keys(files));
}

describe("import circles", () => {
  it("finds a circle of value imports, re-exports, side-effect imports and import(), through #shared/ and index files", () => {
    expect(
      tree("values", {
        "server/a.ts": 'import { b } from "./b.ts"; export const a = () => b;',
        "server/b.ts": 'export { c as b } from "./c";',
        "server/c.ts": 'import "#shared/d.ts"; export const c = 1;',
        "shared/d.ts": 'export const d = () => import("./e");',
        "shared/e/index.ts": 'import { a } from "../../server/a.ts"; export const e = a;',
        "server/outside.ts": 'import { a } from "./a.ts"; export const o = a;',
      }),
    ).toEqual([["server/a.ts", "server/b.ts", "server/c.ts", "shared/d.ts", "shared/e/index.ts"]]);
  });

  it("leaves out type-only imports and re-exports, packages, and files that are not source files", () => {
    expect(
      tree("types", {
        "server/a.ts":
          'import type { B } from "./b.ts"; import { type C } from "./c.ts"; import "./a.css"; import pg from "pg"; export const a = 1;',
        "server/b.ts": 'import { a } from "./a.ts"; export type B = typeof a;',
        "server/c.ts":
          'import { a } from "./a.ts"; export type C = typeof a; export type { B } from "./b.ts"; export { type D } from "./d.ts";',
        "server/d.ts": 'import { a } from "./a.ts"; export type D = typeof a;',
      }),
    ).toEqual([]);
  });

  it("finds a file that imports itself", () => {
    expect(tree("self", { "console/x.tsx": 'import { y } from "./x.tsx"; export const y = 1;' })).toEqual([["console/x.tsx"]]);
  });
});
