// The authorization centre through the real HTTP stack and database (PGlite here, PostgreSQL with DATABASE_URL):
// tenant B generates a code, tenant A applies with it, B audits; a grant in force lets A's users read B's products
// (and copy them when granted) and nothing else, until it expires or B revokes it. Other tenants (B on A, a third
// tenant C) get nothing; bad input is a 4xx that changes nothing; sub-accounts cannot use the centre's calls.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { ModuleAuthContent, ModuleAuthStatus, ProductStatus } from "#shared/contract/enums.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";

let s: TestServer;

const M = "/api/ModuleAuth";
const DAY = 86_400_000;
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();
const key = () => ({ "Idempotency-Key": randomUUID() });

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

async function code(t: { token: string }): Promise<string> {
  const res = await s.api("PUT", `${M}/GenerateAuthCode`, { token: t.token, headers: key() });
  expect(res.status, res.raw).toBe(200);
  expect(res.body.result.code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  return res.body.result.code;
}

const apply = (t: { token: string }, body: Record<string, unknown>) =>
  s.api("POST", `${M}/ApplyAuth`, { token: t.token, body, headers: key() });
const audit = (t: { token: string }, body: Record<string, unknown>) =>
  s.api("POST", `${M}/AuditAuth`, { token: t.token, body, headers: key() });
const revoke = (t: { token: string }, id: string) => s.api("POST", `${M}/RevokeAuth`, { token: t.token, body: { id }, headers: key() });
const reApply = (t: { token: string }, body: Record<string, unknown>) =>
  s.api("POST", `${M}/ReApplyAuth`, { token: t.token, body, headers: key() });
const authProducts = (t: { token: string }, authId: string, extra: Record<string, unknown> = {}) =>
  s.api("POST", `${M}/GetAuthProducts`, { token: t.token, body: { authId, maxResultCount: 100, ...extra } });
const copy = (t: { token: string }, authId: string, productIds: string[], headers = key()) =>
  s.api("POST", `${M}/CopyAuthProducts`, { token: t.token, body: { authId, productIds }, headers });

/** A grant of B to A in force with the given content: code, apply, approve. */
async function grant(a: TestTenant, b: TestTenant, content: string[] = [ModuleAuthContent.Products]): Promise<string> {
  const applied = await apply(a, { code: await code(b), authContent: content, expireTime: inDays(30) });
  expect(applied.status, applied.raw).toBe(200);
  const approved = await audit(b, { id: applied.body.result.id, auditStatus: ModuleAuthStatus.Approved });
  expect(approved.status, approved.raw).toBe(200);
  return applied.body.result.id;
}

async function createProduct(t: { token: string }, sku: string): Promise<string> {
  const res = await s.api("POST", "/api/Product/CreateOrUpdateProduct", {
    token: t.token,
    body: { title: { zh: `商品 ${sku}` }, sku, price: 12.5 },
    headers: key(),
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.id;
}

async function ownSkus(t: { token: string }): Promise<string[]> {
  const res = await s.api("POST", "/api/Product/GetProductsByPage", { token: t.token, body: { maxResultCount: 100 } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.items.map((p: { sku: string }) => p.sku).sort();
}

/** Rows of the centre's tables, read as the host (the opt-out), for "nothing changed" checks. */
async function counts() {
  return inScope(s.database.db, hostAllScope, async (tx) => {
    const [r] = rowsOf<{ auths: number; used: number; codes: number; products: number }>(
      await tx.execute(sql`select (select count(*)::int from module_auths) as auths,
        (select count(*)::int from module_auth_codes where used_time is not null) as used,
        (select count(*)::int from module_auth_codes) as codes,
        (select count(*)::int from products) as products`),
    );
    return r;
  });
}

async function setExpiry(id: string, when: Date) {
  await inScope(s.database.db, hostAllScope, (tx) =>
    tx.execute(sql`update module_auths set expire_time = ${when.toISOString()} where id = ${id}`),
  );
}

async function initCache(t: { token: string }) {
  const res = await s.api("GET", "/api/User/GetUserInitCache", { token: t.token });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.moduleAuths as { id: string; name: string }[];
}

describe("grant and use", () => {
  it("A applies with B's code, B approves, A reads B's products and nothing of its own list changes", async () => {
    const a = await s.createTenant();
    const b = await s.createTenant();
    const tag = uniqueName("b");
    await createProduct(b, `${tag}-1`);
    const b2 = await createProduct(b, `${tag}-2`);
    await createProduct(a, "a-own");

    const applied = await apply(a, {
      code: (await code(b)).toLowerCase(),
      authContent: ["products"],
      expireTime: inDays(30),
      remark: "合作",
    });
    expect(applied.status, applied.raw).toBe(200);
    const id = applied.body.result.id;
    expect(applied.body.result).toMatchObject({
      tenantId: a.tenantId,
      tenantName: a.tenantName,
      authTenantId: b.tenantId,
      authTenantName: b.tenantName,
      authContent: ["products"],
      auditStatus: ModuleAuthStatus.Pending,
      remark: "合作",
    });
    // Pending: nothing usable yet.
    expect((await authProducts(a, id)).status).toBe(403);
    const made = await s.api("GET", `${M}/GetApplys`, { token: a.token, query: { Type: 1 } });
    expect(made.body.result.items.map((x: { id: string }) => x.id)).toEqual([id]);
    const got = await s.api("GET", `${M}/GetApplys`, { token: b.token, query: { Type: 2 } });
    expect(got.body.result.items.map((x: { id: string }) => x.id)).toEqual([id]);
    // B's own applications (Type 1) do not include what it received.
    expect((await s.api("GET", `${M}/GetApplys`, { token: b.token, query: { Type: 1 } })).body.result.totalCount).toBe(0);

    const ok = await audit(b, { id, auditStatus: ModuleAuthStatus.Approved });
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body.result.auditStatus).toBe(ModuleAuthStatus.Approved);

    const held = await s.api("GET", `${M}/GetAuths`, { token: a.token, query: { Type: 1 } });
    expect(held.body.result.items.map((x: { id: string }) => x.id)).toEqual([id]);
    const given = await s.api("GET", `${M}/GetAuths`, { token: b.token, query: { Type: 2 } });
    expect(given.body.result.items.map((x: { id: string }) => x.id)).toEqual([id]);
    expect(await initCache(a)).toEqual([{ id, name: b.tenantName }]);
    expect(await initCache(b)).toEqual([]);

    const list = await authProducts(a, id);
    expect(list.status, list.raw).toBe(200);
    expect(list.body.result.items.map((p: { sku: string }) => p.sku).sort()).toEqual([`${tag}-1`, `${tag}-2`]);
    expect(list.body.result.items.every((p: { owner: string | null }) => p.owner === null)).toBe(true);
    const filtered = await authProducts(a, id, { sku: `${tag}-2` });
    expect(filtered.body.result.items.map((p: { id: string }) => p.id)).toEqual([b2]);
    const detail = await s.api("GET", `${M}/GetAuthProductById`, { token: a.token, query: { authId: id, id: b2 } });
    expect(detail.status, detail.raw).toBe(200);
    expect(detail.body.result).toMatchObject({ id: b2, sku: `${tag}-2` });

    // The scope is A's again for A's own calls: its list is its own.
    expect(await ownSkus(a)).toEqual(["a-own"]);
    // A's sub-accounts are A's users: they may use the grant too, but not the centre's calls.
    const sub = await s.createSubUser(a);
    expect((await authProducts(sub, id)).status).toBe(200);
  });

  it("a grant opens only its content: without products.copy no copy; with it a copy lands in A's own list", async () => {
    const a = await s.createTenant();
    const b = await s.createTenant();
    const p = await createProduct(b, "to-copy");
    const readOnly = await grant(a, b, [ModuleAuthContent.Products]);
    const before = await counts();
    const refused = await copy(a, readOnly, [p]);
    expect(refused.status, refused.raw).toBe(403);
    expect(await counts()).toEqual(before);

    const c = await s.createTenant();
    const q = await createProduct(c, "copy-me");
    const withCopy = await grant(a, c, [ModuleAuthContent.Products, ModuleAuthContent.ProductsCopy]);
    const headers = key();
    const done = await copy(a, withCopy, [q], headers);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.result.count).toBe(1);
    // The same key answers the same copy again, without a second one.
    const again = await copy(a, withCopy, [q], headers);
    expect(again.body.result).toEqual(done.body.result);
    const mine = await s.api("POST", "/api/Product/GetProductsByPage", { token: a.token, body: { maxResultCount: 100 } });
    expect(mine.body.result.items).toHaveLength(1);
    expect(mine.body.result.items[0]).toMatchObject({
      id: done.body.result.productIds[0],
      sku: "copy-me",
      userId: a.userId,
      status: ProductStatus.Unedited,
    });
    // C's product is untouched and still C's only.
    expect(await ownSkus(c)).toEqual(["copy-me"]);
    // Another tenant's product ids through the grant copy nothing.
    expect((await copy(a, withCopy, [p])).status).toBe(404);
  });
});

describe("cross-tenant", () => {
  it("A cannot read B without a grant; B gains nothing on A; a third tenant gets nothing", async () => {
    const a = await s.createTenant();
    const b = await s.createTenant();
    const c = await s.createTenant();
    await createProduct(a, "a-secret");
    await createProduct(b, "b-shared");
    // No grant: a made-up id, and B's tenant id as the grant id, are refused.
    expect((await authProducts(a, randomUUID())).status).toBe(403);
    expect((await authProducts(a, b.tenantId)).status).toBe(403);

    const id = await grant(a, b);
    // B holds nothing on A: the grant runs A → B only.
    expect((await authProducts(b, id)).status).toBe(403);
    expect(await ownSkus(b)).toEqual(["b-shared"]);
    expect((await s.api("GET", `${M}/GetAuths`, { token: b.token, query: { Type: 1 } })).body.result.totalCount).toBe(0);
    // C sees and changes nothing of it.
    expect((await authProducts(c, id)).status).toBe(403);
    expect((await s.api("GET", `${M}/GetAuthProductById`, { token: c.token, query: { authId: id, id: randomUUID() } })).status).toBe(403);
    for (const Type of [1, 2]) {
      expect((await s.api("GET", `${M}/GetApplys`, { token: c.token, query: { Type } })).body.result.totalCount).toBe(0);
      expect((await s.api("GET", `${M}/GetAuths`, { token: c.token, query: { Type } })).body.result.totalCount).toBe(0);
    }
    expect((await revoke(c, id)).status).toBe(404);
    expect((await audit(c, { id, auditStatus: ModuleAuthStatus.Rejected, reason: "x" })).status).toBe(404);
    expect((await reApply(c, { id, authContent: ["products"], expireTime: inDays(3) })).status).toBe(404);
    // The applicant cannot audit or revoke its own application: only the grantor can.
    expect((await revoke(a, id)).status).toBe(404);
    expect((await authProducts(a, id)).status).toBe(200);
    // A's grant reads B's products only, never C's.
    const list = await authProducts(a, id);
    expect(list.body.result.items.map((p: { sku: string }) => p.sku)).toEqual(["b-shared"]);
  });
});

describe("expiry and revoke", () => {
  it("an expired grant stops working, reads Expired, and may be re-applied for and approved again", async () => {
    const a = await s.createTenant();
    const b = await s.createTenant();
    await createProduct(b, "b1");
    const id = await grant(a, b);
    expect((await authProducts(a, id)).status).toBe(200);
    await setExpiry(id, new Date(Date.now() - 1000));
    expect((await authProducts(a, id)).status).toBe(403);
    expect(await initCache(a)).toEqual([]);
    expect((await s.api("GET", `${M}/GetAuths`, { token: a.token })).body.result.totalCount).toBe(0);
    const expired = await s.api("GET", `${M}/GetApplys`, { token: a.token, query: { AuditStatus: ModuleAuthStatus.Expired } });
    expect(expired.body.result.items.map((x: { id: string; auditStatus: number }) => [x.id, x.auditStatus])).toEqual([
      [id, ModuleAuthStatus.Expired],
    ]);
    // Revoking an expired grant is refused; re-applying puts it back to pending for B.
    expect((await revoke(b, id)).status).toBe(409);
    const again = await reApply(a, { id, authContent: ["products"], expireTime: inDays(10) });
    expect(again.status, again.raw).toBe(200);
    expect(again.body.result).toMatchObject({ auditStatus: ModuleAuthStatus.Pending, applyCount: 2 });
    expect((await authProducts(a, id)).status).toBe(403);
    expect((await audit(b, { id, auditStatus: ModuleAuthStatus.Approved })).status).toBe(200);
    expect((await authProducts(a, id)).status).toBe(200);
  });

  it("B revokes a grant in force: A loses it at once; revoking again answers the same; a revoked grant needs a new code", async () => {
    const a = await s.createTenant();
    const b = await s.createTenant();
    await createProduct(b, "b1");
    const id = await grant(a, b);
    const r = await revoke(b, id);
    expect(r.status, r.raw).toBe(200);
    expect(r.body.result.auditStatus).toBe(ModuleAuthStatus.Revoked);
    expect((await authProducts(a, id)).status).toBe(403);
    expect(await initCache(a)).toEqual([]);
    expect((await revoke(b, id)).body.result.auditStatus).toBe(ModuleAuthStatus.Revoked);
    expect((await reApply(a, { id, authContent: ["products"], expireTime: inDays(3) })).status).toBe(409);
    // With a new code A may apply again.
    const fresh = await grant(a, b);
    expect((await authProducts(a, fresh)).status).toBe(200);
  });

  it("a rejection needs a reason; a rejected application may be re-applied for", async () => {
    const a = await s.createTenant();
    const b = await s.createTenant();
    const applied = await apply(a, { code: await code(b), authContent: ["products"], expireTime: inDays(5) });
    const id = applied.body.result.id;
    const before = await counts();
    expect((await audit(b, { id, auditStatus: ModuleAuthStatus.Rejected })).status).toBe(400);
    expect((await audit(b, { id, auditStatus: 7 })).status).toBe(400);
    expect(await counts()).toEqual(before);
    const no = await audit(b, { id, auditStatus: ModuleAuthStatus.Rejected, reason: "不合作" });
    expect(no.body.result).toMatchObject({ auditStatus: ModuleAuthStatus.Rejected, reason: "不合作" });
    expect((await audit(b, { id, auditStatus: ModuleAuthStatus.Approved })).status).toBe(409);
    expect((await authProducts(a, id)).status).toBe(403);
    const again = await reApply(a, { id, authContent: ["products"], expireTime: inDays(5) });
    expect(again.body.result).toMatchObject({ auditStatus: ModuleAuthStatus.Pending, reason: null });
    // A pending application cannot be re-applied for.
    expect((await reApply(a, { id, authContent: ["products"], expireTime: inDays(5) })).status).toBe(409);
  });
});

describe("codes and bad input", () => {
  it("a code is used once, not by its own tenant, not after it expires; a second open application is refused", async () => {
    const a = await s.createTenant();
    const b = await s.createTenant();
    const c = await s.createTenant();
    const bCode = await code(b);
    const first = await apply(a, { code: bCode, authContent: ["products"], expireTime: inDays(5) });
    expect(first.status).toBe(200);
    let before = await counts();
    const reuse = await apply(c, { code: bCode, authContent: ["products"], expireTime: inDays(5) });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error.message).toBe("授权码已被使用");
    expect((await apply(b, { code: await code(b), authContent: ["products"], expireTime: inDays(5) })).status).toBe(400);
    before = await counts();
    // A second open application to the same grantor: refused, and the code stays unused.
    const second = await apply(a, { code: await code(b), authContent: ["products"], expireTime: inDays(5) });
    expect(second.status).toBe(409);
    const after = await counts();
    expect({ auths: after.auths, used: after.used }).toEqual({ auths: before.auths, used: before.used });
    // An expired code.
    const old = await code(c);
    await inScope(s.database.db, hostAllScope, (tx) =>
      tx.execute(sql`update module_auth_codes set expire_time = now() - interval '1 minute' where tenant_id = ${c.tenantId}`),
    );
    const late = await apply(a, { code: old, authContent: ["products"], expireTime: inDays(5) });
    expect(late.status).toBe(400);
    expect(late.body.error.message).toBe("授权码已过期");
    // A code nobody generated.
    expect((await apply(a, { code: "0000-0000-0000-0000", authContent: ["products"], expireTime: inDays(5) })).body.error.message).toBe(
      "授权码无效",
    );
  });

  it("refuses bad input with a 4xx and changes nothing", async () => {
    const a = await s.createTenant();
    const b = await s.createTenant();
    const bCode = await code(b);
    const before = await counts();
    const bad: Record<string, unknown>[] = [
      { code: "short", authContent: ["products"], expireTime: inDays(5) },
      { code: bCode, authContent: [], expireTime: inDays(5) },
      { code: bCode, authContent: ["orders"], expireTime: inDays(5) },
      { code: bCode, authContent: ["products.copy"], expireTime: inDays(5) },
      { code: bCode, authContent: ["products", "products"], expireTime: inDays(5) },
      { code: bCode, authContent: ["products"], expireTime: new Date(Date.now() - DAY).toISOString() },
      { code: bCode, authContent: ["products"], expireTime: inDays(400) },
      { code: bCode, authContent: ["products"], expireTime: "2026-02-31" },
      { code: bCode, authContent: ["products"] },
      { code: 12, authContent: ["products"], expireTime: inDays(5) },
    ];
    for (const body of bad) {
      const res = await apply(a, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBeTruthy();
    }
    expect((await s.api("GET", `${M}/GetApplys`, { token: a.token, query: { Type: 3 } })).status).toBe(400);
    expect((await s.api("GET", `${M}/GetAuths`, { token: a.token, query: { MaxResultCount: 5000 } })).status).toBe(400);
    expect((await audit(b, { id: "not-a-guid", auditStatus: 2 })).status).toBe(400);
    expect((await revoke(b, randomUUID())).status).toBe(404);
    expect(await counts()).toEqual(before);
    // The code is still good after all that.
    expect((await apply(a, { code: bCode, authContent: ["products"], expireTime: inDays(5) })).status).toBe(200);
  });

  it("sub-accounts cannot call the centre's main-account calls", async () => {
    const a = await s.createTenant();
    const sub = await s.createSubUser(a);
    const before = await counts();
    const calls: [string, string, Record<string, unknown>][] = [
      ["PUT", "GenerateAuthCode", {}],
      ["POST", "ApplyAuth", { body: { code: "0000-0000-0000-0000", authContent: ["products"], expireTime: inDays(5) } }],
      ["POST", "ReApplyAuth", { body: { id: randomUUID(), authContent: ["products"], expireTime: inDays(5) } }],
      ["POST", "AuditAuth", { body: { id: randomUUID(), auditStatus: 2 } }],
      ["POST", "RevokeAuth", { body: { id: randomUUID() } }],
      ["GET", "GetApplys", {}],
      ["GET", "GetAuths", {}],
    ];
    for (const [method, name, opts] of calls) {
      const res = await s.api(method, `${M}/${name}`, { token: sub.token, headers: key(), ...opts });
      expect(res.status, name).toBe(403);
    }
    // The host is no tenant's main account either.
    expect((await s.api("PUT", `${M}/GenerateAuthCode`, { token: await s.adminToken(), headers: key() })).status).toBe(403);
    expect(await counts()).toEqual(before);
  });
});
