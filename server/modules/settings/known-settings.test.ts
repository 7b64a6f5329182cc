// The settings the product reads (issue 28: 系统配置 was an empty table) through the real HTTP stack: the host lists
// every registry key with its meaning, kind, default and value, sets values that pass each kind's rule, and a refused
// value is a 400 in the §8 envelope that changes nothing. Tenants neither list nor set them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTING_REGISTRY, SettingKeys } from "#shared/contract/setting-registry.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";

let s: TestServer;
let admin: string;
let a: TestTenant;
let sub: { token: string };

const KNOWN = "/api/SystemConfigSetting/GetKnownSettings";
const SET = "/api/SystemConfigSetting/SetValueByKey";

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  a = await s.createTenant();
  sub = await s.createSubUser(a);
});
afterAll(() => s?.close());

const set = (key: string, value: string | null, token = admin) => s.api("POST", SET, { token, body: { key, value } });
const valueOf = async (key: string) =>
  ((await s.api("GET", KNOWN, { token: admin })).body.result as { key: string; value: string | null }[]).find((k) => k.key === key)!.value;

describe("GetKnownSettings", () => {
  it("lists every key the product reads with its meaning, kind and default; unset ones read null", async () => {
    const res = await s.api("GET", KNOWN, { token: admin });
    expect(res.status, res.raw).toBe(200);
    const rows = res.body.result as { key: string; name: string; description: string; kindName: string; defaultText: string }[];
    expect(rows.map((r) => r.key)).toEqual(SETTING_REGISTRY.map((d) => d.key));
    expect(new Set(rows.map((r) => r.key))).toEqual(new Set(Object.values(SettingKeys)));
    for (const r of rows) {
      expect(r.name).toMatch(/\p{Script=Han}/u);
      expect(r.description).toMatch(/\p{Script=Han}/u);
      expect(r.kindName).toMatch(/\p{Script=Han}/u);
      expect(r.defaultText).not.toBe("");
    }
    expect(rows.find((r) => r.key === SettingKeys.freeSubAccounts)).toMatchObject({ kind: "integer", value: null, min: 0, max: 1000 });
  });

  it("is the host's: a main account and a sub-account get 403", async () => {
    for (const token of [a.token, sub.token]) {
      expect((await s.api("GET", KNOWN, { token })).status).toBe(403);
      expect((await set(SettingKeys.freeSubAccounts, "5", token)).status).toBe(403);
    }
    expect(await valueOf(SettingKeys.freeSubAccounts)).toBeNull();
  });
});

describe("SetValueByKey", () => {
  it("stores a value that passes the key's rule; every reader sees it; blank removes it", async () => {
    const res = await set(SettingKeys.freeSubAccounts, "3");
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({ key: SettingKeys.freeSubAccounts, value: "3", name: "免费子账号数" });
    const read = await s.api("GET", "/api/SystemConfigSetting/GetValueByKey", {
      token: a.token,
      query: { key: SettingKeys.freeSubAccounts },
    });
    expect(read.body.result).toBe("3");
    expect((await set(SettingKeys.freeSubAccounts, "4")).body.result.value).toBe("4");
    expect((await set(SettingKeys.freeSubAccounts, "  ")).body.result.value).toBeNull();
    expect((await set(SettingKeys.freeSubAccounts, null)).body.result.value).toBeNull();
  });

  it("keeps a secret key sealed: the host reads it, tenants get 403", async () => {
    expect((await set(SettingKeys.translateApiKey, "sk-test-1")).status).toBe(200);
    expect(await valueOf(SettingKeys.translateApiKey)).toBe("sk-test-1");
    const read = await s.api("GET", "/api/SystemConfigSetting/GetValueByKey", {
      token: a.token,
      query: { key: SettingKeys.translateApiKey },
    });
    expect(read.status).toBe(403);
    await set(SettingKeys.translateApiKey, null);
  });

  it.each([
    [SettingKeys.selfRegistrationEnabled, "yes", "须为 true 或 false"],
    [SettingKeys.freeSubAccounts, "-1", "整数"],
    [SettingKeys.freeSubAccounts, "2.5", "整数"],
    [SettingKeys.freeSubAccounts, "1001", "整数"],
    [SettingKeys.agencyCommissionRate, "101", "0 到 100"],
    [SettingKeys.agencyCommissionRate, "12.345", "0 到 100"],
    [SettingKeys.newVersionTenants, "ok,a", "公司名"],
    [SettingKeys.translateProvider, "baidu", "libretranslate"],
    [SettingKeys.translateUrl, "ftp://x", "http"],
    [SettingKeys.receivingAccounts, "{", "JSON"],
    [SettingKeys.receivingAccounts, '[{"name":"张三","kind":"bank","account":"6222"}]', "第 1 个账户：银行转账须填写开户行"],
    [SettingKeys.receivingAccounts, '[{"name":"张三","kind":"paypal","account":"x"}]', "收款方式"],
  ])("refuses %s = %j with a 400 that names the setting and changes nothing", async (key, value, text) => {
    expect((await set(key, key === SettingKeys.freeSubAccounts ? "2" : null)).status).toBe(200);
    const before = await valueOf(key);
    const res = await set(key, value);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "Validation", message: expect.any(String) });
    expect(res.body.error.details).toContain(key);
    expect(res.body.error.details).toContain(text);
    expect(res.body.error.validationErrors[0].members).toEqual(["value"]);
    expect(await valueOf(key)).toBe(before);
    // The generic call checks a known key the same way.
    const viaGeneric = await s.api("POST", "/api/SystemConfigSetting/CreateOrUpdate", { token: admin, body: { name: "x", key, value } });
    expect(viaGeneric.status).toBe(400);
    expect(await valueOf(key)).toBe(before);
    await set(key, null);
  });

  it("sets the built-in sandbox's order pace, which lives in the sandbox; a bad value changes nothing; null puts back 30", async () => {
    const pace = () => s.deps.sandbox!.control.orderStream.intervalMinutes();
    expect(await valueOf(SettingKeys.sandboxOrderInterval)).toBe(String(pace()));
    const res = await set(SettingKeys.sandboxOrderInterval, "45");
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.value).toBe("45");
    expect(pace()).toBe(45);
    const refused = await set(SettingKeys.sandboxOrderInterval, "0");
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toContain("1 到 1440");
    expect(pace()).toBe(45);
    expect((await set(SettingKeys.sandboxOrderInterval, null)).body.result.value).toBe("30");
    expect(pace()).toBe(30);
  });

  it("refuses a key the product does not read (create those with CreateOrUpdate)", async () => {
    const res = await set("Some.Unknown", "1");
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContain("不是系统读取的配置键");
  });
});
