// The wallet through the real HTTP stack (issue 19; RELIABILITY.md §1-§4): the debit storm, idempotent top-ups (also
// after a restart), the audit race, a seeded random sequence of ≥ 1,000 operations against a pure model, a short
// balance refused with nothing changed, tenants kept apart, host calls refused to tenants, bad input, receipt uploads.
// Run on PGlite and on PostgreSQL (DATABASE_URL): only PostgreSQL runs transactions at once, so the concurrency tests
// prove their point there; on PGlite they still must hold.
import { randomUUID } from "node:crypto";
import { stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { rowsOf } from "../../db/client.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, type ApiResponse, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { sizedForDatabase } from "../../testing/templates.ts";
import { uploadReceipt } from "../../testing/money-kit.ts";
import { pngImage } from "#shared/images/test-images.ts";
import { BalanceAdjustType, ChargePayType, ChargeStatus, WalletLogType, WithdrawStatus } from "#shared/contract/enums.ts";
import { WALLET_LOG_COUNT_CAP } from "#shared/contract/wallet.ts";
import { PREVIEW_MAX_SIDE } from "../../http/image-preview.ts";
import { ORPHAN_RECEIPT_AGE_MS, RECEIPT_SWEEP_JOB, receiptDir, receiptPreviewPath, sweepOrphanReceipts } from "./receipts.ts";

let s: TestServer;
let host: string;

beforeAll(async () => {
  s = await startTestServer();
  host = await s.adminToken();
});
afterAll(() => s?.close());

const key = () => ({ "idempotency-key": randomUUID() });
const yuan = (fen: number) => fen / 100;

function adjust(t: TestTenant, fen: number, type: number = BalanceAdjustType.Add, headers = key()) {
  return s.api("POST", "/api/Hosted/AddOrSubMoney", {
    token: host,
    headers,
    body: { tenantId: t.tenantId, money: yuan(fen), type, remark: "测试调整" },
  });
}
const pay = (t: TestTenant, fen: number, headers = key()) =>
  s.api("GET", "/api/WalletLog/Payment", { token: t.token, headers, query: { money: yuan(fen), remark: "购买" } });
const withdraw = (t: TestTenant, fen: number, headers = key()) =>
  s.api("POST", "/api/Withdraw/RequestWithdraw", { token: t.token, headers, body: { money: yuan(fen), alipayAccount: "pay@example.com" } });
const auditCharge = (id: string, status: number, headers = key()) =>
  s.api("POST", "/api/ChargeRecord/AuditChargeRecord", { token: host, headers, body: { id, status, reason: "核对不符" } });
const auditWithdraw = (id: string, status: number, headers = key()) =>
  s.api("POST", "/api/Withdraw/AuditWithdraw", { token: host, headers, body: { id, status, reason: "账号有误" } });

const upload = (token: string, filename: string, content: Uint8Array) => uploadReceipt(s, token, filename, content);

const receipts = new Map<string, string>();
async function receipt(t: TestTenant): Promise<string> {
  if (!receipts.has(t.tenantId)) {
    const res = await upload(t.token, "receipt.png", pngImage(20, 10));
    expect(res.status, res.raw).toBe(200);
    receipts.set(t.tenantId, res.body.result.pic);
  }
  return receipts.get(t.tenantId)!;
}

async function submitCharge(t: TestTenant, fen: number, headers = key()) {
  const res = await s.api("POST", "/api/ChargeRecord/SubmitChagreRecord", {
    token: t.token,
    headers,
    body: { money: yuan(fen), payType: ChargePayType.Alipay, pic: await receipt(t), remark: "转账" },
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.id as string;
}

type Ledger = { balanceFen: number; sumFen: number; entries: number; credits: number; debits: number; tenantBalance: string };

/** The stored wallet, its ledger's sum and count, and tenants.balance, read directly. */
async function ledger(t: TestTenant): Promise<Ledger> {
  return inScope(s.database.db, hostAllScope, async (tx) => {
    const [w] = rowsOf<{ b: string }>(await tx.execute(sql`select balance_fen as b from tenants where id = ${t.tenantId}`));
    const [l] = rowsOf<{ sum: string; n: string; credits: string; debits: string; negative: string }>(
      await tx.execute(sql`select coalesce(sum(amount_fen), 0) as sum, count(*) as n,
        coalesce(sum(amount_fen) filter (where amount_fen > 0), 0) as credits,
        coalesce(-sum(amount_fen) filter (where amount_fen < 0), 0) as debits,
        count(*) filter (where balance_after_fen < 0) as negative
        from wallet_logs where tenant_id = ${t.tenantId}`),
    );
    const [tn] = rowsOf<{ balance: string }>(await tx.execute(sql`select balance::text as balance from tenants where id = ${t.tenantId}`));
    expect(Number(l.negative)).toBe(0);
    return {
      balanceFen: Number(w.b),
      sumFen: Number(l.sum),
      entries: Number(l.n),
      credits: Number(l.credits),
      debits: Number(l.debits),
      tenantBalance: tn.balance,
    };
  });
}

/** The invariant: the balance is the sum of the entries, tenants.balance its yuan copy, credits − debits = balance. */
async function expectConsistent(t: TestTenant, balanceFen: number) {
  const l = await ledger(t);
  expect(l.balanceFen).toBe(balanceFen);
  expect(l.sumFen).toBe(balanceFen);
  expect(l.credits - l.debits).toBe(balanceFen);
  expect(l.tenantBalance).toBe((balanceFen / 100).toFixed(2));
  return l;
}

describe("§1 debit storm", () => {
  // RELIABILITY.md's 200 debits on PostgreSQL, where they run at once; 40 on PGlite, which takes them one by one.
  const covered = sizedForDatabase(100, 20);
  it(`${2 * covered} concurrent debits of a wallet that covers ${covered}: exactly ${covered} succeed, balance 0, drift 0`, async () => {
    const t = await s.createTenant();
    expect((await adjust(t, covered * 150)).status).toBe(200);
    const started = Date.now();
    const times: number[] = [];
    const answers = await Promise.all(
      Array.from({ length: 2 * covered }, async () => {
        const t0 = Date.now();
        const res = await pay(t, 150);
        times.push(Date.now() - t0);
        return res;
      }),
    );
    const ok = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 403);
    expect(ok.length).toBe(covered);
    expect(refused.length).toBe(covered);
    expect(refused.every((r) => r.body.error.code === "InsufficientBalance" && /余额不足/.test(r.body.error.message))).toBe(true);
    // Each success saw its own balance: (covered − 1) × 1.50 … 0.00 once each.
    expect(new Set(ok.map((r) => r.body.result.balance)).size).toBe(covered);
    const l = await expectConsistent(t, 0);
    expect(l.entries).toBe(covered + 1);
    times.sort((a, b) => a - b);
    console.log(
      `[wallet §1] successes ${ok.length}/${2 * covered}, drift ${l.balanceFen - l.sumFen}, p99 ${times[Math.floor(times.length * 0.99) - 1]} ms, ` +
        `all in ${Date.now() - started} ms`,
    );
  });
});

describe("§2 idempotent top-up", () => {
  it("one key sent 50 times at once, then after a restart: one entry, identical answers; another body is a 422", async () => {
    const t = await s.createTenant();
    const headers = key();
    const answers = await Promise.all(Array.from({ length: 50 }, () => adjust(t, 1234, BalanceAdjustType.Add, headers)));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((r) => r.raw)).size).toBe(1);
    expect(answers[0].body.result.balance).toBe(12.34);
    await expectConsistent(t, 1234);
    expect((await ledger(t)).entries).toBe(1);

    // A second app on the same database: what a restarted server is.
    const restarted = await buildApp(s.deps);
    try {
      await restarted.ready();
      const again = await restarted.inject({
        method: "POST",
        url: "/api/Hosted/AddOrSubMoney",
        headers: { authorization: `Bearer ${host}`, ...headers },
        payload: { tenantId: t.tenantId, money: 12.34, type: BalanceAdjustType.Add, remark: "测试调整" },
      });
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(answers[0].raw);
      expect(again.headers["idempotent-replayed"]).toBe("true");
    } finally {
      await restarted.close();
    }
    const other = await adjust(t, 999, BalanceAdjustType.Add, headers);
    expect(other.status).toBe(422);
    await expectConsistent(t, 1234);
    expect((await ledger(t)).entries).toBe(1);
  });

  it("an approval sent 50 times with one key credits the wallet once", async () => {
    const t = await s.createTenant();
    const id = await submitCharge(t, 5000);
    const headers = key();
    const answers = await Promise.all(Array.from({ length: 50 }, () => auditCharge(id, ChargeStatus.Approved, headers)));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((r) => r.raw)).size).toBe(1);
    await expectConsistent(t, 5000);
    expect((await ledger(t)).entries).toBe(1);
    // Another key: the record is already audited.
    const second = await auditCharge(id, ChargeStatus.Approved);
    expect(second.status).toBe(403);
    expect(second.body.error.code).toBe("AlreadyAudited");
    await expectConsistent(t, 5000);
  });
});

describe("§3 audit race", () => {
  // RELIABILITY.md's 100 trials on PostgreSQL, where both audits run at once; 20 on PGlite.
  const trials = sizedForDatabase(100, 20);
  it(`approve and reject of the same top-up at once, ${trials} trials: one final state, at most one movement`, async () => {
    const t = await s.createTenant();
    let expected = 0;
    let anomalies = 0;
    for (let i = 0; i < trials; i++) {
      const id = await submitCharge(t, 100 + i);
      const [a, r] = await Promise.all([auditCharge(id, ChargeStatus.Approved), auditCharge(id, ChargeStatus.Rejected)]);
      const statuses = [a.status, r.status].sort();
      if (statuses[0] !== 200 || statuses[1] !== 403) anomalies++;
      const final = await s.api("GET", "/api/ChargeRecord/GetChargeRecords", { token: t.token, query: { MaxResultCount: 1 } });
      const record = final.body.result.items[0];
      if (record.id !== id) anomalies++;
      const winner = a.status === 200 ? ChargeStatus.Approved : ChargeStatus.Rejected;
      if (record.status !== winner) anomalies++;
      if (winner === ChargeStatus.Approved) expected += 100 + i;
      const moved = await inScope(s.database.db, hostAllScope, async (tx) =>
        Number(rowsOf<{ n: string }>(await tx.execute(sql`select count(*) as n from wallet_logs where ref_id = ${id}`))[0].n),
      );
      if (moved !== (winner === ChargeStatus.Approved ? 1 : 0)) anomalies++;
    }
    await expectConsistent(t, expected);
    console.log(`[wallet §3] top-up audit race: ${trials} trials, anomalies ${anomalies}`);
    expect(anomalies).toBe(0);
  });

  it(`approve and reject of the same withdrawal at once, ${trials / 2} trials: the money is held once and returned at most once`, async () => {
    const t = await s.createTenant();
    await adjust(t, (trials / 2) * 200);
    let expected = (trials / 2) * 200;
    let anomalies = 0;
    for (let i = 0; i < trials / 2; i++) {
      const w = await withdraw(t, 200);
      expect(w.status, w.raw).toBe(200);
      expected -= 200;
      const id = w.body.result.id as string;
      const [a, r] = await Promise.all([auditWithdraw(id, WithdrawStatus.Approved), auditWithdraw(id, WithdrawStatus.Rejected)]);
      const statuses = [a.status, r.status].sort();
      if (statuses[0] !== 200 || statuses[1] !== 403) anomalies++;
      const rejected = r.status === 200;
      if (rejected) expected += 200;
      const moved = await inScope(s.database.db, hostAllScope, async (tx) =>
        Number(rowsOf<{ n: string }>(await tx.execute(sql`select count(*) as n from wallet_logs where ref_id = ${id}`))[0].n),
      );
      if (moved !== (rejected ? 2 : 1)) anomalies++;
    }
    await expectConsistent(t, expected);
    console.log(`[wallet §3] withdrawal audit race: ${trials / 2} trials, anomalies ${anomalies}`);
    expect(anomalies).toBe(0);
  });
});

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe("§4 ledger model", () => {
  // Full size on PostgreSQL, where RELIABILITY.md puts money; a fifth on PGlite (one transaction at a time).
  const operations = sizedForDatabase(1000, 200);
  it(`${operations} seeded random operations agree with a pure model; credits − debits = balance throughout`, async () => {
    const seed = Number(process.env.WALLET_SEED ?? 20261126);
    const rand = random(seed);
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
    const amount = () => 1 + Math.floor(rand() * 5000);
    const t = await s.createTenant();
    const model = { balance: 0, charges: new Map<string, number>(), withdraws: new Map<string, number>() };
    const counts: Record<string, number> = {};
    const fail = (op: string, res: ApiResponse) => `seed ${seed}, op ${op}: ${res.status} ${res.raw}`;
    for (let i = 0; i < operations; i++) {
      const op = pick(["topup", "approve", "reject", "withdraw", "approveW", "rejectW", "pay", "hostAdd", "hostSub", "reaudit"]);
      counts[op] = (counts[op] ?? 0) + 1;
      const fen = amount();
      const debit = async (res: ApiResponse, after: (r: ApiResponse) => number) => {
        if (model.balance >= fen) {
          expect(res.status, fail(op, res)).toBe(200);
          model.balance -= fen;
          expect(after(res), fail(op, res)).toBe(yuan(model.balance));
        } else {
          expect(res.status, fail(op, res)).toBe(403);
        }
      };
      if (op === "topup") {
        model.charges.set(await submitCharge(t, fen), fen);
      } else if ((op === "approve" || op === "reject") && model.charges.size) {
        const id = pick([...model.charges.keys()]);
        const res = await auditCharge(id, op === "approve" ? ChargeStatus.Approved : ChargeStatus.Rejected);
        expect(res.status, fail(op, res)).toBe(200);
        if (op === "approve") model.balance += model.charges.get(id)!;
        model.charges.delete(id);
      } else if (op === "withdraw") {
        const res = await withdraw(t, fen);
        const before = model.balance;
        await debit(res, () => yuan(model.balance));
        if (res.status === 200) {
          model.withdraws.set(res.body.result.id, fen);
          expect(model.balance).toBe(before - fen);
        }
      } else if ((op === "approveW" || op === "rejectW") && model.withdraws.size) {
        const id = pick([...model.withdraws.keys()]);
        const res = await auditWithdraw(id, op === "approveW" ? WithdrawStatus.Approved : WithdrawStatus.Rejected);
        expect(res.status, fail(op, res)).toBe(200);
        if (op === "rejectW") model.balance += model.withdraws.get(id)!;
        model.withdraws.delete(id);
      } else if (op === "pay") {
        await debit(await pay(t, fen), (r) => r.body.result.balance);
      } else if (op === "hostAdd") {
        const res = await adjust(t, fen);
        expect(res.status, fail(op, res)).toBe(200);
        model.balance += fen;
        expect(res.body.result.balance).toBe(yuan(model.balance));
      } else if (op === "hostSub") {
        await debit(await adjust(t, fen, BalanceAdjustType.Subtract), (r) => r.body.result.balance);
      } else if (op === "reaudit") {
        // An audited record audited again (another key) is refused and moves nothing.
        const audited = await s.api("GET", "/api/ChargeRecord/GetChargeRecords", {
          token: t.token,
          query: { Status: ChargeStatus.Approved, MaxResultCount: 1 },
        });
        const done = audited.body.result.items[0];
        if (done) expect((await auditCharge(done.id, ChargeStatus.Rejected)).status).toBe(403);
      }
      if (i % 100 === 99) await expectConsistent(t, model.balance);
    }
    const l = await expectConsistent(t, model.balance);
    const logs = await s.api("GET", "/api/WalletLog/GetWalletLogs", { token: t.token, query: { MaxResultCount: 1 } });
    expect(logs.body.result.balance).toBe(yuan(model.balance));
    expect(logs.body.result.totalCount).toBe(l.entries);
    console.log(
      `[wallet §4] seed ${seed}: ${operations} operations ${JSON.stringify(counts)}, ${l.entries} entries, ` +
        `credits ${l.credits} fen − debits ${l.debits} fen = balance ${l.balanceFen} fen`,
    );
  }, 180_000); // 1,000 calls in a row: a hang bound for a loaded machine, not a speed target
});

describe("refusals and isolation", () => {
  let a: TestTenant;
  let b: TestTenant;
  beforeAll(async () => {
    a = await s.createTenant();
    b = await s.createTenant();
    await adjust(a, 1000);
  });

  it("a purchase or withdrawal beyond the balance is refused with a clear message and changes nothing", async () => {
    const before = await ledger(a);
    const p = await pay(a, 1001);
    expect(p.status).toBe(403);
    expect(p.body.error.message).toBe("余额不足：当前余额 ¥10.00，需要 ¥10.01，请先充值");
    const w = await withdraw(a, 5000);
    expect(w.status).toBe(403);
    expect(await ledger(a)).toEqual(before);
    const list = await s.api("GET", "/api/Withdraw/GetWithdraws", { token: a.token });
    expect(list.body.result.totalCount).toBe(0);
  });

  it("another tenant sees none of it: logs, top-ups, withdrawals, the receipt image", async () => {
    const pic = await receipt(a);
    await submitCharge(a, 300);
    expect((await withdraw(a, 100)).status).toBe(200);
    for (const url of ["/api/WalletLog/GetWalletLogs", "/api/ChargeRecord/GetChargeRecords", "/api/Withdraw/GetWithdraws"]) {
      const res = await s.api("GET", url, { token: b.token });
      expect(res.status).toBe(200);
      expect(res.body.result.totalCount).toBe(0);
      expect(res.raw).not.toContain(a.tenantId);
    }
    expect((await s.api("GET", "/api/WalletLog/GetWalletLogs", { token: b.token })).body.result.balance).toBe(0);
    // The image: to its tenant and the host only.
    const own = await s.app.inject({
      method: "GET",
      url: `/api/ChargeRecord/GetReceipt?pic=${pic}`,
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(own.statusCode).toBe(200);
    expect(own.headers["content-type"]).toBe("image/png");
    expect(Buffer.from(own.rawPayload).equals(Buffer.from(pngImage(20, 10)))).toBe(true);
    const hosted = await s.app.inject({
      method: "GET",
      url: `/api/ChargeRecord/GetReceipt?pic=${pic}`,
      headers: { authorization: `Bearer ${host}` },
    });
    expect(hosted.statusCode).toBe(200);
    const foreign = await s.app.inject({
      method: "GET",
      url: `/api/ChargeRecord/GetReceipt?pic=${pic}`,
      headers: { authorization: `Bearer ${b.token}` },
    });
    expect(foreign.statusCode).toBe(404);
    // B cannot file a top-up with A's receipt.
    const stolen = await s.api("POST", "/api/ChargeRecord/SubmitChagreRecord", {
      token: b.token,
      headers: key(),
      body: { money: 1, payType: ChargePayType.Bank, pic },
    });
    expect(stolen.status).toBe(400);
    // The host sees A's records among all.
    const hostList = await s.api("GET", "/api/ChargeRecord/GetHostChargeRecords", { token: host, query: { Search: a.tenantName } });
    expect(hostList.body.result.items.length).toBeGreaterThan(0);
    expect(hostList.body.result.items.every((r: { tenantId: string }) => r.tenantId === a.tenantId)).toBe(true);
  });

  it("host calls refuse tenants' main and sub accounts", async () => {
    const sub = await s.createSubUser(a);
    for (const token of [a.token, sub.token]) {
      expect((await s.api("GET", "/api/Hosted/GetHostWalletInfo", { token })).status).toBe(403);
      expect((await s.api("GET", "/api/ChargeRecord/GetHostChargeRecords", { token })).status).toBe(403);
      expect((await s.api("GET", "/api/Withdraw/GetHostWithdraws", { token })).status).toBe(403);
      const adj = await s.api("POST", "/api/Hosted/AddOrSubMoney", {
        token,
        headers: key(),
        body: { tenantId: a.tenantId, money: 1, type: 1, remark: "x" },
      });
      expect(adj.status).toBe(403);
    }
    // A sub-account neither pays nor withdraws (main account only).
    expect((await pay({ ...a, token: sub.token }, 1)).status).toBe(403);
    expect((await withdraw({ ...a, token: sub.token }, 1)).status).toBe(403);
    const info = await s.api("GET", "/api/Hosted/GetHostWalletInfo", { token: host, query: { Search: a.tenantName } });
    expect(info.body.result.items).toEqual([
      expect.objectContaining({ tenantId: a.tenantId, tenantName: a.tenantName, balance: (await ledger(a)).balanceFen / 100 }),
    ]);
  });

  it("bad input is a 400 and moves nothing", async () => {
    const before = await ledger(a);
    for (const money of ["0", "-1", "0.001", "abc", "1000001"]) {
      const res = await s.api("GET", "/api/WalletLog/Payment", { token: a.token, headers: key(), query: { money, remark: "x" } });
      expect(res.status, money).toBe(400);
    }
    expect((await s.api("GET", "/api/WalletLog/Payment", { token: a.token, headers: key(), query: { money: 1 } })).status).toBe(400);
    const noRemark = await s.api("POST", "/api/Hosted/AddOrSubMoney", {
      token: host,
      headers: key(),
      body: { tenantId: a.tenantId, money: 1, type: 1, remark: " " },
    });
    expect(noRemark.status).toBe(400);
    const badType = await s.api("POST", "/api/Hosted/AddOrSubMoney", {
      token: host,
      headers: key(),
      body: { tenantId: a.tenantId, money: 1, type: 3, remark: "x" },
    });
    expect(badType.status).toBe(400);
    const id = await submitCharge(a, 100);
    const noReason = await s.api("POST", "/api/ChargeRecord/AuditChargeRecord", {
      token: host,
      headers: key(),
      body: { id, status: ChargeStatus.Rejected },
    });
    expect(noReason.status).toBe(400);
    const unknown = await auditCharge(randomUUID(), ChargeStatus.Approved);
    expect(unknown.status).toBe(404);
    const unknownTenant = await s.api("POST", "/api/Hosted/AddOrSubMoney", {
      token: host,
      headers: key(),
      body: { tenantId: randomUUID(), money: 1, type: 1, remark: "x" },
    });
    expect(unknownTenant.status).toBe(404);
    expect(await ledger(a)).toEqual(before);
  });

  it("receipt uploads are checked by their bytes, size and name", async () => {
    const text = await upload(a.token, "receipt.png", Buffer.from("not an image at all"));
    expect(text.status).toBe(415);
    const big = Buffer.concat([Buffer.from(pngImage(2, 2)), Buffer.alloc(5 * 1024 * 1024)]);
    expect((await upload(a.token, "big.png", big)).status).toBe(413);
    expect((await upload(a.token, "../../etc/passwd.png", pngImage(2, 2))).status).toBe(400);
    expect((await upload(a.token, "r.png", Buffer.alloc(0))).status).toBe(400);
    const huge = await upload(
      a.token,
      "r.png",
      pngImage(1, 1).map((v, i) => (i >= 16 && i < 24 ? [0, 0, 0x4e, 0x20][i % 4] : v)),
    );
    expect(huge.status).toBe(400);
    const ok = await upload(a.token, "名字随意.jpg", pngImage(3, 3));
    expect(ok.status).toBe(200);
    expect(ok.body.result.pic).toMatch(new RegExp(`^${a.tenantId}/[0-9a-f]{32}\\.png$`));
  });

  it("an image declaring too many pixels is refused from its header (issue 29: 12,000 × 12,000 was accepted)", async () => {
    // The header says 12,000 × 12,000 (IHDR's width and height), as the probe's 420 KB PNG did: ~432 MB decoded.
    const declaring = (w: number, h: number) => {
      const png = Buffer.from(pngImage(1, 1));
      png.writeUInt32BE(w, 16);
      png.writeUInt32BE(h, 20);
      return png;
    };
    const square = await upload(a.token, "r.png", declaring(12_000, 12_000));
    expect(square.status).toBe(400);
    expect(square.body.error.message).toContain("图片尺寸过大（12000 × 12000 像素）");
    // Within each side but too many pixels in all; and one side too long.
    expect((await upload(a.token, "r.png", declaring(8_000, 8_000))).status).toBe(400);
    expect((await upload(a.token, "r.png", declaring(400, 20_000))).status).toBe(400);
    // A long phone screenshot passes.
    expect((await upload(a.token, "r.png", pngImage(1170, 2532))).status).toBe(200);
  });

  it("makes a small preview at upload and refuses an image whose data is broken (issue 29)", async () => {
    const ok = await upload(a.token, "r.png", pngImage(1170, 2532));
    expect(ok.status).toBe(200);
    const pic = ok.body.result.pic as string;
    const get = (query: string, token = a.token) =>
      s.app.inject({ method: "GET", url: `/api/ChargeRecord/GetReceipt?${query}`, headers: { authorization: `Bearer ${token}` } });
    const preview = await get(`pic=${pic}&size=preview`);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers["content-type"]).toBe("image/webp");
    const meta = await sharp(Buffer.from(preview.rawPayload)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 222, PREVIEW_MAX_SIDE]);
    // Without the size, the original bytes; the preview is its tenant's and the host's only, as the original.
    const original = await get(`pic=${pic}`);
    expect(Buffer.from(original.rawPayload).equals(Buffer.from(pngImage(1170, 2532)))).toBe(true);
    expect((await get(`pic=${pic}&size=preview`, host)).statusCode).toBe(200);
    expect((await get(`pic=${pic}&size=preview`, b.token)).statusCode).toBe(404);
    expect((await get(`pic=${pic}&size=large`)).statusCode).toBe(400);
    // A header that passes, pixel data that is not there: refused, nothing stored.
    const cut = Buffer.from(pngImage(600, 400)).subarray(0, 60);
    const broken = await upload(a.token, "r.png", cut);
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toContain("图片内容已损坏");
  });

  it("the wallet log lists entries with their balances, filtered by type", async () => {
    const t = await s.createTenant();
    await adjust(t, 500);
    await pay(t, 120);
    const all = await s.api("GET", "/api/WalletLog/GetWalletLogs", { token: t.token });
    expect(all.body.result.balance).toBe(3.8);
    expect(all.body.result.items.map((e: { type: number; money: number; balance: number }) => [e.type, e.money, e.balance])).toEqual([
      [WalletLogType.Purchase, -1.2, 3.8],
      [WalletLogType.HostAdjust, 5, 5],
    ]);
    expect(all.body.result.items[0].userName).toBe(t.userName);
    const purchases = await s.api("GET", "/api/WalletLog/GetWalletLogs", { token: t.token, query: { Type: WalletLogType.Purchase } });
    expect(purchases.body.result.totalCount).toBe(1);
    expect((await s.api("GET", "/api/WalletLog/GetWalletLogs", { token: t.token, query: { Type: 99 } })).status).toBe(400);
  });

  it("counts the wallet log up to WALLET_LOG_COUNT_CAP and says when it stopped there, as the listing list does", async () => {
    const t = await s.createTenant();
    const exact = await s.api("GET", "/api/WalletLog/GetWalletLogs", { token: t.token });
    expect(exact.body.result).toEqual({ items: [], totalCount: 0, totalCountCapped: false, balance: 0 });
    // One more top-up than the cap, a minute apart, and one purchase (the newest).
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.execute(sql`insert into wallet_logs (tenant_id, id, type, amount_fen, balance_after_fen, remark, creation_time)
        select ${t.tenantId}::uuid, gen_random_uuid(), ${WalletLogType.TopUp}, 100, 100 * g, '充值',
               now() - make_interval(mins => ${WALLET_LOG_COUNT_CAP + 2} - g)
        from generate_series(1, ${WALLET_LOG_COUNT_CAP + 1}) g`),
    );
    await adjust(t, 100_000);
    await pay(t, 1);
    const all = await s.api("GET", "/api/WalletLog/GetWalletLogs", { token: t.token, query: { MaxResultCount: 10 } });
    expect(all.body.result).toMatchObject({ totalCount: WALLET_LOG_COUNT_CAP, totalCountCapped: true });
    expect(all.body.result.items).toHaveLength(10);
    // A filter under the cap is exact.
    const purchases = await s.api("GET", "/api/WalletLog/GetWalletLogs", { token: t.token, query: { Type: WalletLogType.Purchase } });
    expect(purchases.body.result).toMatchObject({ totalCount: 1, totalCountCapped: false });
    // Past the capped total the entries are still there to page to.
    const past = await s.api("GET", "/api/WalletLog/GetWalletLogs", {
      token: t.token,
      query: { SkipCount: WALLET_LOG_COUNT_CAP, MaxResultCount: 10 },
    });
    expect(past.body.result).toMatchObject({ totalCount: WALLET_LOG_COUNT_CAP, totalCountCapped: true });
    expect(past.body.result.items.map((e: { type: number; money: number }) => [e.type, e.money])).toEqual([
      [WalletLogType.TopUp, 1],
      [WalletLogType.TopUp, 1],
      [WalletLogType.TopUp, 1],
    ]);
  });
});

describe("orphan receipt images", () => {
  const dataDir = () => s.deps.config.dataDir;
  const fileOf = (pic: string) => join(receiptDir(dataDir(), pic.split("/")[0]), pic.split("/")[1]);
  const age = (path: string, ms: number) => utimes(path, new Date(Date.now() - ms), new Date(Date.now() - ms));
  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );
  const uploaded = async (t: TestTenant) => {
    const res = await upload(t.token, "r.png", pngImage(4, 4));
    expect(res.status, res.raw).toBe(200);
    return res.body.result.pic as string;
  };

  it("removes an image no record names once it is a day old, never one a charge record or withdrawal names", async () => {
    const t = await s.createTenant();
    await adjust(t, 10_000);
    const charged = await uploaded(t);
    const submitted = await s.api("POST", "/api/ChargeRecord/SubmitChagreRecord", {
      token: t.token,
      headers: key(),
      body: { money: 1, payType: ChargePayType.Alipay, pic: charged },
    });
    expect(submitted.status, submitted.raw).toBe(200);
    const withdrawn = await uploaded(t);
    const w = await s.api("POST", "/api/Withdraw/RequestWithdraw", {
      token: t.token,
      headers: key(),
      body: { money: 1, alipayAccount: "pay@example.com", pic: withdrawn },
    });
    expect(w.status, w.raw).toBe(200);
    const abandoned = await uploaded(t);
    const fresh = await uploaded(t);
    // A crashed upload's temporary file, and a file the sweep does not know, both old.
    const temp = join(receiptDir(dataDir(), t.tenantId), `.${"a".repeat(32)}.png.tmp`);
    const other = join(receiptDir(dataDir(), t.tenantId), "notes.txt");
    await writeFile(temp, "x");
    await writeFile(other, "x");
    // Previews go with their image; one whose image never arrived (an upload stopped between the two) goes when old.
    const previewOf = (pic: string) => receiptPreviewPath(dataDir(), t.tenantId, pic.split("/")[1]);
    const stray = receiptPreviewPath(dataDir(), t.tenantId, `${"b".repeat(32)}.png`);
    await writeFile(stray, "x");
    for (const path of [fileOf(charged), fileOf(withdrawn), fileOf(abandoned), temp, other, previewOf(abandoned), stray])
      await age(path, ORPHAN_RECEIPT_AGE_MS + 60_000);
    await age(fileOf(fresh), ORPHAN_RECEIPT_AGE_MS - 3600_000);

    expect(await sweepOrphanReceipts({ database: s.database, dataDir: dataDir(), log: s.deps.log })).toBeGreaterThanOrEqual(2);
    expect(await exists(fileOf(charged))).toBe(true);
    expect(await exists(fileOf(withdrawn))).toBe(true);
    expect(await exists(fileOf(fresh))).toBe(true);
    expect(await exists(other)).toBe(true);
    expect(await exists(fileOf(abandoned))).toBe(false);
    expect(await exists(temp)).toBe(false);
    expect(await exists(previewOf(abandoned))).toBe(false);
    expect(await exists(stray)).toBe(false);
    expect(await exists(previewOf(charged))).toBe(true);
    expect(await exists(previewOf(fresh))).toBe(true);
    // The kept ones still serve; the removed one is gone, and a late submit of it is refused.
    const get = (pic: string) =>
      s.app.inject({ method: "GET", url: `/api/ChargeRecord/GetReceipt?pic=${pic}`, headers: { authorization: `Bearer ${t.token}` } });
    expect((await get(charged)).statusCode).toBe(200);
    expect((await get(abandoned)).statusCode).toBe(404);
    const late = await s.api("POST", "/api/ChargeRecord/SubmitChagreRecord", {
      token: t.token,
      headers: key(),
      body: { money: 1, payType: ChargePayType.Alipay, pic: abandoned },
    });
    expect(late.status).toBe(400);
  });

  it("runs as the queue's periodic job, which queues its next run", async () => {
    const t = await s.createTenant();
    const abandoned = await uploaded(t);
    await age(fileOf(abandoned), ORPHAN_RECEIPT_AGE_MS + 60_000);
    await s.deps.jobs.send(RECEIPT_SWEEP_JOB, { slot: 0 });
    const deadline = Date.now() + 30_000;
    while ((await exists(fileOf(abandoned))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await exists(fileOf(abandoned))).toBe(false);
    // The next run waits for the next period's start.
    const next = rowsOf<{ n: number }>(
      await s.database.db.execute(
        sql`select count(*)::int as n from pgboss.job where name = ${RECEIPT_SWEEP_JOB} and state = 'created' and start_after > now()`,
      ),
    );
    expect(next[0].n).toBeGreaterThanOrEqual(1);
  });
});
