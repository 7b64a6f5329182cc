// Deep JSON (issue 29, found from outside): a body nested 5,000 deep, sent with an Idempotency-Key to a call that takes
// no body, overflowed the stack while the key's request hash was computed and answered 500. Every JSON body is now
// bounded in depth before it is parsed (a 400 in the error envelope, whatever the route), and a keyed call hashes only
// the input its schemas validated.
import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskInfos } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../testing/harness.ts";
import { envelopeProblem } from "../testing/security-kit.ts";
import { jsonDeeperThan, MAX_JSON_DEPTH } from "./json-body.ts";

let s: TestServer;
let a: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
});
afterAll(() => s?.close());

const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

const send = (method: string, url: string, payload: string, key: string | null = randomUUID()) =>
  s.api(method, url, {
    token: a.token,
    body: payload,
    headers: { "content-type": "application/json", ...(key ? { "Idempotency-Key": key } : {}) },
  });

describe("a JSON body nested too deep", () => {
  it("is a 400 in the error envelope on the keyed calls that take no body, and nothing runs", async () => {
    const calls: [string, string][] = [
      ["POST", "/api/WalletLog/ExportWalletLogs"],
      ["POST", `/api/SubAccountOrder/OrderSubAcc?id=${randomUUID()}`],
      ["PUT", "/api/ModuleAuth/GenerateAuthCode"],
    ];
    for (const [method, url] of calls) {
      for (const payload of [nestedArrays(5000), nestedObjects(5000)]) {
        const res = await send(method, url, payload);
        expect(res.status, `${url} ${res.raw}`).toBe(400);
        expect(envelopeProblem(res)).toBeNull();
        expect(res.body.error.message).toMatch(/嵌套过深/);
      }
    }
    const tasks = await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
      tx.select({ n: count() }).from(taskInfos).where(eq(taskInfos.tenantId, a.tenantId)),
    );
    expect(tasks[0].n).toBe(0);
  });

  it("is a 400 on any route that takes JSON, with a key or without", async () => {
    for (const [url, key] of [
      ["/api/Product/GetProductsByPage", null],
      ["/api/Product/BatchUpdateProductPrice", randomUUID()],
    ] as const) {
      const res = await send("POST", url, `{"filter":${nestedObjects(MAX_JSON_DEPTH + 1)}}`, key);
      expect(res.status, `${url} ${res.raw}`).toBe(400);
      expect(envelopeProblem(res)).toBeNull();
    }
  });

  it("a body within the bound still reaches the call (the bound is only on depth)", async () => {
    const res = await send("POST", "/api/Product/GetProductsByPage", `{"maxResultCount":1,"x":${nestedArrays(MAX_JSON_DEPTH - 1)}}`, null);
    expect(res.status, res.raw).toBe(200);
  });
});

describe("a keyed call's request hash", () => {
  it("covers only the validated input: a stray body sent to a call that takes none does not make it another request", async () => {
    const key = randomUUID();
    const first = await send("POST", "/api/WalletLog/ExportWalletLogs", '{"a":1}', key);
    expect(first.status, first.raw).toBe(200);
    const again = await send("POST", "/api/WalletLog/ExportWalletLogs", `{"b":${nestedArrays(50)}}`, key);
    expect(again.status, again.raw).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.raw).toBe(first.raw);
  });
});

describe("jsonDeeperThan", () => {
  it("counts nesting outside strings only, escapes included", () => {
    expect(jsonDeeperThan(nestedArrays(3), 3)).toBe(false);
    expect(jsonDeeperThan(nestedArrays(4), 3)).toBe(true);
    expect(jsonDeeperThan(JSON.stringify({ s: "[[[[[{{{{", t: 'x\\"[[[[[', u: [1] }), 2)).toBe(false);
    expect(jsonDeeperThan("[[1],[2],[[3]]]", 3)).toBe(false);
  });
});
