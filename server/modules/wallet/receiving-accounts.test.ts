// The platform's receiving accounts (issue 28: the top-up dialog never said where to pay) through the real HTTP stack:
// the host saves them with a QR code it uploaded, every tenant reads them (and the QR image) but cannot change them,
// and the orphan sweep keeps a QR code an account names.
import { join } from "node:path";
import { stat, utimes } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SettingKeys } from "#shared/contract/setting-registry.ts";
import { pngImage } from "#shared/images/test-images.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { getReceipt, uploadReceipt } from "../../testing/money-kit.ts";
import { ORPHAN_RECEIPT_AGE_MS, receiptDir, sweepOrphanReceipts } from "./receipts.ts";

let s: TestServer;
let host: string;
let a: TestTenant;
let b: TestTenant;
let sub: { token: string };

const GET = "/api/ChargeRecord/GetReceivingAccounts";
const SET = "/api/SystemConfigSetting/SetValueByKey";

beforeAll(async () => {
  s = await startTestServer();
  host = await s.adminToken();
  a = await s.createTenant();
  b = await s.createTenant();
  sub = await s.createSubUser(a);
});
afterAll(() => s?.close());

async function hostUpload(): Promise<string> {
  const res = await uploadReceipt(s, host, "qr.png", pngImage(8, 8));
  expect(res.status, res.raw).toBe(200);
  return res.body.result.pic;
}

const accountsWith = (qrPic: string) => [
  { name: "某某科技有限公司", kind: "bank", account: "6222 0000 1111 2222", bankName: "招商银行深圳分行", remark: "转账请备注公司名" },
  { name: "张三", kind: "alipay", account: "pay@example.com", qrPic },
];

describe("receiving accounts", () => {
  it("tenants read none before the host sets any", async () => {
    const res = await s.api("GET", GET, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([]);
  });

  it("the host sets them; every tenant and sub-account reads them and the QR image, and none can write them", async () => {
    const qr = await hostUpload();
    const other = await hostUpload();
    const saved = await s.api("POST", SET, {
      token: host,
      body: { key: SettingKeys.receivingAccounts, value: JSON.stringify(accountsWith(qr)) },
    });
    expect(saved.status, saved.raw).toBe(200);

    for (const token of [a.token, b.token, sub.token]) {
      const res = await s.api("GET", GET, { token });
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual(accountsWith(qr));
      expect((await getReceipt(s, token, qr)).status).toBe(200);
      // Another platform upload no account names stays the host's.
      expect((await getReceipt(s, token, other)).status).toBe(404);
    }

    for (const token of [a.token, sub.token]) {
      const write = await s.api("POST", SET, { token, body: { key: SettingKeys.receivingAccounts, value: "[]" } });
      expect(write.status).toBe(403);
      const generic = await s.api("POST", "/api/SystemConfigSetting/CreateOrUpdate", {
        token,
        body: { name: "收款", key: SettingKeys.receivingAccounts, value: "[]" },
      });
      expect(generic.status).toBe(403);
    }
    expect((await s.api("GET", GET, { token: b.token })).body.result).toHaveLength(2);
  });

  it("refuses a QR code that is not the platform's upload", async () => {
    const tenantPic = (await uploadReceipt(s, a.token, "mine.png", pngImage(4, 4))).body.result.pic as string;
    const res = await s.api("POST", SET, {
      token: host,
      body: { key: SettingKeys.receivingAccounts, value: JSON.stringify(accountsWith(tenantPic)) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContain("收款码须由平台管理员上传");
  });

  it("the orphan sweep keeps a QR code an account names and removes the platform's other old uploads", async () => {
    const qr = await hostUpload();
    const orphan = await hostUpload();
    expect(
      (await s.api("POST", SET, { token: host, body: { key: SettingKeys.receivingAccounts, value: JSON.stringify(accountsWith(qr)) } }))
        .status,
    ).toBe(200);
    const dataDir = s.deps.config.dataDir;
    const file = (pic: string) => join(receiptDir(dataDir, pic.split("/")[0]), pic.split("/")[1]);
    const old = new Date(Date.now() - ORPHAN_RECEIPT_AGE_MS - 60_000);
    for (const pic of [qr, orphan]) await utimes(file(pic), old, old);
    await sweepOrphanReceipts({ database: s.database, dataDir, log: s.deps.log });
    const exists = (p: string) =>
      stat(p).then(
        () => true,
        () => false,
      );
    expect(await exists(file(qr))).toBe(true);
    expect(await exists(file(orphan))).toBe(false);
  });
});
