// Each call is declared once, in shared/api, and the server registers its handler against that very declaration: every
// registered call is one of the client's declarations (the same object), and every declaration is registered once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../server/testing/harness.ts";
import { callGroups } from "./calls.ts";
import type { CallDef } from "./define.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const declarations = Object.entries(callGroups).flatMap(([group, defs]) =>
  Object.entries(defs).map(([name, def]) => ({ fn: `${group}.${name}`, def: def as CallDef<any, any, any, any> })),
);

describe("every call declared once", () => {
  it("every registered call is registered against a declaration the client lists", () => {
    const listed = new Set(declarations.map((d) => d.def));
    const strays = s.app.calls.filter((c) => !listed.has(c.declared)).map((c) => `${c.group}.${c.name}: ${c.method} ${c.url}`);
    expect(strays).toEqual([]);
  });

  it("every declaration is registered exactly once, at its declared path", () => {
    const times = new Map<object, number>();
    for (const c of s.app.calls) times.set(c.declared, (times.get(c.declared) ?? 0) + 1);
    const wrong = declarations.filter((d) => times.get(d.def) !== 1).map((d) => `${d.fn}: registered ${times.get(d.def) ?? 0} times`);
    expect(wrong).toEqual([]);
    const moved = s.app.calls.filter((c) => c.url !== c.declared.path || c.method !== c.declared.method);
    expect(moved.map((c) => `${c.group}.${c.name}`)).toEqual([]);
  });

  it("no two declarations name the same method and path", () => {
    const seen = declarations.map((d) => `${d.def.method} ${d.def.path.toLowerCase()}`);
    expect(seen.filter((k, i) => seen.indexOf(k) !== i)).toEqual([]);
  });
});
