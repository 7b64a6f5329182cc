// The GTIN pool through the HTTP stack (SetCodes, GetCodeCnt, ClearCode) and takeGtinCodes on the real database:
// 20 concurrent takers in separate transactions get distinct codes (PostgreSQL with DATABASE_URL, else PGlite).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNotNull } from "drizzle-orm";
import { gtinCodes } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { AppError } from "../../http/errors.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { isGtin } from "#shared/contract/gtin.ts";
import { listingGtinCodes, takeGtinCodes } from "./service.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
});
afterAll(() => s?.close());

/** A valid EAN-13: 12 digits from `n` and the check digit. */
function ean13(n: number): string {
  const body = String(n).padStart(12, "0");
  let sum = 0;
  for (let i = 11, w = 3; i >= 0; i--, w = 4 - w) sum += Number(body[i]) * w;
  return body + ((10 - (sum % 10)) % 10);
}
let next = 100_000_000;
const fresh = (n: number) => Array.from({ length: n }, () => ean13(next++));

const setCodes = (t: { token: string }, codes: unknown) => s.api("POST", "/api/MeliCode/SetCodes", { token: t.token, body: { codes } });
const count = async (t: { token: string }) => {
  const res = await s.api("GET", "/api/MeliCode/GetCodeCnt", { token: t.token });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as { unused: number; used: number; total: number };
};
const clear = (t: { token: string }) => s.api("DELETE", "/api/MeliCode/ClearCode", { token: t.token });
/** Takes in a transaction of its own; holdMs keeps it open (its row locks held) before committing, so takers overlap. */
const take = (t: TestTenant, n: number, listingId = randomUUID(), holdMs = 0) =>
  inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
    const codes = await takeGtinCodes(tx, t.tenantId, listingId, n);
    if (holdMs) await new Promise((r) => setTimeout(r, holdMs));
    return codes;
  });

describe("GTIN check", () => {
  it("accepts GS1 codes of 8, 12, 13 and 14 digits with their check digit, and nothing else", () => {
    for (const ok of ["96385074", "036000291452", "4006381333931", "10614141000415"]) expect(isGtin(ok), ok).toBe(true);
    for (const bad of ["96385075", "036000291453", "4006381333932", "10614141000416", "123456789", "40063813339a1", "", " 4006381333931"])
      expect(isGtin(bad), bad).toBe(false);
  });
});

describe("MeliCode calls", () => {
  it("adds valid codes, ignores duplicates, counts, and a second tenant sees none of them", async () => {
    const [c1, c2, c3] = fresh(3);
    const first = await setCodes(A, [c1, c2, c2, ` ${c3} `]);
    expect(first.status, first.raw).toBe(200);
    expect(first.body.result).toEqual({ added: 3, ignored: 1 });
    const again = await setCodes(A, [c1, c3]);
    expect(again.body.result).toEqual({ added: 0, ignored: 2 });
    expect(await count(A)).toEqual({ unused: 3, used: 0, total: 3 });
    expect(await count(B)).toEqual({ unused: 0, used: 0, total: 0 });
    // B adding the same codes is B's own pool: A's count does not move, nor is B told they exist.
    const b = await setCodes(B, [c1]);
    expect(b.body.result).toEqual({ added: 1, ignored: 0 });
    expect((await count(A)).total).toBe(3);
    expect((await clear(B)).body.result).toEqual({ deleted: 1 });
    expect((await count(A)).total).toBe(3);
    expect((await clear(A)).body.result).toEqual({ deleted: 3 });
  });

  it("refuses a list with an invalid code with a 400 that names it, and adds nothing", async () => {
    const good = fresh(2);
    const res = await setCodes(A, [...good, "4006381333932", "12345"]);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("4006381333932");
    expect(res.body.error.message).toContain("12345");
    expect(res.body.error.validationErrors).toEqual([
      { message: "无效的 GTIN 码：4006381333932", members: ["codes"] },
      { message: "无效的 GTIN 码：12345", members: ["codes"] },
    ]);
    expect((await count(A)).total).toBe(0);
  });

  it("refuses bad shapes with a 400", async () => {
    for (const body of [{}, { codes: [] }, { codes: "4006381333931" }, { codes: [4006381333931] }, { codes: [""] }]) {
      const res = await s.api("POST", "/api/MeliCode/SetCodes", { token: A.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await count(A)).total).toBe(0);
  });

  it("clears the unused codes only: used ones stay and are never given again", async () => {
    const codes = fresh(5);
    await setCodes(A, codes);
    const listing = randomUUID();
    const taken = await take(A, 2, listing);
    expect(taken).toEqual(codes.slice(0, 2));
    expect(await count(A)).toEqual({ unused: 3, used: 2, total: 5 });
    const res = await clear(A);
    expect(res.body.result).toEqual({ deleted: 3 });
    expect(await count(A)).toEqual({ unused: 0, used: 2, total: 2 });
    // Adding the used codes again does not put them back in the pool.
    expect((await setCodes(A, codes)).body.result).toEqual({ added: 3, ignored: 2 });
    expect(await count(A)).toEqual({ unused: 3, used: 2, total: 5 });
    const more = await take(A, 3);
    expect(more.some((c) => taken.includes(c))).toBe(false);
    expect(await inScope(s.database.db, { tenantId: A.tenantId }, (tx) => listingGtinCodes(tx, A.tenantId, listing))).toEqual(taken);
  });

  it("lets a sub-account add and count codes but not clear the pool", async () => {
    const sub = await s.createSubUser(A);
    const [c] = fresh(1);
    expect((await setCodes(sub, [c])).body.result).toEqual({ added: 1, ignored: 0 });
    expect((await count(sub)).unused).toBe(1);
    expect((await clear(sub)).status).toBe(403);
    expect((await count(A)).unused).toBe(1);
    await clear(A);
  });
});

describe("takeGtinCodes", () => {
  it("takes none and says how many are left when the pool is short", async () => {
    const t = await s.createTenant();
    await setCodes(t, fresh(1));
    const err = await take(t, 2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe("GTIN 码不足：需要 2 个，剩余 1 个，请在 GTIN 管理中添加");
    expect(await count(t)).toEqual({ unused: 1, used: 0, total: 1 });
    // The caller may go on in the same transaction: the partial take was undone, the transaction is still usable.
    const after = await inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
      await takeGtinCodes(tx, t.tenantId, randomUUID(), 2).catch(() => null);
      return takeGtinCodes(tx, t.tenantId, randomUUID(), 1);
    });
    expect(after).toHaveLength(1);
    expect(await count(t)).toEqual({ unused: 0, used: 1, total: 1 });
  });

  it("gives each of 20 concurrent takers distinct codes until the pool is empty, and refuses the rest clearly", async () => {
    const t = await s.createTenant();
    const pool = fresh(15);
    await setCodes(t, pool);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => take(t, 1, randomUUID(), 50)));
    const got = results.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
    const refused = results.filter((r) => r.status === "rejected");
    expect(new Set(got).size).toBe(got.length);
    expect(got.sort()).toEqual([...pool].sort());
    expect(refused).toHaveLength(5);
    for (const r of refused) expect((r as PromiseRejectedResult).reason.message).toMatch(/^GTIN 码不足：需要 1 个，剩余 0 个/);
    expect(await count(t)).toEqual({ unused: 0, used: 15, total: 15 });
  });

  it("never gives a code twice when 20 concurrent takers ask for several each", async () => {
    const t = await s.createTenant();
    const pool = fresh(40);
    await setCodes(t, pool);
    const listings = Array.from({ length: 20 }, () => randomUUID());
    const results = await Promise.allSettled(listings.map((l, i) => take(t, 1 + (i % 3), l, 50)));
    const got = results.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
    expect(new Set(got).size).toBe(got.length);
    results.forEach((r, i) => {
      if (r.status === "fulfilled") expect(r.value).toHaveLength(1 + (i % 3));
      else expect(r.reason.message).toMatch(/^GTIN 码不足/);
    });
    // 20 takers ask for 39 codes of 40: all are served (a refusal could only come from a code locked at that moment).
    expect(got.length).toBeGreaterThan(0);
    // What the database holds agrees: each taken code names its taker's listing, the rest are unused.
    const used = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx
        .select({ code: gtinCodes.code, listingId: gtinCodes.listingId })
        .from(gtinCodes)
        .where(and(eq(gtinCodes.tenantId, t.tenantId), isNotNull(gtinCodes.listingId))),
    );
    expect(used.map((u) => u.code).sort()).toEqual([...got].sort());
    results.forEach((r, i) => {
      if (r.status === "fulfilled") for (const c of r.value) expect(used.find((u) => u.code === c)!.listingId).toBe(listings[i]);
    });
    expect(await count(t)).toEqual({ unused: 40 - got.length, used: got.length, total: 40 });
  });
});
