// GetWalletLogs as one statement whose page PostgreSQL writes as JSON text (issue 19): the answer's text is exactly
// JSON.stringify of what the drizzle query and row mapping it replaced gave (every field, numbers as numbers, yuan as
// fen / 100, creationTime as toISOString, 平台 for a host adjustment, the paying tenant's name on a commission), for a
// mix of entry types; sorted by money either way with equal amounts, pages cover every entry once (the id breaks ties
// in the sort's direction); the count stops at WALLET_LOG_COUNT_CAP; time order is the ledger's own (seq), so after
// concurrent movements the running balance still reads straight down. Run on PGlite and on PostgreSQL (DATABASE_URL).
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inScope } from "../../db/scope.ts";
import { tenants, users, walletLogs } from "../../db/schema.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { BalanceAdjustType, WalletLogType } from "#shared/contract/enums.ts";
import { fenToYuan, WALLET_LOG_COUNT_CAP, type WalletLogEntry, type WalletLogPage } from "#shared/contract/wallet.ts";
import { postLedgerEntry, walletBalanceFen } from "./ledger.ts";

let s: TestServer;
let host: string;

beforeAll(async () => {
  s = await startTestServer();
  host = await s.adminToken();
});
afterAll(() => s?.close());

const key = () => ({ "idempotency-key": randomUUID() });

type Order = { by?: "money" | "creationTime"; dir?: "asc" | "desc" };

/**
 * The page as the drizzle query and mapping GetWalletLogs had before it was one statement of text gave it (copied
 * from it), over every entry of the tenant matching `type` and `userId`, in the order the call now defines: the sort
 * field (time order: the ledger's seq), then the id in the same direction; by default newest first.
 */
async function reference(t: TestTenant, order: Order, type?: number, userId?: string) {
  const rows = await inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
    const field = order.by === "money" ? walletLogs.amountFen : walletLogs.seq;
    const by = order.by ? (order.dir === "desc" ? desc : asc) : desc;
    const sortedBy: SQL[] = [by(field), by(walletLogs.id)];
    return {
      balanceFen: await walletBalanceFen(tx, t.tenantId),
      list: await tx
        .select({ log: walletLogs, userName: users.userName, inviteTenantName: tenants.name })
        .from(walletLogs)
        .leftJoin(users, and(eq(users.tenantId, walletLogs.tenantId), eq(users.id, walletLogs.userId)))
        .leftJoin(tenants, eq(tenants.id, walletLogs.inviteTenantId))
        .where(
          and(
            eq(walletLogs.tenantId, t.tenantId),
            type !== undefined ? eq(walletLogs.type, type) : undefined,
            userId ? eq(walletLogs.userId, userId) : undefined,
          ),
        )
        .orderBy(...sortedBy),
    };
  });
  const items: WalletLogEntry[] = rows.list.map(({ log, userName, inviteTenantName }) => ({
    id: log.id,
    type: log.type,
    money: fenToYuan(Number(log.amountFen)),
    balance: fenToYuan(Number(log.balanceAfterFen)),
    remark: log.remark,
    userId: log.userId,
    userName: userName ?? (log.type === WalletLogType.HostAdjust && log.userId ? "平台" : null),
    inviteTenantName,
    refId: log.refId,
    creationTime: log.creationTime.toISOString(),
  }));
  return { items, balance: fenToYuan(rows.balanceFen) };
}

/** The page the old code answered for SkipCount/MaxResultCount over the reference's entries. */
function pageOf(ref: { items: WalletLogEntry[]; balance: number }, skip: number, take: number): WalletLogPage {
  const n = ref.items.length;
  return {
    items: ref.items.slice(skip, skip + take),
    totalCount: Math.min(n, WALLET_LOG_COUNT_CAP),
    totalCountCapped: n > WALLET_LOG_COUNT_CAP,
    balance: ref.balance,
  };
}

const sortingOf = (o: Order) => (o.by ? `${o.by} ${o.dir}` : undefined);

async function getLogs(t: TestTenant, query: Record<string, string | number | undefined>) {
  const given = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, string | number>;
  const res = await s.api("GET", "/api/WalletLog/GetWalletLogs", { token: t.token, query: given });
  expect(res.status, res.raw).toBe(200);
  return res;
}

describe("GetWalletLogs' JSON page", () => {
  let t: TestTenant;
  let payer: TestTenant;

  beforeAll(async () => {
    t = await s.createTenant();
    payer = await s.createTenant();
    // Through the calls: a host adjustment (the host's user: 平台), purchases of equal amounts by the main account.
    const add = await s.api("POST", "/api/Hosted/AddOrSubMoney", {
      token: host,
      headers: key(),
      body: { tenantId: t.tenantId, money: 100, type: BalanceAdjustType.Add, remark: "测试调整" },
    });
    expect(add.status, add.raw).toBe(200);
    for (const money of [1, 1, 1, 2.5, 0.01]) {
      const paid = await s.api("GET", "/api/WalletLog/Payment", { token: t.token, headers: key(), query: { money, remark: "购买" } });
      expect(paid.status, paid.raw).toBe(200);
    }
    // Written directly: a commission paid by another tenant, a refund with its withdrawal, a system entry without a
    // user, a host adjustment whose user is gone, a remark JSON must escape, times with microseconds, credits equal
    // to the purchases' amounts (¥1.00 both ways) and a large amount.
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.execute(sql`insert into wallet_logs
          (tenant_id, id, type, amount_fen, balance_after_fen, user_id, remark, ref_id, invite_tenant_id, creation_time)
        values
          (${t.tenantId}, gen_random_uuid(), ${WalletLogType.Commission}, 125, 10125, null, '佣金', gen_random_uuid(), ${payer.tenantId},
           '2026-01-02 03:04:05.678901+00'),
          (${t.tenantId}, gen_random_uuid(), ${WalletLogType.Commission}, 100, 10225, null, '佣金', gen_random_uuid(), ${payer.tenantId},
           '2026-01-02 03:04:05.999999+00'),
          (${t.tenantId}, gen_random_uuid(), ${WalletLogType.WithdrawRefund}, 100, 10325, ${t.userId}, ${'退回 "引号" \\ 斜杠\n换行\t制表 \u0001 😀'},
           gen_random_uuid(), null, '2025-12-31 23:59:59.0005+00'),
          (${t.tenantId}, gen_random_uuid(), ${WalletLogType.TopUp}, 99999999, 100010324, null, null, null, null, now() - interval '1 day'),
          (${t.tenantId}, gen_random_uuid(), ${WalletLogType.HostAdjust}, -100, 100010224, ${randomUUID()}, '平台扣款', null, null,
           now() - interval '2 days')`),
    );
  });

  it("is, byte for byte, the old mapping's page for every sort, a type filter and a user filter", async () => {
    const orders: Order[] = [{}, { by: "money", dir: "desc" }, { by: "money", dir: "asc" }, { by: "creationTime", dir: "asc" }];
    for (const order of orders) {
      for (const type of [undefined, WalletLogType.Purchase, WalletLogType.Commission, WalletLogType.HostAdjust]) {
        const ref = await reference(t, order, type);
        const res = await getLogs(t, { MaxResultCount: 100, Sorting: sortingOf(order), Type: type });
        expect(res.raw, JSON.stringify({ order, type })).toBe(JSON.stringify({ result: pageOf(ref, 0, 100) }));
      }
      const own = await reference(t, order, undefined, t.userId);
      expect(own.items.length).toBe(6);
      const res = await getLogs(t, { MaxResultCount: 100, Sorting: sortingOf(order), UserId: t.userId });
      expect(res.raw, JSON.stringify({ order, userId: t.userId })).toBe(JSON.stringify({ result: pageOf(own, 0, 100) }));
    }
    // What the page holds, as the screen reads it.
    const all = (await reference(t, {})).items;
    expect(all).toHaveLength(11);
    const of = (type: number) => all.filter((e) => e.type === type);
    // In the ledger's order: the deduction written directly after the calls is the newer, whatever its creation time.
    expect(of(WalletLogType.HostAdjust).map((e) => [e.money, e.userName])).toEqual([
      [-1, "平台"],
      [100, "平台"],
    ]);
    expect(of(WalletLogType.Purchase).every((e) => e.userName === t.userName && e.userId === t.userId)).toBe(true);
    expect(of(WalletLogType.Commission).map((e) => [e.money, e.inviteTenantName, e.creationTime])).toEqual([
      [1, payer.tenantName, "2026-01-02T03:04:05.999Z"],
      [1.25, payer.tenantName, "2026-01-02T03:04:05.678Z"],
    ]);
    expect(of(WalletLogType.TopUp)[0]).toMatchObject({ money: 999999.99, remark: null, userId: null, userName: null });
    expect(of(WalletLogType.WithdrawRefund)[0]).toMatchObject({
      remark: '退回 "引号" \\ 斜杠\n换行\t制表 \u0001 😀',
      userName: t.userName,
    });
  });

  it("pages by money either way over equal amounts without overlap or gaps", async () => {
    for (const dir of ["desc", "asc"] as const) {
      const ref = await reference(t, { by: "money", dir });
      const amounts = ref.items.map((e) => e.money);
      // Ties: -¥1.00 four times (three purchases, a host deduction), +¥1.00 twice (a commission, a refund).
      expect(amounts.filter((m) => m === -1).length).toBe(4);
      expect(amounts.filter((m) => m === 1).length).toBe(2);
      const seen: string[] = [];
      for (let skip = 0; skip < ref.items.length; skip += 2) {
        const res = await getLogs(t, { Sorting: `money ${dir}`, SkipCount: skip, MaxResultCount: 2 });
        expect(res.raw).toBe(JSON.stringify({ result: pageOf(ref, skip, 2) }));
        seen.push(...(res.body.result as WalletLogPage).items.map((e) => e.id));
      }
      expect(seen).toEqual(ref.items.map((e) => e.id));
      expect(new Set(seen).size).toBe(ref.items.length);
      const sorted = [...amounts].sort((a, b) => (dir === "desc" ? b - a : a - b));
      expect(amounts).toEqual(sorted);
    }
    // Past the end: no entries, the count still exact.
    const past = await getLogs(t, { Sorting: "money asc", SkipCount: 50 });
    expect(past.body.result).toEqual({ items: [], totalCount: 11, totalCountCapped: false, balance: (await reference(t, {})).balance });
  });

  it("stops counting at WALLET_LOG_COUNT_CAP; the money sort still pages past it", async () => {
    const big = await s.createTenant();
    const empty = await getLogs(big, { Sorting: "money desc" });
    expect(empty.raw).toBe(JSON.stringify({ result: { items: [], totalCount: 0, totalCountCapped: false, balance: 0 } }));
    await inScope(s.database.db, { tenantId: big.tenantId }, (tx) =>
      tx.execute(sql`insert into wallet_logs (tenant_id, id, type, amount_fen, balance_after_fen, remark, creation_time)
        select ${big.tenantId}::uuid, gen_random_uuid(), ${WalletLogType.TopUp}, 100 * (1 + g % 7), g, '充值',
               now() - make_interval(mins => g)
        from generate_series(1, ${WALLET_LOG_COUNT_CAP + 5}) g`),
    );
    for (const dir of ["desc", "asc"] as const) {
      const ref = await reference(big, { by: "money", dir });
      expect(ref.items).toHaveLength(WALLET_LOG_COUNT_CAP + 5);
      for (const skip of [0, WALLET_LOG_COUNT_CAP]) {
        const res = await getLogs(big, { Sorting: `money ${dir}`, SkipCount: skip, MaxResultCount: 10 });
        expect(res.raw).toBe(JSON.stringify({ result: pageOf(ref, skip, 10) }));
        expect(res.body.result).toMatchObject({ totalCount: WALLET_LOG_COUNT_CAP, totalCountCapped: true });
      }
    }
    const last = await getLogs(big, { Sorting: "money asc", SkipCount: WALLET_LOG_COUNT_CAP, MaxResultCount: 10 });
    expect(last.body.result.items).toHaveLength(5);
    // Under the cap the count is exact.
    const few = await getLogs(big, { Type: WalletLogType.Purchase });
    expect(few.body.result).toEqual({ items: [], totalCount: 0, totalCountCapped: false, balance: 0 });
  });
});

describe("the list's time order under concurrency (issue 29)", () => {
  /** Every entry's balance less its amount is the next older entry's balance: the chain reads straight down. */
  function chainBreaks(items: WalletLogEntry[]): string[] {
    const breaks: string[] = [];
    for (let i = 0; i + 1 < items.length; i++) {
      const before = Math.round((items[i].balance - items[i].money) * 100);
      if (before !== Math.round(items[i + 1].balance * 100))
        breaks.push(`${i}: ${items[i].balance} ${items[i].money} → ${items[i + 1].balance}`);
    }
    return breaks;
  }

  async function fund(t: TestTenant, money: number) {
    const add = await s.api("POST", "/api/Hosted/AddOrSubMoney", {
      token: host,
      headers: key(),
      body: { tenantId: t.tenantId, money, type: BalanceAdjustType.Add, remark: "测试充值" },
    });
    expect(add.status, add.raw).toBe(200);
  }

  it("after 50 concurrent withdrawals the running balance reads straight down, newest first and oldest first", async () => {
    const t = await s.createTenant();
    await fund(t, 100);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        s.api("POST", "/api/Withdraw/RequestWithdraw", {
          token: t.token,
          headers: key(),
          body: { money: 1, alipayAccount: "pay@example.com" },
        }),
      ),
    );
    expect(answers.filter((r) => r.status !== 200).map((r) => r.raw)).toEqual([]);
    const newest = (await getLogs(t, { MaxResultCount: 100 })).body.result as WalletLogPage;
    expect(newest.items).toHaveLength(51);
    expect(newest.items[0].balance).toBe(50);
    expect(chainBreaks(newest.items)).toEqual([]);
    const oldest = (await getLogs(t, { MaxResultCount: 100, Sorting: "creationTime asc" })).body.result as WalletLogPage;
    expect(oldest.items.map((e) => e.id)).toEqual(newest.items.map((e) => e.id).reverse());
  });

  it("an entry whose transaction started first but took the wallet's lock last is listed last (newest)", async () => {
    const t = await s.createTenant();
    await fund(t, 100);
    const deduct = (tx: Parameters<typeof postLedgerEntry>[0]) =>
      postLedgerEntry(tx, { tenantId: t.tenantId, type: WalletLogType.HostAdjust, amountFen: -200, userId: null, remark: "先开始" });
    if (s.database.kind === "pglite") {
      // The embedded database runs one transaction at a time: its transactions take the lock in the order they start.
      const paid = await s.api("GET", "/api/WalletLog/Payment", { token: t.token, headers: key(), query: { money: 1, remark: "购买" } });
      expect(paid.status, paid.raw).toBe(200);
      await inScope(s.database.db, { tenantId: t.tenantId }, deduct);
    } else {
      // A transaction starts (its now(), the entry's creation time, is fixed), a payment by another commits meanwhile,
      // then the first moves money: it is the ledger's newest entry though its creation time is the older.
      let started!: () => void;
      const hasStarted = new Promise<void>((r) => (started = r));
      let proceed!: () => void;
      const mayProceed = new Promise<void>((r) => (proceed = r));
      const early = inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
        await tx.execute(sql`select now()`);
        started();
        await mayProceed;
        return deduct(tx);
      });
      await hasStarted;
      const paid = await s.api("GET", "/api/WalletLog/Payment", { token: t.token, headers: key(), query: { money: 1, remark: "后开始" } });
      expect(paid.status, paid.raw).toBe(200);
      proceed();
      await early;
    }
    const items = ((await getLogs(t, { MaxResultCount: 10 })).body.result as WalletLogPage).items;
    expect(items[0].balance).toBe(97);
    expect(chainBreaks(items)).toEqual([]);
  });
});
