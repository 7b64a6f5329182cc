// System configuration settings and currency rates through the real HTTP stack.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { settings } from "../../db/schema.ts";
import { inScope, hostScope } from "../../db/scope.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { getSettingValue, SettingKeys, type SettingKey } from "../../db/settings.ts";

let s: TestServer;
let admin: string;
let a: TestTenant;
let sub: { token: string };

const MISSING_GUID = "0b6c3f2e-9d7a-4c1e-8f00-123456789abc";

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  a = await s.createTenant();
  sub = await s.createSubUser(a);
});
afterAll(() => s?.close());

function expect400(res: { status: number; body: any }, text: string) {
  expect(res.status).toBe(400);
  expect(res.body.error.details).toContain(text);
}

const save = (body: Record<string, unknown>, token = admin) => s.api("POST", "/api/SystemConfigSetting/CreateOrUpdate", { token, body });

describe("SystemConfigSetting", () => {
  it("creates a setting that every logged-in user reads by key", async () => {
    const key = `Test.${uniqueName("k")}`;
    const created = await save({ name: "测试", key, value: "hello", description: "说明" });
    expect(created.status).toBe(200);
    expect(created.body.result).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "测试",
      key,
      value: "hello",
      description: "说明",
      creationTime: expect.any(String),
      lastModificationTime: null,
    });
    for (const token of [admin, a.token, sub.token]) {
      const v = await s.api("GET", "/api/SystemConfigSetting/GetValueByKey", { token, query: { key } });
      expect(v.status).toBe(200);
      expect(v.body.result).toBe("hello");
      const g = await s.api("GET", "/api/SystemConfigSetting/Get", { token, query: { Key: key } });
      expect(g.status).toBe(200);
      expect(g.body.result).toEqual(created.body.result);
    }
    // The shared reader sees the same value (it takes only registry keys: this test key is cast to one).
    expect(await inScope(s.database.db, hostScope, (tx) => getSettingValue(tx, key as SettingKey))).toBe("hello");
  });

  it("keeps secret keys (API keys, passwords, tokens) from tenant users", async () => {
    const key = `Translate.${uniqueName("p")}.ApiKey`;
    expect((await save({ name: "密钥", key, value: "sk-live-123" })).status).toBe(200);
    for (const token of [a.token, sub.token]) {
      for (const url of ["/api/SystemConfigSetting/GetValueByKey", "/api/SystemConfigSetting/Get"]) {
        const res = await s.api("GET", url, { token, query: { key } });
        expect(res.status).toBe(403);
        expect(res.body.error.message).toBe("仅平台管理员可以查看此配置");
        expect(JSON.stringify(res.body)).not.toContain("sk-live-123");
      }
    }
    const host = await s.api("GET", "/api/SystemConfigSetting/GetValueByKey", { token: admin, query: { key } });
    expect(host.body.result).toBe("sk-live-123");
    const got = await s.api("GET", "/api/SystemConfigSetting/Get", { token: admin, query: { key } });
    expect(got.body.result.value).toBe("sk-live-123");
    // At rest the value is encrypted.
    const [{ value: secret }] = await inScope(s.database.db, hostScope, (tx) =>
      tx.select({ value: settings.value }).from(settings).where(eq(settings.key, key)),
    );
    expect(secret).not.toContain("sk-live-123");
    expect(secret).toMatch(/^v1\./);
    // Console lists stay readable: the permission filter needs them.
    const list = await s.api("GET", "/api/SystemConfigSetting/GetValueByKey", {
      token: sub.token,
      query: { key: SettingKeys.newVersionTenants },
    });
    expect(list.status).toBe(200);
  });

  it("answers null for an unset key and 404 from Get", async () => {
    const v = await s.api("GET", "/api/SystemConfigSetting/GetValueByKey", { token: a.token, query: { key: "No.Such.Key" } });
    expect(v.status).toBe(200);
    expect(v.body).toEqual({ result: null });
    const g = await s.api("GET", "/api/SystemConfigSetting/Get", { token: a.token, query: { key: "No.Such.Key" } });
    expect(g.status).toBe(404);
    expect(g.body.error.message).toContain("不存在");
  });

  it("updates by id, keeps the key unique, and answers 404 for an unknown id", async () => {
    const key1 = `Test.${uniqueName("u")}`;
    const key2 = `Test.${uniqueName("u")}`;
    const one = (await save({ name: "one", key: key1, value: "1" })).body.result;
    await save({ name: "two", key: key2, value: "2" });

    const updated = await save({ id: one.id.toUpperCase(), name: "one!", key: key1, value: "", description: null });
    expect(updated.status).toBe(200);
    expect(updated.body.result).toMatchObject({
      id: one.id,
      name: "one!",
      key: key1,
      value: "",
      description: null,
      creationTime: one.creationTime,
    });
    expect(updated.body.result.lastModificationTime).not.toBeNull();

    const dupCreate = await save({ name: "again", key: key1, value: "x" });
    expect(dupCreate.status).toBe(403);
    expect(dupCreate.body.error.message).toContain("已存在");
    const dupRename = await save({ id: one.id, name: "one", key: key2, value: "x" });
    expect(dupRename.status).toBe(403);
    const renamed = await save({ id: one.id, name: "one", key: `${key1}.b`, value: "x" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.result.key).toBe(`${key1}.b`);

    const missing = await save({ id: MISSING_GUID, name: "n", key: `Test.${uniqueName("m")}`, value: "x" });
    expect(missing.status).toBe(404);
  });

  it.each([
    [{ key: "A.b", value: "x" }, "The parameter name cannot be null."],
    [{ name: "n", value: "x" }, "The parameter key cannot be null."],
    [{ name: "n", key: "A.b" }, "The parameter value cannot be null."],
    [{ name: "n", key: "has space", value: "x" }, "key:"],
    [{ name: "n", key: "A.b", value: "x", id: "nope" }, "id:"],
    [{ name: "", key: "A.b", value: "x" }, "name:"],
    [{ name: "n", key: "A.b", value: 5 }, "value:"],
    [{ name: "n", key: "A.b", value: "x".repeat(65_537) }, "value:"],
  ])("CreateOrUpdate refuses bad input #%# with 400", async (body, text) => {
    expect400(await save(body), text);
  });

  it("lists, searches, sorts and pages for the host", async () => {
    const tag = uniqueName("list");
    for (const n of ["b", "a", "c"]) await save({ name: `${tag}-${n}`, key: `List.${tag}.${n}`, value: n });
    const res = await s.api("GET", "/api/SystemConfigSetting/GetList", { token: admin, query: { Search: tag, Sorting: "name desc" } });
    expect(res.status).toBe(200);
    expect(res.body.result.totalCount).toBe(3);
    expect(res.body.result.items.map((i: any) => i.value)).toEqual(["c", "b", "a"]);
    const page = await s.api("GET", "/api/SystemConfigSetting/GetList", {
      token: admin,
      query: { Search: tag, SkipCount: 1, MaxResultCount: 1 },
    });
    expect(page.body.result).toMatchObject({ totalCount: 3, items: [{ value: "b" }] }); // by key by default
    const none = await s.api("GET", "/api/SystemConfigSetting/GetList", { token: admin, query: { Search: "%_%" } });
    expect(none.body.result.totalCount).toBe(0);
  });

  it.each([
    [{ Sorting: "value asc" }, "Sorting:"],
    [{ MaxResultCount: 1001 }, "MaxResultCount:"],
    [{ SkipCount: "-5" }, "SkipCount:"],
  ])("GetList refuses %j with 400", async (query, text) => {
    expect400(await s.api("GET", "/api/SystemConfigSetting/GetList", { token: admin, query: query as Record<string, string> }), text);
  });

  it("deletes by id; an unknown id is 404", async () => {
    const key = `Del.${uniqueName("d")}`;
    const id = (await save({ name: "d", key, value: "v" })).body.result.id;
    expect((await s.api("DELETE", "/api/SystemConfigSetting/Delete", { token: admin, query: { id } })).status).toBe(204);
    expect((await s.api("GET", "/api/SystemConfigSetting/GetValueByKey", { token: admin, query: { key } })).body.result).toBeNull();
    expect((await s.api("DELETE", "/api/SystemConfigSetting/Delete", { token: admin, query: { id } })).status).toBe(404);
    expect400(await s.api("DELETE", "/api/SystemConfigSetting/Delete", { token: admin }), "The parameter id cannot be null.");
    expect400(await s.api("DELETE", "/api/SystemConfigSetting/Delete", { token: admin, query: { id: "1" } }), "id:");
  });

  it("reads need a key and a login", async () => {
    expect400(await s.api("GET", "/api/SystemConfigSetting/GetValueByKey", { token: a.token }), "The parameter key cannot be null.");
    expect400(await s.api("GET", "/api/SystemConfigSetting/Get", { token: a.token }), "The parameter key cannot be null.");
    expect400(await s.api("GET", "/api/SystemConfigSetting/Get", { token: a.token, query: { key: "k".repeat(129) } }), "key:");
    expect((await s.api("GET", "/api/SystemConfigSetting/GetValueByKey", { query: { key: SettingKeys.faq } })).status).toBe(401);
    expect((await s.api("GET", "/api/SystemConfigSetting/Get", { query: { key: SettingKeys.faq } })).status).toBe(401);
  });

  it.each([
    ["GET", "/api/SystemConfigSetting/GetList", undefined, undefined],
    ["POST", "/api/SystemConfigSetting/CreateOrUpdate", undefined, { name: "n", key: "Hack.Key", value: "x" }],
    ["DELETE", "/api/SystemConfigSetting/Delete", { id: MISSING_GUID }, undefined],
    ["POST", "/api/Currency/CreateOrUpdateCurrency", undefined, { code: "EUR", zh: "欧元", rate: 7.8 }],
    ["DELETE", "/api/Currency/DeleteCurrency", { id: MISSING_GUID }, undefined],
  ] as [string, string, Record<string, string> | undefined, unknown][])("%s %s is host-only", async (method, url, query, body) => {
    for (const token of [a.token, sub.token]) {
      const res = await s.api(method, url, { token, query, body });
      expect(res.status).toBe(403);
    }
    expect((await s.api(method, url, { query, body })).status).toBe(401);
    const key = await s.api("GET", "/api/SystemConfigSetting/GetValueByKey", { token: admin, query: { key: "Hack.Key" } });
    expect(key.body.result).toBeNull();
  });
});

describe("Currency", () => {
  it("lists the seeded rates, CNY first, rates as exact decimal strings", async () => {
    for (const token of [a.token, sub.token, admin]) {
      const res = await s.api("GET", "/api/Currency/GetAllCurrency", { token });
      expect(res.status).toBe(200);
      const list = res.body.result;
      expect(list[0]).toEqual({ id: expect.any(String), creationTime: expect.any(String), code: "CNY", zh: "人民币", rate: "1" });
      expect(list).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ code: "USD", rate: "7.1" }),
          expect.objectContaining({ code: "CLP", rate: "0.0075" }),
          expect.objectContaining({ code: "EUR", rate: "7.7" }),
          expect.objectContaining({ code: "GBP", rate: "9" }),
        ]),
      );
    }
    expect((await s.api("GET", "/api/Currency/GetAllCurrency")).status).toBe(401);
  });

  it("creates, updates and deletes a currency", async () => {
    const created = await s.api("POST", "/api/Currency/CreateOrUpdateCurrency", {
      token: admin,
      body: { code: "THB", zh: "泰铢", rate: 7.85 },
    });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ code: "THB", zh: "泰铢", rate: "7.85" });
    const id = created.body.result.id;
    const updated = await s.api("POST", "/api/Currency/CreateOrUpdateCurrency", {
      token: admin,
      body: { id, code: "THB", zh: "泰国泰铢", rate: "7.12345678" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.result).toEqual({
      id,
      creationTime: created.body.result.creationTime,
      code: "THB",
      zh: "泰国泰铢",
      rate: "7.12345678",
    });
    const list = (await s.api("GET", "/api/Currency/GetAllCurrency", { token: a.token })).body.result;
    expect(list.filter((c: any) => c.code === "THB")).toEqual([updated.body.result]);

    expect((await s.api("DELETE", "/api/Currency/DeleteCurrency", { token: admin, query: { id } })).status).toBe(204);
    expect((await s.api("GET", "/api/Currency/GetAllCurrency", { token: a.token })).body.result.some((c: any) => c.code === "THB")).toBe(
      false,
    );
    expect((await s.api("DELETE", "/api/Currency/DeleteCurrency", { token: admin, query: { id } })).status).toBe(404);
  });

  it("keeps codes unique and CNY the base", async () => {
    const all = (await s.api("GET", "/api/Currency/GetAllCurrency", { token: admin })).body.result;
    const cny = all.find((c: any) => c.code === "CNY");
    const usd = all.find((c: any) => c.code === "USD");
    const dup = await s.api("POST", "/api/Currency/CreateOrUpdateCurrency", { token: admin, body: { code: "USD", zh: "美元", rate: 7 } });
    expect(dup.status).toBe(403);
    expect(dup.body.error.message).toContain("已存在");
    expect(
      (
        await s.api("POST", "/api/Currency/CreateOrUpdateCurrency", {
          token: admin,
          body: { id: usd.id, code: "CNY", zh: "美元", rate: 1 },
        })
      ).status,
    ).toBe(403);
    const del = await s.api("DELETE", "/api/Currency/DeleteCurrency", { token: admin, query: { id: cny.id } });
    expect(del.status).toBe(403);
    expect(del.body.error.message).toContain("不能删除");
    expect(
      (
        await s.api("POST", "/api/Currency/CreateOrUpdateCurrency", {
          token: admin,
          body: { id: cny.id, code: "CNH", zh: "人民币", rate: 1 },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await s.api("POST", "/api/Currency/CreateOrUpdateCurrency", {
          token: admin,
          body: { id: cny.id, code: "CNY", zh: "人民币", rate: 2 },
        })
      ).status,
    ).toBe(403);
    const renamed = await s.api("POST", "/api/Currency/CreateOrUpdateCurrency", {
      token: admin,
      body: { id: cny.id, code: "CNY", zh: "人民币元", rate: "1.0" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.result).toMatchObject({ code: "CNY", zh: "人民币元", rate: "1" });
    const missing = await s.api("POST", "/api/Currency/CreateOrUpdateCurrency", {
      token: admin,
      body: { id: MISSING_GUID, code: "SGD", zh: "新加坡元", rate: 9 },
    });
    expect(missing.status).toBe(404);
  });

  it.each([
    [{ zh: "欧元", rate: 1 }, "The parameter code cannot be null."],
    [{ code: "EUR", rate: 1 }, "The parameter zh cannot be null."],
    [{ code: "EUR", zh: "欧元" }, "The parameter rate cannot be null."],
    [{ code: "eur", zh: "欧元", rate: 1 }, "code:"],
    [{ code: "EURO", zh: "欧元", rate: 1 }, "code:"],
    [{ code: "EUR", zh: "欧元", rate: 0 }, "rate:"],
    [{ code: "EUR", zh: "欧元", rate: -1 }, "rate:"],
    [{ code: "EUR", zh: "欧元", rate: "abc" }, "rate:"],
    [{ code: "EUR", zh: "欧元", rate: "1.123456789" }, "rate:"],
    [{ code: "EUR", zh: "欧元", rate: 1e12 }, "rate:"],
    [{ code: "EUR", zh: "欧元", rate: true }, "rate:"],
    [{ code: "EUR", zh: "", rate: 1 }, "zh:"],
    [{ id: "x", code: "EUR", zh: "欧元", rate: 1 }, "id:"],
  ])("CreateOrUpdateCurrency refuses %j with 400", async (body, text) => {
    expect400(await s.api("POST", "/api/Currency/CreateOrUpdateCurrency", { token: admin, body }), text);
  });

  it("DeleteCurrency needs a valid id", async () => {
    expect400(await s.api("DELETE", "/api/Currency/DeleteCurrency", { token: admin }), "The parameter id cannot be null.");
    expect400(await s.api("DELETE", "/api/Currency/DeleteCurrency", { token: admin, query: { id: "abc" } }), "id:");
  });
});
