// Host administration of tenants through the real HTTP stack: access, input errors, and what each call changes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";

let s: TestServer;
let admin: string;
let a: TestTenant;
let b: TestTenant;
let aSub: { id: string; userName: string; password: string; token: string };
let aSub2: { id: string; userName: string; password: string; token: string };

const MISSING_GUID = "0b6c3f2e-9d7a-4c1e-8f00-123456789abc";

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  a = await s.createTenant(uniqueName("ha"));
  b = await s.createTenant(uniqueName("hb"));
  aSub = await s.createSubUser(a);
  aSub2 = await s.createSubUser(a);
});
afterAll(() => s?.close());

async function tryLogin(userName: string, password: string, tenant?: string) {
  const res = await s.app.inject({
    method: "POST",
    url: "/connect/token",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(tenant ? { __tenant: tenant } : {}) },
    payload: new URLSearchParams({ grant_type: "password", client_id: "Erp_App", scope: "Erp", username: userName, password }).toString(),
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

function expect400(res: { status: number; body: any }, text: string) {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe("Validation");
  expect(res.body.error.details).toContain(text);
}

const hostCalls: [string, string, Record<string, string>?, unknown?][] = [
  ["POST", "/api/Hosted/OpenTenantAccount", undefined, { tenantName: "nope" + Date.now(), userName: "boss", pwd: "Passw0rd1" }],
  ["GET", "/api/Hosted/GetTenants"],
  ["GET", "/api/Hosted/GetAllTenants"],
  ["PUT", "/api/Hosted/EditRemark", { id: MISSING_GUID, remark: "x" }],
  ["GET", "/api/Hosted/GetTenantNameBySearch", { search: "h" }],
  ["GET", "/api/Hosted/UnLockTenant", { tenantId: MISSING_GUID }],
  ["GET", "/api/Hosted/ResetTenantPassword", { TenantId: MISSING_GUID }],
  ["GET", "/api/Hosted/GetTenantUserInfo", { TenantId: MISSING_GUID }],
];

describe("Hosted access", () => {
  it.each(hostCalls)(
    "%s %s is refused to a tenant main account and a sub-account (403) and without a token (401)",
    async (method, url, query, body) => {
      for (const token of [a.token, aSub.token]) {
        const res = await s.api(method, url, { token, query, body });
        expect(res.status).toBe(403);
        expect(res.body.error.message).toBe("仅平台管理员可以执行此操作");
      }
      expect((await s.api(method, url, { query, body })).status).toBe(401);
    },
  );

  it("refuses a forged __tenant header on a host call", async () => {
    const res = await s.api("GET", "/api/Hosted/GetAllTenants", { token: a.token, tenant: b.tenantId });
    expect(res.status).toBe(403);
  });
});

describe("OpenTenantAccount", () => {
  it("creates the tenant and its main account in one call and answers the account summary", async () => {
    const tenantName = uniqueName("open");
    const res = await s.api("POST", "/api/Hosted/OpenTenantAccount", {
      token: admin,
      body: { tenantName, userName: "owner", pwd: "Owner1234", email: "owner@example.com", phoneNumber: "+52 555", remark: "新客户" },
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      userName: "owner",
      tenantName,
      email: "owner@example.com",
      phoneNumber: "+52 555",
      isMainAccount: true,
      isHost: false,
      isActive: true,
      subAccountCount: 0,
      balance: "0.00",
      accountExpireTime: null,
      meliAccountCount: 0,
    });
    expect(res.body.result.tenantId).toMatch(/^[0-9a-f-]{36}$/);
    const token = (await s.login("owner", "Owner1234", tenantName)).access_token;
    const me = await s.api("GET", "/api/User/GetMyInfo", { token });
    expect(me.body.result).toMatchObject({ id: res.body.result.id, tenantName, isMainAccount: true });
    const list = await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: { Search: tenantName } });
    expect(list.body.result.items[0]).toMatchObject({ tenantName, remark: "新客户", userName: "owner" });
  });

  it("stores the account expiry: an expired tenant cannot log in", async () => {
    const tenantName = uniqueName("exp");
    const res = await s.api("POST", "/api/Hosted/OpenTenantAccount", {
      token: admin,
      body: { tenantName, userName: "owner", pwd: "Owner1234", accountExpireTime: "2020-01-01T00:00:00Z" },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.accountExpireTime).toBe("2020-01-01T00:00:00.000Z");
    const login = await tryLogin("owner", "Owner1234", tenantName);
    expect(login.status).toBe(400);
    expect(login.body.error_description).toContain("过期");
  });

  it("refuses a taken tenant name (any case) with a 403 business error and creates nothing", async () => {
    const before = (await s.api("GET", "/api/Hosted/GetAllTenants", { token: admin })).body.result.length;
    const res = await s.api("POST", "/api/Hosted/OpenTenantAccount", {
      token: admin,
      body: { tenantName: a.tenantName.toUpperCase(), userName: "other", pwd: "Other1234" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain("已存在");
    expect((await s.api("GET", "/api/Hosted/GetAllTenants", { token: admin })).body.result.length).toBe(before);
  });

  it.each([
    [{ userName: "x1", pwd: "Passw0rd1" }, "The parameter tenantName cannot be null."],
    [{ tenantName: "okname1", pwd: "Passw0rd1" }, "The parameter userName cannot be null."],
    [{ tenantName: "okname1", userName: "x1" }, "The parameter pwd cannot be null."],
    [{ tenantName: "okname1", userName: "x1", pwd: "short" }, "pwd:"],
    [{ tenantName: "okname1", userName: "x1", pwd: "Passw0rd1", email: "not-an-email" }, "email:"],
    [{ tenantName: "okname1", userName: "x1", pwd: "Passw0rd1", accountExpireTime: "not a date" }, "accountExpireTime:"],
    [{ tenantName: "0b6c3f2e-9d7a-4c1e-8f00-123456789abc", userName: "x1", pwd: "Passw0rd1" }, "tenantName:"],
    [{ tenantName: "11111111", userName: "x1", pwd: "Passw0rd1" }, "tenantName:"],
    [{ tenantName: "a b/c", userName: "x1", pwd: "Passw0rd1" }, "tenantName:"],
    [{ tenantName: "x", userName: "x1", pwd: "Passw0rd1" }, "tenantName:"],
  ])("refuses bad input %j with 400", async (body, text) => {
    expect400(await s.api("POST", "/api/Hosted/OpenTenantAccount", { token: admin, body }), text);
  });

  it("refuses a missing body with 400", async () => {
    const res = await s.api("POST", "/api/Hosted/OpenTenantAccount", { token: admin });
    expect(res.status).toBe(400);
  });
});

describe("GetTenants", () => {
  it("answers the tenant with its main account and sub-account count", async () => {
    const res = await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: { Search: a.tenantName } });
    expect(res.status).toBe(200);
    expect(res.body.result.totalCount).toBe(1);
    const row = res.body.result.items[0];
    expect(row).toEqual({
      id: a.tenantId,
      tenantName: a.tenantName,
      remark: null,
      isActive: true,
      creationTime: expect.any(String),
      accountExpireTime: null,
      accountPaymentType: 1,
      balance: "0.00",
      userId: a.userId,
      userName: "boss",
      email: null,
      phoneNumber: null,
      lockoutEnd: null,
      subAccountCount: 2,
    });
    expect(new Date(row.creationTime).toISOString()).toBe(row.creationTime);
  });

  it("pages, counts and sorts", async () => {
    const all = await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: { MaxResultCount: 1000 } });
    const total = all.body.result.totalCount;
    expect(total).toBeGreaterThanOrEqual(2);
    expect(all.body.result.items.length).toBe(total);
    // Newest first by default.
    const times = all.body.result.items.map((r: any) => r.creationTime);
    expect([...times].sort().reverse()).toEqual(times);

    const page = await s.api("GET", "/api/Hosted/GetTenants", {
      token: admin,
      query: { SkipCount: 1, MaxResultCount: 1, Sorting: "tenantName asc" },
    });
    expect(page.body.result.totalCount).toBe(total);
    expect(page.body.result.items).toHaveLength(1);
    const byName = await s.api("GET", "/api/Hosted/GetTenants", {
      token: admin,
      query: { Sorting: "TenantName DESC", MaxResultCount: 1000 },
    });
    const names = byName.body.result.items.map((r: any) => r.tenantName.toUpperCase());
    expect([...names].sort().reverse()).toEqual(names);
    const asc = [...names].reverse();
    expect(page.body.result.items[0].tenantName.toUpperCase()).toBe(asc[1]);
  });

  it("filters by IsActive and searches the main account's fields, with LIKE wildcards taken literally", async () => {
    const inactive = await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: { IsActive: false } });
    expect(inactive.body.result).toEqual({ items: [], totalCount: 0 });
    const active = await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: { IsActive: "true", Search: b.tenantName } });
    expect(active.body.result.items.map((r: any) => r.id)).toEqual([b.tenantId]);
    const byUser = await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: { Search: "BOSS", MaxResultCount: 1000 } });
    expect(byUser.body.result.items.map((r: any) => r.id)).toEqual(expect.arrayContaining([a.tenantId, b.tenantId]));
    const wild = await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: { Search: "%" } });
    expect(wild.body.result.totalCount).toBe(0);
  });

  it.each([
    [{ Sorting: "passwordHash desc" }, "Sorting:"],
    [{ Sorting: "tenantName sideways" }, "Sorting:"],
    [{ MaxResultCount: 1001 }, "MaxResultCount:"],
    [{ MaxResultCount: 0 }, "MaxResultCount:"],
    [{ SkipCount: -1 }, "SkipCount:"],
    [{ SkipCount: "abc" }, "SkipCount:"],
    [{ IsActive: "maybe" }, "IsActive:"],
  ])("refuses %j with 400", async (query, text) => {
    expect400(await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: query as Record<string, string> }), text);
  });
});

describe("GetAllTenants and GetTenantNameBySearch", () => {
  it("lists every tenant as {id, name, isActive}", async () => {
    const res = await s.api("GET", "/api/Hosted/GetAllTenants", { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(
      expect.arrayContaining([
        { id: a.tenantId, name: a.tenantName, isActive: true },
        { id: b.tenantId, name: b.tenantName, isActive: true },
      ]),
    );
  });

  it("answers at most 20 matches, names starting with the text first", async () => {
    const prefix = uniqueName("zz");
    for (let i = 0; i < 22; i++) {
      const res = await s.api("POST", "/api/Hosted/OpenTenantAccount", {
        token: admin,
        body: { tenantName: `${prefix}${String(i).padStart(2, "0")}`, userName: "owner", pwd: "Owner1234" },
      });
      expect(res.status).toBe(200);
    }
    const contains = await s.api("POST", "/api/Hosted/OpenTenantAccount", {
      token: admin,
      body: { tenantName: `a${prefix}`, userName: "owner", pwd: "Owner1234" },
    });
    expect(contains.status).toBe(200);
    const res = await s.api("GET", "/api/Hosted/GetTenantNameBySearch", { token: admin, query: { search: prefix.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body.result).toHaveLength(20);
    expect(res.body.result[0]).toEqual({ id: expect.any(String), name: `${prefix}00` });
    expect(res.body.result.every((r: any) => r.name.startsWith(prefix))).toBe(true);
    const exact = await s.api("GET", "/api/Hosted/GetTenantNameBySearch", { token: admin, query: { Search: a.tenantName } });
    expect(exact.body.result).toEqual([{ id: a.tenantId, name: a.tenantName }]);
    const none = await s.api("GET", "/api/Hosted/GetTenantNameBySearch", { token: admin, query: { search: "_" } });
    expect(none.body.result).toEqual([]);
    const empty = await s.api("GET", "/api/Hosted/GetTenantNameBySearch", { token: admin });
    expect(empty.status).toBe(200);
    expect(empty.body.result.length).toBe(20);
  });
});

describe("EditRemark", () => {
  it("sets and clears a tenant's remark", async () => {
    const res = await s.api("PUT", "/api/Hosted/EditRemark", { token: admin, query: { id: b.tenantId.toUpperCase(), remark: "重要客户" } });
    expect(res.status).toBe(204);
    let row = (await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: { Search: b.tenantName } })).body.result.items[0];
    expect(row.remark).toBe("重要客户");
    expect((await s.api("PUT", "/api/Hosted/EditRemark", { token: admin, query: { id: b.tenantId, remark: "" } })).status).toBe(204);
    row = (await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: { Search: b.tenantName } })).body.result.items[0];
    expect(row.remark).toBeNull();
  });

  it("answers 404 for an unknown tenant and 400 for bad input", async () => {
    const res = await s.api("PUT", "/api/Hosted/EditRemark", { token: admin, query: { id: MISSING_GUID, remark: "x" } });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("公司未找到");
    expect400(await s.api("PUT", "/api/Hosted/EditRemark", { token: admin, query: { id: "not-a-guid", remark: "x" } }), "id:");
    expect400(await s.api("PUT", "/api/Hosted/EditRemark", { token: admin, query: { remark: "x" } }), "The parameter id cannot be null.");
    expect400(
      await s.api("PUT", "/api/Hosted/EditRemark", { token: admin, query: { id: b.tenantId } }),
      "The parameter remark cannot be null.",
    );
    expect400(
      await s.api("PUT", "/api/Hosted/EditRemark", { token: admin, query: { id: b.tenantId, remark: "x".repeat(501) } }),
      "remark:",
    );
  });
});

describe("UnLockTenant", () => {
  async function lockOut(userName: string, tenant: string) {
    for (let i = 0; i < 5; i++) await tryLogin(userName, "wrong-password-1", tenant);
  }

  it("clears the lockout of one user, leaving the others locked", async () => {
    await lockOut(aSub.userName, a.tenantName);
    await lockOut(aSub2.userName, a.tenantName);
    expect((await tryLogin(aSub.userName, aSub.password, a.tenantName)).body.error_description).toContain("锁定");
    const listed = (await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: { Search: a.tenantName } })).body.result.items[0];
    expect(listed.lockoutEnd).toBeNull(); // only sub-accounts are locked

    const res = await s.api("GET", "/api/Hosted/UnLockTenant", { token: admin, query: { tenantId: a.tenantId, userId: aSub.id } });
    expect(res.status).toBe(204);
    expect((await tryLogin(aSub.userName, aSub.password, a.tenantName)).status).toBe(200);
    expect((await tryLogin(aSub2.userName, aSub2.password, a.tenantName)).status).toBe(400);
  });

  it("without userId clears the lockout of every user of the tenant", async () => {
    await lockOut("boss", b.tenantName);
    const locked = (await s.api("GET", "/api/Hosted/GetTenants", { token: admin, query: { Search: b.tenantName } })).body.result.items[0];
    expect(new Date(locked.lockoutEnd).getTime()).toBeGreaterThan(Date.now());
    expect((await s.api("GET", "/api/Hosted/UnLockTenant", { token: admin, query: { TenantId: a.tenantId } })).status).toBe(204);
    expect((await tryLogin(aSub2.userName, aSub2.password, a.tenantName)).status).toBe(200);
    // Tenant B was not touched.
    expect((await tryLogin("boss", b.password, b.tenantName)).status).toBe(400);
    expect((await s.api("GET", "/api/Hosted/UnLockTenant", { token: admin, query: { tenantId: b.tenantId } })).status).toBe(204);
    expect((await tryLogin("boss", b.password, b.tenantName)).status).toBe(200);
  });

  it("answers 404 for an unknown tenant or a user of another tenant, 400 for bad input", async () => {
    expect((await s.api("GET", "/api/Hosted/UnLockTenant", { token: admin, query: { tenantId: MISSING_GUID } })).status).toBe(404);
    const other = await s.api("GET", "/api/Hosted/UnLockTenant", { token: admin, query: { tenantId: b.tenantId, userId: aSub.id } });
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe("用户不存在");
    expect400(await s.api("GET", "/api/Hosted/UnLockTenant", { token: admin }), "The parameter tenantId cannot be null.");
    expect400(await s.api("GET", "/api/Hosted/UnLockTenant", { token: admin, query: { tenantId: "123" } }), "tenantId:");
    expect((await s.api("POST", "/api/Hosted/UnLockTenant", { token: admin, query: { tenantId: a.tenantId } })).status).toBe(404);
  });
});

describe("ResetTenantPassword", () => {
  it("generates a password for the main account, ends its sessions and answers it once", async () => {
    const t = await s.createTenant(uniqueName("rp"));
    const res = await s.api("GET", "/api/Hosted/ResetTenantPassword", { token: admin, query: { TenantId: t.tenantId } });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ userName: "boss", password: expect.stringMatching(/^(?=.*[A-Za-z])(?=.*\d).{8,}$/) });
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: t.token })).status).toBe(401);
    expect((await tryLogin("boss", t.password, t.tenantName)).status).toBe(400);
    expect((await tryLogin("boss", res.body.result.password, t.tenantName)).status).toBe(200);
  });

  it("sets a given password on a chosen user and answers no password", async () => {
    const t = await s.createTenant(uniqueName("rp"));
    const sub = await s.createSubUser(t);
    const res = await s.api("GET", "/api/Hosted/ResetTenantPassword", {
      token: admin,
      query: { TenantId: t.tenantId, UserId: sub.id, Pwd: "NewPass123" },
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ userName: sub.userName, password: null });
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: sub.token })).status).toBe(401);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: t.token })).status).toBe(200);
    expect((await tryLogin(sub.userName, "NewPass123", t.tenantName)).status).toBe(200);
  });

  it("answers 404 for an unknown tenant or a user of another tenant, 400 for bad input", async () => {
    const unknown = await s.api("GET", "/api/Hosted/ResetTenantPassword", { token: admin, query: { TenantId: MISSING_GUID } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("公司未找到");
    expect(
      (await s.api("GET", "/api/Hosted/ResetTenantPassword", { token: admin, query: { TenantId: b.tenantId, UserId: a.userId } })).status,
    ).toBe(404);
    expect((await tryLogin("boss", a.password, a.tenantName)).status).toBe(200);
    expect400(await s.api("GET", "/api/Hosted/ResetTenantPassword", { token: admin }), "The parameter TenantId cannot be null.");
    expect400(await s.api("GET", "/api/Hosted/ResetTenantPassword", { token: admin, query: { TenantId: "x" } }), "TenantId:");
    expect400(
      await s.api("GET", "/api/Hosted/ResetTenantPassword", { token: admin, query: { TenantId: b.tenantId, UserId: "y" } }),
      "UserId:",
    );
    expect400(await s.api("GET", "/api/Hosted/ResetTenantPassword", { token: admin, query: { TenantId: b.tenantId, Pwd: "123" } }), "Pwd:");
  });
});

describe("GetTenantUserInfo", () => {
  it("answers the main account's summary", async () => {
    const res = await s.api("GET", "/api/Hosted/GetTenantUserInfo", { token: admin, query: { tenantId: a.tenantId } });
    expect(res.status).toBe(200);
    const mine = await s.api("GET", "/api/User/GetMyInfo", { token: (await s.login("boss", a.password, a.tenantName)).access_token });
    expect(res.body.result).toEqual(mine.body.result);
    expect(res.body.result).toMatchObject({
      id: a.userId,
      tenantId: a.tenantId,
      tenantName: a.tenantName,
      subAccountCount: 2,
      isMainAccount: true,
    });
  });

  it("answers 404 for an unknown tenant and 400 for bad input", async () => {
    const res = await s.api("GET", "/api/Hosted/GetTenantUserInfo", { token: admin, query: { TenantId: MISSING_GUID } });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("公司未找到");
    expect400(await s.api("GET", "/api/Hosted/GetTenantUserInfo", { token: admin }), "The parameter TenantId cannot be null.");
    expect400(
      await s.api("GET", "/api/Hosted/GetTenantUserInfo", { token: admin, query: { TenantId: "00000000-0000-0000-0000-00000000000g" } }),
      "TenantId:",
    );
  });
});
