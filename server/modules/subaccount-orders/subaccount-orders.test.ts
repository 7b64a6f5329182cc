// Sub-account packages through the real HTTP stack and database (PGlite here, PostgreSQL with DATABASE_URL): the host
// sets packages, a main account buys one from its wallet (through the ledger), the users area's limit follows what was
// bought, and other tenants and non-hosts see and change nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import { WalletLogType } from "#shared/contract/enums.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { postLedgerEntry } from "../wallet/index.ts";
import { FREE_SUB_ACCOUNTS_SETTING } from "./allowance.ts";

let s: TestServer;
let admin: string;

const PACKAGES = "/api/SubAccountOrder/GetSubAccOrderInfos";
const SAVE = "/api/SubAccountOrder/CreateOrUpdateSubAccOrderInfo";
const MINE = "/api/SubAccountOrder/GetMySubAccOrder";
const ORDER = "/api/SubAccountOrder/OrderSubAcc";
const HOST_ORDERS = "/api/Hosted/GetHostSubAccountOrders";

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  const res = await s.api("POST", "/api/SystemConfigSetting/CreateOrUpdate", {
    token: admin,
    body: { name: "免费子账号数", key: FREE_SUB_ACCOUNTS_SETTING, value: "1" },
  });
  expect(res.status).toBe(200);
});
afterAll(() => s?.close());

async function savePackage(body: Record<string, unknown>) {
  const res = await s.api("POST", SAVE, { token: admin, body });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as { id: string; price: number; count: number; days: number };
}

/** Credits the tenant's wallet through the ledger (what an approved top-up does). */
async function fund(t: TestTenant, fen: number) {
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    postLedgerEntry(tx, { tenantId: t.tenantId, type: WalletLogType.HostAdjust, amountFen: fen, userId: null, remark: "测试充值" }),
  );
}

async function walletState(tenantId: string) {
  return inScope(s.database.db, { tenantId }, async (tx) => {
    const [w] = rowsOf<{ balance: string }>(await tx.execute(sql`select balance_fen::text as balance from tenants where id = ${tenantId}`));
    const [sum] = rowsOf<{ total: string; n: string }>(
      await tx.execute(
        sql`select coalesce(sum(amount_fen), 0)::text as total, count(*)::text as n from wallet_logs where tenant_id = ${tenantId}`,
      ),
    );
    const [orders] = rowsOf<{ n: string }>(
      await tx.execute(sql`select count(*)::text as n from sub_account_orders where tenant_id = ${tenantId}`),
    );
    return { balance: Number(w?.balance ?? 0), ledgerSum: Number(sum.total), entries: Number(sum.n), orders: Number(orders.n) };
  });
}

const order = (t: TestTenant, id: string, key = randomUUID()) =>
  s.api("POST", ORDER, { token: t.token, query: { id }, headers: { "Idempotency-Key": key } });

describe("packages", () => {
  it("the host creates, edits and withdraws packages; tenants see only those on offer", async () => {
    const p = await savePackage({ name: uniqueName("包"), count: 3, days: 30, price: 99.5, sort: 1 });
    expect(p).toMatchObject({ count: 3, days: 30, price: 99.5 });
    const hidden = await savePackage({ name: uniqueName("下架"), count: 1, days: 7, price: 1, isActive: false });
    const edited = await savePackage({ id: p.id, name: "三个月套餐", count: 3, days: 90, price: 199 });
    expect(edited).toMatchObject({ id: p.id, days: 90, price: 199 });

    const t = await s.createTenant();
    const seen = await s.api("GET", PACKAGES, { token: t.token });
    expect(seen.status).toBe(200);
    const ids = seen.body.result.map((x: { id: string }) => x.id);
    expect(ids).toContain(p.id);
    expect(ids).not.toContain(hidden.id);
    const all = await s.api("GET", PACKAGES, { token: admin });
    expect(all.body.result.map((x: { id: string }) => x.id)).toContain(hidden.id);

    // A withdrawn package cannot be bought.
    await fund(t, 10_000);
    const refused = await order(t, hidden.id);
    expect(refused.status).toBe(404);
    expect((await walletState(t.tenantId)).balance).toBe(10_000);
  });

  it("refuses bad package input with 400 and host calls to tenants with 403", async () => {
    for (const body of [
      { name: "", count: 1, days: 1, price: 1 },
      { name: "x", count: 0, days: 1, price: 1 },
      { name: "x", count: 1, days: 0, price: 1 },
      { name: "x", count: 1, days: 1, price: 0 },
      { name: "x", count: 1, days: 1, price: 1.234 },
    ]) {
      expect((await s.api("POST", SAVE, { token: admin, body })).status).toBe(400);
    }
    const t = await s.createTenant();
    const sub = await s.createSubUser(t);
    for (const token of [t.token, sub.token]) {
      expect((await s.api("POST", SAVE, { token, body: { name: "x", count: 1, days: 1, price: 1 } })).status).toBe(403);
      expect((await s.api("GET", HOST_ORDERS, { token })).status).toBe(403);
    }
    // Buying and the purchase list are the main account's.
    const p = await savePackage({ name: uniqueName("包"), count: 1, days: 1, price: 1 });
    expect((await order({ ...t, token: sub.token }, p.id)).status).toBe(403);
    expect((await s.api("GET", MINE, { token: sub.token })).status).toBe(403);
  });
});

describe("OrderSubAcc", () => {
  it("refuses a package while the host sets no free number (no limit: it would change nothing), taking no money", async () => {
    const t = await s.createTenant();
    const p = await savePackage({ name: uniqueName("无用"), count: 2, days: 30, price: 10 });
    await fund(t, 5_000);
    const unset = await s.api("POST", "/api/SystemConfigSetting/SetValueByKey", {
      token: admin,
      body: { key: FREE_SUB_ACCOUNTS_SETTING, value: null },
    });
    expect(unset.status, unset.raw).toBe(200);
    try {
      const mine = await s.api("GET", MINE, { token: t.token });
      expect(mine.body.result.allowance).toMatchObject({ freeCount: null, limit: null });
      const before = await walletState(t.tenantId);
      const refused = await order(t, p.id);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: "SubAccountPackageChangesNothing",
        message: "平台目前不限制子账号数量，购买套餐不会增加可启用的子账号，无需购买",
      });
      expect(await walletState(t.tenantId)).toEqual(before);
    } finally {
      const restored = await s.api("POST", "/api/SystemConfigSetting/SetValueByKey", {
        token: admin,
        body: { key: FREE_SUB_ACCOUNTS_SETTING, value: "1" },
      });
      expect(restored.status).toBe(200);
    }
    // With a limit the same package is bought.
    expect((await order(t, p.id)).status).toBe(200);
  });

  it("pays from the balance and extends the allowance and expiry once per Idempotency-Key", async () => {
    const t = await s.createTenant();
    const p = await savePackage({ name: uniqueName("两个"), count: 2, days: 30, price: 50 });
    await fund(t, 12_000);
    const before = await s.api("GET", MINE, { token: t.token });
    expect(before.body.result.allowance).toMatchObject({ freeCount: 1, purchasedCount: 0, limit: 1, balance: 120, expireTime: null });

    const key = randomUUID();
    const first = await order(t, p.id, key);
    expect(first.status, first.raw).toBe(200);
    const again = await order(t, p.id, key);
    expect(again.status).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.raw).toBe(first.raw);
    expect(first.body.result.allowance).toMatchObject({ purchasedCount: 2, limit: 3, balance: 70 });
    const expire = new Date(first.body.result.order.expireTime).getTime();
    expect(Math.abs(expire - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);

    const state = await walletState(t.tenantId);
    expect(state).toMatchObject({ balance: 7_000, ledgerSum: 7_000, entries: 2, orders: 1 });
    const mine = await s.api("GET", MINE, { token: t.token });
    expect(mine.body.result.totalCount).toBe(1);
    expect(mine.body.result.items[0]).toMatchObject({ count: 2, moeny: 50, days: 30, type: 2, isActive: true, packageId: p.id });
    // The tenant's summary shows the package and its expiry.
    const info = await s.api("GET", "/api/User/GetMyInfo", { token: t.token });
    expect(info.status, info.raw).toBe(200);
    expect(info.body.result.subAccountType).toBe(2);
    expect(new Date(info.body.result.subAccountExpireTime).getTime()).toBe(expire);
    // The ledger shows the purchase as a debit naming the order.
    const logs = await inScope(s.database.db, { tenantId: t.tenantId }, async (tx) =>
      rowsOf<{ type: number; amount: string; ref: string }>(
        await tx.execute(
          sql`select type, amount_fen::text as amount, ref_id::text as ref from wallet_logs where tenant_id = ${t.tenantId} and type = ${WalletLogType.Purchase}`,
        ),
      ),
    );
    expect(logs).toEqual([{ type: WalletLogType.Purchase, amount: "-5000", ref: first.body.result.order.id }]);

    // The same key with another package is a 4xx and buys nothing.
    const other = await savePackage({ name: uniqueName("一个"), count: 1, days: 30, price: 10 });
    const reused = await order(t, other.id, key);
    expect(reused.status).toBeGreaterThanOrEqual(400);
    expect(reused.status).toBeLessThan(500);
    expect(await walletState(t.tenantId)).toMatchObject({ balance: 7_000, orders: 1 });
  });

  it("refuses a purchase the balance does not cover with a clear message and changes nothing", async () => {
    const t = await s.createTenant();
    const p = await savePackage({ name: uniqueName("贵"), count: 5, days: 365, price: 300 });
    await fund(t, 29_999);
    const res = await order(t, p.id);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain("余额不足");
    expect(res.body.error.message).toContain("299.99");
    expect(await walletState(t.tenantId)).toMatchObject({ balance: 29_999, ledgerSum: 29_999, entries: 1, orders: 0 });
    const mine = await s.api("GET", MINE, { token: t.token });
    expect(mine.body.result.allowance).toMatchObject({ purchasedCount: 0, limit: 1 });
    const info = await s.api("GET", "/api/User/GetMyInfo", { token: t.token });
    expect(info.body.result.subAccountExpireTime).toBeNull();
  });

  it("concurrent purchases never overdraw: exactly the ones the balance covers succeed", async () => {
    const t = await s.createTenant();
    const p = await savePackage({ name: uniqueName("并发"), count: 1, days: 30, price: 10 });
    await fund(t, 3_000); // three purchases
    const answers = await Promise.all(Array.from({ length: 10 }, () => order(t, p.id)));
    const ok = answers.filter((a) => a.status === 200).length;
    expect(ok).toBe(3);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 403 && a.body.error.message.includes("余额不足"))).toBe(true);
    expect(await walletState(t.tenantId)).toMatchObject({ balance: 0, ledgerSum: 0, entries: 4, orders: 3 });
  });
});

describe("the users area honours the allowance", () => {
  it("creating and enabling sub-accounts stops at the free number plus what was bought", async () => {
    const t = await s.createTenant();
    const first = await s.createSubUser(t); // the one free sub-account
    const create = () => s.api("POST", "/api/User/CreateSubUser", { token: t.token, body: { userName: uniqueName("s"), pwd: "Abc12345" } });
    const refused = await create();
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("子账号套餐");

    const p = await savePackage({ name: uniqueName("加一"), count: 1, days: 30, price: 10 });
    await fund(t, 1_000);
    expect((await order(t, p.id)).status).toBe(200);
    const second = await create();
    expect(second.status, second.raw).toBe(200);
    expect((await create()).status).toBe(403);

    // A disabled sub-account frees its place; enabling it again must fit.
    const enable = (userId: string, on: boolean) => s.api("PUT", "/api/User/Enabled", { token: t.token, query: { userId, enable: on } });
    expect((await enable(first.id, false)).status).toBe(204);
    expect((await create()).status).toBe(200);
    const back = await enable(first.id, true);
    expect(back.status).toBe(403);
    expect((await s.api("GET", MINE, { token: t.token })).body.result.allowance).toMatchObject({ limit: 2, activeSubAccounts: 2 });
  });

  it("concurrent creations never pass the limit", async () => {
    const t = await s.createTenant();
    const p = await savePackage({ name: uniqueName("三"), count: 3, days: 30, price: 10 });
    await fund(t, 1_000);
    expect((await order(t, p.id)).status).toBe(200); // 1 free + 3 bought
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        s.api("POST", "/api/User/CreateSubUser", { token: t.token, body: { userName: uniqueName("c"), pwd: "Abc12345" } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200).length).toBe(4);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 403)).toBe(true);
  });
});

describe("tenants and the host", () => {
  it("another tenant sees none of a tenant's purchases; the host lists every tenant's with filters", async () => {
    const a = await s.createTenant(uniqueName("buyer"));
    const b = await s.createTenant();
    const name = uniqueName("筛选");
    const p = await savePackage({ name, count: 2, days: 10, price: 20 });
    await fund(a, 2_000);
    const bought = await order(a, p.id);
    expect(bought.status).toBe(200);
    const orderId = bought.body.result.order.id;

    const mineB = await s.api("GET", MINE, { token: b.token });
    expect(mineB.body.result).toMatchObject({ totalCount: 0, items: [] });
    expect(mineB.raw).not.toContain(orderId);
    // B's token with A's tenant header is refused.
    expect((await s.api("GET", MINE, { token: b.token, tenant: a.tenantId })).status).toBe(403);

    const byTenant = await s.api("GET", HOST_ORDERS, { token: admin, query: { KeyWord: a.tenantName } });
    expect(byTenant.status).toBe(200);
    expect(byTenant.body.result.items).toEqual([
      expect.objectContaining({ id: orderId, inviteTenantName: a.tenantName, subAccountType: 2, isActive: true, count: 2, moeny: 20 }),
    ]);
    const byPackage = await s.api("GET", HOST_ORDERS, { token: admin, query: { KeyWord: name, Type: 2, IsActive: true } });
    expect(byPackage.body.result.totalCount).toBe(1);
    expect((await s.api("GET", HOST_ORDERS, { token: admin, query: { KeyWord: name, IsActive: false } })).body.result.totalCount).toBe(0);
    expect((await s.api("GET", HOST_ORDERS, { token: admin, query: { KeyWord: name, Type: 3 } })).body.result.totalCount).toBe(0);
    expect((await s.api("GET", HOST_ORDERS, { token: admin, query: { Type: 7 } })).status).toBe(400);
    const page = await s.api("GET", HOST_ORDERS, { token: admin, query: { MaxResultCount: 1, Sorting: "moeny desc" } });
    expect(page.body.result.items).toHaveLength(1);
    expect(page.body.result.totalCount).toBeGreaterThanOrEqual(1);
  });

  it("each host row is also the spec's account expiry row: creationTime, expireDate, type, isActive, tenantName", async () => {
    const t = await s.createTenant();
    const p = await savePackage({ name: uniqueName("到期"), count: 1, days: 7, price: 3 });
    await fund(t, 1_000);
    const bought = await order(t, p.id);
    expect(bought.status, bought.raw).toBe(200);
    const o = bought.body.result.order as { id: string; creationTime: string; expireTime: string };
    const expiryRow = async () => {
      const res = await s.api("GET", HOST_ORDERS, { token: admin, query: { KeyWord: t.tenantName } });
      expect(res.status, res.raw).toBe(200);
      const { creationTime, expireDate, type, isActive, tenantName } = res.body.result.items[0];
      return { creationTime, expireDate, type, isActive, tenantName };
    };
    expect(await expiryRow()).toEqual({
      creationTime: o.creationTime,
      expireDate: o.expireTime,
      type: 2,
      isActive: true,
      tenantName: t.tenantName,
    });
    // Once the purchase has run out its row says so, with the day it ended.
    const ended = new Date(Date.now() - 86_400_000).toISOString();
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.execute(sql`update sub_account_orders set expire_time = ${ended}::timestamptz where tenant_id = ${t.tenantId} and id = ${o.id}`),
    );
    expect(await expiryRow()).toMatchObject({ expireDate: ended, isActive: false, tenantName: t.tenantName });
  });
});
