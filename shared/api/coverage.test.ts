// The client and the server list the same calls: every client function names a registered call (method and path),
// and every registered call has a client function.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../server/testing/harness.ts";
import { callGroups } from "./calls.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const key = (method: string, url: string) => `${method.toUpperCase()} ${url.toLowerCase()}`;

describe("client coverage", () => {
  const client = Object.entries(callGroups).flatMap(([group, defs]) =>
    Object.entries(defs).map(([name, def]) => ({ fn: `${group}.${name}`, key: key(def.method, def.path) })),
  );

  it("every client function names a call the server registers", () => {
    const server = new Set(s.app.calls.map((c) => key(c.method, c.url)));
    expect(client.filter((c) => !server.has(c.key)).map((c) => `${c.fn}: ${c.key}`)).toEqual([]);
  });

  it("every call the server registers has a client function", () => {
    const known = new Set(client.map((c) => c.key));
    const missing = s.app.calls.filter((c) => !known.has(key(c.method, c.url))).map((c) => `${c.group}.${c.name}: ${c.method} ${c.url}`);
    expect(missing).toEqual([]);
  });

  it("no two client functions send the same call", () => {
    const seen = client.map((c) => c.key);
    expect(seen.filter((k, i) => seen.indexOf(k) !== i)).toEqual([]);
  });
});
