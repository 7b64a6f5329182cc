// Money calls from outside (issue 29): two identical Payment calls without an Idempotency-Key debited twice, and its
// `money` query took "0x10" as ¥16 and " 1e1 " as ¥10. Every call that moves money now requires the key (a 400 that
// runs nothing without it), and a query amount is read as strictly as a JSON body's: plain decimal digits only.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { envelopeProblem } from "../../testing/security-kit.ts";
import { BalanceAdjustType } from "#shared/contract/enums.ts";

let s: TestServer;
let host: string;

beforeAll(async () => {
  s = await startTestServer();
  host = await s.adminToken();
});
afterAll(() => s?.close());

const key = () => ({ "idempotency-key": randomUUID() });

async function funded(yuan: number): Promise<TestTenant> {
  const t = await s.createTenant();
  const res = await s.api("POST", "/api/Hosted/AddOrSubMoney", {
    token: host,
    headers: key(),
    body: { tenantId: t.tenantId, money: yuan, type: BalanceAdjustType.Add, remark: "测试充值" },
  });
  expect(res.status, res.raw).toBe(200);
  return t;
}

async function balance(t: TestTenant): Promise<number> {
  const res = await s.api("GET", "/api/WalletLog/GetWalletLogs", { token: t.token, query: { MaxResultCount: 1 } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.balance;
}

const pay = (t: TestTenant, money: string, headers: Record<string, string> = key()) =>
  s.api("GET", "/api/WalletLog/Payment", { token: t.token, headers, query: { money, remark: "购买" } });

describe("a call that moves money", () => {
  it("without an Idempotency-Key is a 400 that debits nothing, however often it is sent", async () => {
    const t = await funded(100);
    for (let i = 0; i < 2; i++) {
      const res = await pay(t, "10", {});
      expect(res.status, res.raw).toBe(400);
      expect(envelopeProblem(res)).toBeNull();
      expect(res.body.error).toMatchObject({ code: "Idempotency.KeyRequired", message: expect.stringMatching(/Idempotency-Key/) });
    }
    expect(await balance(t)).toBe(100);
    // With its key it pays once, and the same key again replays that one payment.
    const headers = key();
    expect((await pay(t, "10", headers)).status).toBe(200);
    expect((await pay(t, "10", headers)).headers["idempotent-replayed"]).toBe("true");
    expect(await balance(t)).toBe(90);
  });

  it("every wallet and package call that moves money requires the key, and none of them runs without it", async () => {
    const money = s.app.calls.filter((c) => c.movesMoney).map((c) => `${c.method} ${c.url}`);
    expect(money.sort()).toEqual(
      [
        "GET /api/WalletLog/Payment",
        "POST /api/ChargeRecord/SubmitChagreRecord",
        "POST /api/ChargeRecord/AuditChargeRecord",
        "POST /api/Withdraw/RequestWithdraw",
        "POST /api/Withdraw/AuditWithdraw",
        "POST /api/Hosted/AddOrSubMoney",
        "POST /api/SubAccountOrder/OrderSubAcc",
      ].sort(),
    );
    const t = await funded(100);
    const calls: [string, string, NonNullable<Parameters<TestServer["api"]>[2]>][] = [
      ["POST", "/api/Withdraw/RequestWithdraw", { token: t.token, body: { money: 10, alipayAccount: "pay@example.com" } }],
      ["POST", "/api/Hosted/AddOrSubMoney", { token: host, body: { tenantId: t.tenantId, money: 10, type: 1, remark: "无标识" } }],
      ["POST", "/api/SubAccountOrder/OrderSubAcc", { token: t.token, query: { id: randomUUID() } }],
      ["POST", "/api/ChargeRecord/AuditChargeRecord", { token: host, body: { id: randomUUID(), status: 2, reason: "x" } }],
      ["POST", "/api/Withdraw/AuditWithdraw", { token: host, body: { id: randomUUID(), status: 2, reason: "x" } }],
    ];
    for (const [method, url, opts] of calls) {
      const res = await s.api(method, url, opts);
      expect(res.status, `${url} ${res.raw}`).toBe(400);
      expect(res.body.error.code, url).toBe("Idempotency.KeyRequired");
    }
    expect(await balance(t)).toBe(100);
  });
});

describe("Payment's money query", () => {
  it("takes plain decimal digits only: hex, exponents, blanks, signs and a third decimal are refused and debit nothing", async () => {
    const t = await funded(100);
    for (const money of ["0x10", " 1e1 ", "1e1", "", " ", "+5", "-5", "12.345", "Infinity", "NaN", "1_0", "０", "10 "]) {
      const res = await pay(t, money);
      expect(res.status, `${JSON.stringify(money)} ${res.raw}`).toBe(400);
      expect(envelopeProblem(res)).toBeNull();
    }
    expect(await balance(t)).toBe(100);
    expect((await pay(t, "12.5")).status).toBe(200);
    expect((await pay(t, "0.01")).status).toBe(200);
    expect(await balance(t)).toBe(87.49);
  });
});
