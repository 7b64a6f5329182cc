// Each area's client functions against the real server over HTTP: that the path, method, query, path parameters and
// body reach the call the server registered, and that answers come back typed. The server's own rules are tested in
// its modules; here we check the client's wiring.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, startTestServer, uniqueName, type TestServer, type TestTenant } from "../../server/testing/harness.ts";
import { LoginResultType } from "../contract/enums.ts";
import { SettingKeys } from "../contract/setting-registry.ts";
import { ApiError } from "./errors.ts";
import { createApi, type Api } from "./index.ts";

let s: TestServer;
let a: TestTenant;
let baseUrl: string;
const state = { token: null as string | null, tenant: null as string | null };
let api: Api;

beforeAll(async () => {
  s = await startTestServer();
  await s.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
  a = await s.createTenant();
  api = createApi({ baseUrl, getToken: () => state.token, getTenant: () => state.tenant });
  // Self-registration is off until the host switches it on (issue 29); the account tests register.
  const on = await s.api("POST", "/api/SystemConfigSetting/SetValueByKey", {
    token: await s.adminToken(),
    body: { key: SettingKeys.selfRegistrationEnabled, value: "true" },
  });
  if (on.status !== 200) throw new Error(`SetValueByKey: ${on.raw}`);
});
afterAll(() => s?.close());

const as = (token: string | null, tenant: string | null = null) => {
  state.token = token;
  state.tenant = tenant;
};
const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("the call did not fail");
    },
    (e: unknown) => e as ApiError,
  );

describe("account", () => {
  it("checks a password in the stored tenant (anonymous POST with a JSON body)", async () => {
    as(null, a.tenantName);
    const ok = await api.account.checkPassword({ userNameOrEmailAddress: "boss", password: a.password });
    expect(ok.result).toBe(LoginResultType.Success);
    const bad = await api.account.login({ userNameOrEmailAddress: "boss", password: "nope" });
    expect(bad.result).toBe(LoginResultType.InvalidUserNameOrPassword);
  });

  it("an unknown tenant on an anonymous call reads 公司未找到", async () => {
    as(null, uniqueName("nobody"));
    const e = await rejection(api.account.checkPassword({ userNameOrEmailAddress: "boss", password: a.password }));
    expect(e.status).toBe(404);
    expect(e.message).toBe("公司未找到");
  });

  it("reads and updates the caller's profile (GET, PUT with a body)", async () => {
    as(a.token, a.tenantName);
    const before = await api.account.getMyProfile();
    expect(before.userName).toBe("boss");
    const after = await api.account.updateMyProfile({ name: "老板", concurrencyStamp: before.concurrencyStamp });
    expect(after.name).toBe("老板");
  });

  it("registers a tenant, and logout ends the token's session", async () => {
    as(null);
    const name = uniqueName("reg");
    const user = await api.account.register({
      userName: "owner",
      emailAddress: `${name}@example.com`,
      password: "Passw0rd1",
      tenantName: name,
    });
    expect(user.userName).toBe("owner");
    const token = (await api.token.login({ username: "owner", password: "Passw0rd1", tenant: name })).access_token;
    as(token, name);
    expect((await api.user.getUserInfo()).tenantName).toBe(name);
    expect(await api.account.logout()).toBeUndefined();
    expect((await rejection(api.user.getUserInfo())).status).toBe(401);
  });
});

describe("tenancy", () => {
  it("looks a tenant up by name and by id (path parameters, encoded)", async () => {
    as(null);
    const byName = await api.tenancy.findTenantByName({ name: a.tenantName });
    expect(byName).toEqual({ success: true, tenantId: a.tenantId, name: a.tenantName, isActive: true });
    expect(await api.tenancy.findTenantById({ id: a.tenantId })).toMatchObject({ success: true, name: a.tenantName });
    expect(await api.tenancy.findTenantByName({ name: "没有 这个/公司?" })).toMatchObject({ success: false, tenantId: null });
  });

  it("GetTenantIdByName answers the id; a missing path parameter or name is refused before sending", async () => {
    as(null);
    expect(await api.tenancy.getTenantIdByName({ name: a.tenantName })).toBe(a.tenantId);
    expect((await rejection(api.tenancy.findTenantByName({} as { name: string }))).message).toBe("The parameter name cannot be null.");
    expect((await rejection(api.tenancy.getTenantIdByName({} as { name: string }))).message).toBe("The parameter name cannot be null.");
  });
});

describe("hosted", () => {
  it("the host opens a tenant, finds it in the list, edits its remark and reads its main account", async () => {
    as(await s.adminToken());
    const name = uniqueName("open");
    const main = await api.hosted.openTenantAccount({
      tenantName: name,
      userName: "boss",
      pwd: "Passw0rd1",
      accountExpireTime: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(main.tenantName).toBe(name);
    const page = await api.hosted.getTenants({ Search: name, IsActive: true, MaxResultCount: 5 });
    expect(page.items.map((t) => t.tenantName)).toEqual([name]);
    const tenantId = page.items[0].id;
    expect(await api.hosted.editRemark({ id: tenantId, remark: "VIP" })).toBeUndefined();
    expect((await api.hosted.getTenants({ Search: name })).items[0].remark).toBe("VIP");
    expect((await api.hosted.getTenantUserInfo({ TenantId: tenantId })).userName).toBe("boss");
    expect((await api.hosted.getTenantNameBySearch({ search: name })).map((t) => t.name)).toEqual([name]);
    expect((await api.hosted.getAllTenants()).some((t) => t.id === tenantId)).toBe(true);
    expect(await api.hosted.unLockTenant({ tenantId })).toBeUndefined();
    const reset = await api.hosted.resetTenantPassword({ TenantId: tenantId });
    expect(reset.password).toBeTruthy();
    expect((await api.token.login({ username: "boss", password: reset.password!, tenant: name })).access_token).toBeTruthy();
  });

  it("a tenant user gets 403 with the server's message", async () => {
    as(a.token, a.tenantName);
    const e = await rejection(api.hosted.getAllTenants());
    expect(e.status).toBe(403);
    expect(e.message).toBe("仅平台管理员可以执行此操作");
  });
});

describe("settings and currency", () => {
  it("the host writes a setting; a tenant user reads it; DELETE with a query answers 204", async () => {
    as(await s.adminToken());
    const key = `Test.${uniqueName("k")}`;
    const created = await api.settings.createOrUpdate({ name: "测试", key, value: "42" });
    expect((await api.settings.getList({ Search: key })).totalCount).toBe(1);
    as(a.token, a.tenantName);
    expect(await api.settings.getValueByKey({ key })).toBe("42");
    expect((await api.settings.get({ key })).id).toBe(created.id);
    as(await s.adminToken());
    expect(await api.settings.delete({ id: created.id })).toBeUndefined();
    as(a.token, a.tenantName);
    expect(await api.settings.getValueByKey({ key })).toBeNull();
  });

  it("currencies: list, create, delete", async () => {
    as(await s.adminToken());
    const code = "QQQ";
    const created = await api.currency.createOrUpdateCurrency({ code, zh: "测试币", rate: "0.5" });
    expect(created.rate).toMatch(/^0\.5/);
    expect((await api.currency.getAllCurrency()).some((c) => c.code === code)).toBe(true);
    expect(await api.currency.deleteCurrency({ id: created.id })).toBeUndefined();
  });
});

describe("tasks", () => {
  it("pages the caller's tasks with typed filters", async () => {
    as(a.token, a.tenantName);
    const page = await api.tasks.getTaskInfoByPage({ StartDate: new Date("2020-01-01"), MaxResultCount: 5, Sorting: "creationTime desc" });
    expect(page).toMatchObject({ items: expect.any(Array), totalCount: expect.any(Number) });
  });
});

describe("the host without a tenant", () => {
  it("logs in with the placeholder tenant stored", async () => {
    as(null, "11111111");
    const token = (await api.token.login({ username: "admin", password: ADMIN_PASSWORD })).access_token;
    as(token, "11111111");
    expect((await api.user.getUserInfo()).isHost).toBe(true);
  });
});

describe("categories", () => {
  it("syncs as the host, then reads the tree with its version, the fetch by site id and attributes", async () => {
    as(await s.adminToken());
    const { taskId, started } = await api.meliCategory.updateAllCategory({ sites: [1], withAttributes: false, withFees: false });
    expect(started).toBe(true);
    for (let i = 0; ; i++) {
      const page = await api.tasks.getTaskInfoByPage({ TaskType: 9, MaxResultCount: 10 });
      if (page.items.find((t) => t.id === taskId)?.taskStatus === 3) break;
      if (i > 300) throw new Error("category sync did not finish");
      await new Promise((r) => setTimeout(r, 100));
    }
    as(a.token, a.tenantName);
    const tree = await api.meliCategory.getAllCategory({ site: 1 });
    expect(tree).toMatchObject({ site: 1, notModified: false, nodeCount: 311 });
    const same = await api.meliCategory.getAllCategory({ site: 1, version: tree.version! });
    expect(same).toMatchObject({ notModified: true, tree: null });
    const roots = await api.meliCategory.getCategoryBySiteId({ siteId: 1 });
    expect(roots.map((c) => c.cateId)).toEqual(tree.tree!.map((n) => n.id));
    const attrs = await api.meliCategory.getAttributes({ site: 1, cateId: roots[0].cateId });
    expect(attrs).toMatchObject({ cateId: roots[0].cateId, isLeaf: false, attributes: [] });
    const bad = await rejection(api.meliCategory.getAllCategory({ site: 7 }));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("Invalid site ID");
    const refused = await rejection(api.meliCategory.updateRefer({ site: 1, cateId: roots[0].cateId, refer: "x" }));
    expect(refused.status).toBe(403);
  });
});

describe("GTIN pool and call log", () => {
  it("adds, counts and clears codes (POST body, GET and DELETE without input); lists and opens logs (query with dates)", async () => {
    as(a.token, a.tenantName);
    expect(await api.meliCode.setCodes({ codes: ["4006381333931", "96385074", "96385074"] })).toEqual({ added: 2, ignored: 1 });
    expect(await api.meliCode.getCodeCnt()).toEqual({ unused: 2, used: 0, total: 2 });
    expect(await api.meliCode.clearCode()).toEqual({ deleted: 2 });
    const page = await api.meliStatLog.getLogsByPage({ StartTime: new Date("2026-01-01T00:00:00Z"), MaxResultCount: 5 });
    expect(page).toEqual({ items: [], totalCount: 0, totalCountCapped: false });
    const missing = await rejection(api.meliStatLog.getLogDetail({ id: "00000000-0000-4000-8000-000000000001" }));
    expect(missing.status).toBe(404);
  });
});
