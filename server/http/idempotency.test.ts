// Idempotency-Key through the real HTTP stack and database (PGlite here, PostgreSQL in CI): a bulk price edit whose
// answer was lost and is sent again with the same key changes the prices once and answers the first body; the same key
// with another request is refused with nothing changed; keys are per tenant and user; a request without a key still
// runs; concurrent duplicates do the work once; an expired key starts afresh; client and server mark the same calls.
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../db/client.ts";
import { productEdits, products } from "../db/schema.ts";
import { hostAllScope, inScope } from "../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../testing/harness.ts";
import { envelopeProblem } from "../testing/security-kit.ts";
import { callGroups } from "#shared/api/calls.ts";
import type { CallDef } from "#shared/api/define.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
});
afterAll(() => s?.close());

const PRICE = "/api/Product/BatchUpdateProductPrice";

/** Three products of the tenant tagged by sku, priced 10.00, 20.00 and 30.00. */
async function seed(t: TestTenant) {
  const tag = `idem-${randomUUID()}`;
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.insert(products).values(
      [10, 20, 30].map((p) => ({
        tenantId: t.tenantId,
        id: randomUUID(),
        userId: t.userId,
        sku: tag,
        price: p.toFixed(2),
        currency: "CNY",
      })),
    ),
  );
  return tag;
}

async function prices(t: TestTenant, tag: string) {
  const rows = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.select({ price: products.price }).from(products).where(eq(products.sku, tag)).orderBy(products.price),
  );
  return rows.map((r) => r.price);
}

async function editCount(t: TestTenant) {
  const rows = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select({ n: sql<number>`count(*)::int` })
      .from(productEdits)
      .where(eq(productEdits.userId, t.userId)),
  );
  return Number(rows[0].n);
}

const raise = (t: TestTenant, tag: string, key?: string, rate = 1.1) =>
  s.api("POST", PRICE, { token: t.token, body: { filter: { sku: tag }, rate }, headers: key ? { "Idempotency-Key": key } : {} });

describe("Idempotency-Key on a bulk edit", () => {
  it("a retry with the same key and body answers the first result and changes the prices once", async () => {
    const tag = await seed(a);
    const key = randomUUID();
    const edits = await editCount(a);
    const first = await raise(a, tag, key);
    expect(first.status, first.raw).toBe(200);
    expect(first.body.result.count).toBe(3);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(await prices(a, tag)).toEqual(["11.00", "22.00", "33.00"]);

    const retry = await raise(a, tag, key);
    expect(retry.status).toBe(200);
    expect(retry.raw).toBe(first.raw);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(await prices(a, tag)).toEqual(["11.00", "22.00", "33.00"]);
    expect(await editCount(a)).toBe(edits + 1);
  });

  it("the same key with another body, or on another call, is a 422 in the error envelope and changes nothing", async () => {
    const tag = await seed(a);
    const key = randomUUID();
    expect((await raise(a, tag, key)).status).toBe(200);
    const other = await raise(a, tag, key, 2);
    expect(other.status).toBe(422);
    expect(other.headers["_abperrorformat"]).toBe("true");
    expect(other.body.error).toMatchObject({ code: "Idempotency.KeyReused", message: expect.stringMatching(/Idempotency-Key/) });
    expect(envelopeProblem({ ...other, status: 400 })).toBeNull();
    const otherCall = await s.api("POST", "/api/Product/BatchUpdateProductSamePrice", {
      token: a.token,
      body: { filter: { sku: tag }, fixPrice: 1 },
      headers: { "Idempotency-Key": key },
    });
    expect(otherCall.status, otherCall.raw).toBe(422);
    expect(await prices(a, tag)).toEqual(["11.00", "22.00", "33.00"]);
  });

  it("another tenant's use of the same key is independent", async () => {
    const [tagA, tagB] = [await seed(a), await seed(b)];
    const key = randomUUID();
    const inA = await raise(a, tagA, key);
    const inB = await raise(b, tagB, key);
    expect(inB.status, inB.raw).toBe(200);
    expect(inB.headers["idempotent-replayed"]).toBeUndefined();
    expect(inB.body.result.editId).not.toBe(inA.body.result.editId);
    expect(await prices(a, tagA)).toEqual(["11.00", "22.00", "33.00"]);
    expect(await prices(b, tagB)).toEqual(["11.00", "22.00", "33.00"]);
  });

  it("a request without a key still runs (older clients): sent twice, it applies twice", async () => {
    const tag = await seed(a);
    expect((await raise(a, tag)).status).toBe(200);
    expect((await raise(a, tag)).status).toBe(200);
    expect(await prices(a, tag)).toEqual(["12.10", "24.20", "36.30"]);
  });

  it("concurrent requests with one key do the work once and all answer the same body", async () => {
    const tag = await seed(a);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 8 }, () => raise(a, tag, key)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((r) => r.raw)).size).toBe(1);
    expect(answers.filter((r) => r.headers["idempotent-replayed"] === undefined)).toHaveLength(1);
    expect(await prices(a, tag)).toEqual(["11.00", "22.00", "33.00"]);
  });

  it("a key past its 24 hours runs the call again", async () => {
    const tag = await seed(a);
    const key = randomUUID();
    expect((await raise(a, tag, key)).status).toBe(200);
    await inScope(s.database.db, hostAllScope, (tx) =>
      tx.execute(sql`update idempotency_keys set creation_time = now() - interval '25 hours' where key = ${key}`),
    );
    const again = await raise(a, tag, key);
    expect(again.status).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBeUndefined();
    expect(await prices(a, tag)).toEqual(["12.10", "24.20", "36.30"]);
    const kept = await inScope(s.database.db, hostAllScope, (tx) =>
      tx.execute(sql`select count(*)::int as n from idempotency_keys where key = ${key}`),
    );
    expect(rowsOf<{ n: number }>(kept)[0].n).toBe(1);
  });

  it("a key that is not 1-255 visible characters is a 400 and nothing runs", async () => {
    const tag = await seed(a);
    for (const key of ["x".repeat(256), "含中文"]) {
      const res = await raise(a, tag, key);
      expect(res.status, key).toBe(400);
      expect(envelopeProblem(res)).toBeNull();
    }
    expect(await prices(a, tag)).toEqual(["10.00", "20.00", "30.00"]);
  });

  it("every call marked idempotent takes a logged-in caller, and the shared client marks exactly the same calls", () => {
    const key = (method: string, url: string) => `${method} ${url.toLowerCase()}`;
    const marked = s.app.calls.filter((c) => c.idempotent);
    expect(marked.every((c) => c.access !== "anonymous")).toBe(true);
    expect(marked.map((c) => c.url)).toEqual(
      expect.arrayContaining([PRICE, "/api/Collect/BatchDeleteCollects", "/api/User/CreateSubUser"]),
    );
    const client = Object.values(callGroups)
      .flatMap((defs) => Object.values(defs) as CallDef[])
      .filter((d) => d.idempotent)
      .map((d) => key(d.method, d.path));
    expect(client.sort()).toEqual(marked.map((c) => key(c.method, c.url)).sort());
  });
});
