// Concurrent writes through the real HTTP stack: bulk edits over the same rows arrive all at once and each is applied
// exactly once, in turn, with no deadlock and no 409; a call that would wait on a row lock longer than the lock limit
// answers 409, and one whose statement runs past the statement limit answers 503 with Retry-After, both leaving the
// rows as they were. PostgreSQL holds row locks per connection; PGlite runs one transaction at a time, so there the
// same call waits for the holder and then succeeds (checked too: it must neither fail nor lose the edit).
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../testing/harness.ts";
import { pricesOfSku, seedPricedProducts } from "../testing/product-kit.ts";

async function idsOfSku(s: TestServer, t: TestTenant, sku: string): Promise<string[]> {
  const rows = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.select({ id: products.id }).from(products).where(eq(products.sku, sku)),
  );
  return rows.map((r) => r.id);
}

const priceEdit = (s: TestServer, t: TestTenant, ids: string[], price: number) =>
  s.api("POST", "/api/Product/BatchUpdateProductPrice", { token: t.token, body: { ids, rate: 1, price } });

describe("bulk edits over the same rows, all at once", () => {
  let s: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  beforeAll(async () => {
    s = await startTestServer();
    a = await s.createTenant();
    b = await s.createTenant();
  });
  afterAll(() => s?.close());

  it("100 price edits of the same 5 products all answer 200 and each adds its amount once", async () => {
    await seedPricedProducts(s.database, a, "same5", [10, 20, 30, 40, 50]);
    const ids = await idsOfSku(s, a, "same5");
    const answers = await Promise.all(Array.from({ length: 100 }, () => priceEdit(s, a, ids, 1)));
    expect(answers.map((r) => r.status).filter((st) => st !== 200)).toEqual([]);
    expect(answers.every((r) => r.body.result.count === 5)).toBe(true);
    expect(await pricesOfSku(s.database, a, "same5")).toEqual(["110.00", "120.00", "130.00", "140.00", "150.00"]);
  });

  it("two tenants' storms over their own rows both finish whole, and neither touches the other's rows", async () => {
    await seedPricedProducts(s.database, a, "storm", [1, 2, 3]);
    await seedPricedProducts(s.database, b, "storm", [100, 200, 300]);
    const [idsA, idsB] = [await idsOfSku(s, a, "storm"), await idsOfSku(s, b, "storm")];
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? priceEdit(s, a, idsA, 1) : priceEdit(s, b, idsB, 2))));
    expect(answers.filter((r) => r.status !== 200).map((r) => r.raw)).toEqual([]);
    expect(await pricesOfSku(s.database, a, "storm")).toEqual(["31.00", "32.00", "33.00"]);
    expect(await pricesOfSku(s.database, b, "storm")).toEqual(["160.00", "260.00", "360.00"]);
  });
});

/**
 * Holds a row lock on the products with this sku, in a transaction of its own, until release() or for `ms`; resolves
 * `held` once the lock is taken and `done` when the transaction ends; `state.released` is set as it begins to let go.
 */
function holdRows(s: TestServer, t: TestTenant, sku: string, ms: number) {
  let locked!: () => void;
  let release!: () => void;
  const held = new Promise<void>((r) => (locked = r));
  const state = { released: false };
  const done = inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
    await tx.execute(sql`select id from products where sku = ${sku} for update`);
    locked();
    await new Promise<void>((r) => {
      release = r;
      setTimeout(r, ms);
    });
    state.released = true;
  });
  return { held, done, state, release: () => release() };
}

describe.each([
  {
    limit: "lock wait",
    config: { dbLockTimeoutMs: 300, dbBulkStatementTimeoutMs: 30_000 },
    status: 409,
    code: "Concurrency.Locked",
    message: "数据正被其他操作修改，请稍后重试",
    retryAfter: undefined,
  },
  {
    limit: "statement time",
    config: { dbLockTimeoutMs: 30_000, dbBulkStatementTimeoutMs: 300 },
    status: 503,
    code: "ServiceBusy",
    message: "服务器繁忙，请稍后重试",
    retryAfter: "2",
  },
])("a call past its $limit limit", ({ config, status, code, message, retryAfter }) => {
  let s: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    s = await startTestServer(config);
    a = await s.createTenant();
  });
  afterAll(() => s?.close());

  it(`answers ${status} within its limit on PostgreSQL and changes nothing; on PGlite it waits its turn`, async () => {
    await seedPricedProducts(s.database, a, "held", [5]);
    const ids = await idsOfSku(s, a, "held");
    const postgres = s.database.kind === "postgres";
    // On PostgreSQL the rows stay locked until the call has answered (the 30 s only ends a hold the call never gave up on).
    const holder = holdRows(s, a, "held", postgres ? 30_000 : 1_500);
    await holder.held;
    const started = Date.now();
    const res = await priceEdit(s, a, ids, 1);
    const waited = Date.now() - started;
    const releasedFirst = holder.state.released;
    holder.release();
    await holder.done;
    if (postgres) {
      expect(res.status).toBe(status);
      expect(res.body.error).toMatchObject({ code, message });
      expect(res.headers["retry-after"]).toBe(retryAfter);
      expect(releasedFirst).toBe(false); // it gave up while the holder still held the rows
      expect(await pricesOfSku(s.database, a, "held")).toEqual(["5.00"]);
    } else {
      expect(res.status).toBe(200);
      expect(waited).toBeGreaterThanOrEqual(1_000); // it ran after the holder's transaction
      expect(await pricesOfSku(s.database, a, "held")).toEqual(["6.00"]);
    }
  });
});
