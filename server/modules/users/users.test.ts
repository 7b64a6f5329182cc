import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, uniqueName, type ApiOptions, type ApiResponse, type TestServer, type TestTenant } from "../../testing/harness.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
});
afterAll(() => s?.close());

describe("GetMyInfo", () => {
  it("answers the caller's account summary inside {result}", async () => {
    const res = await s.api("GET", "/api/User/GetMyInfo", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      userName: "boss",
      tenantName: a.tenantName,
      tenantId: a.tenantId,
      isMainAccount: true,
      isHost: false,
      subAccountCount: 0,
    });
  });

  it("matches the path case-insensitively", async () => {
    const res = await s.api("GET", "/API/user/getmyinfo", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.result.id).toBe(a.userId);
  });

  it("refuses a call without a token with 401 in the error envelope", async () => {
    const res = await s.api("GET", "/api/User/GetMyInfo");
    expect(res.status).toBe(401);
    expect(res.headers["_aberrorformat"] ?? res.headers["_abperrorformat"]).toBe("true");
    expect(res.body.error.message).toBeTruthy();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Every User call (spec §7 User) through the real HTTP stack: what it answers, what it changes, and how bad input,
// the wrong caller and another tenant's ids are refused.

const MISSING_GUID = "0b6c3f2e-9d7a-4c1e-8f00-123456789abc";
type Sub = { id: string; userName: string; password: string; token: string };

function expect400(res: ApiResponse, text: string) {
  expect(res.status, res.raw).toBe(400);
  expect(res.body.error.code).toBe("Validation");
  expect(res.body.error.details).toContain(text);
}

/** The password grant's raw answer, for checks of a refused login. */
async function tryLogin(userName: string, password: string, tenant?: string) {
  const res = await s.app.inject({
    method: "POST",
    url: "/connect/token",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(tenant ? { __tenant: tenant } : {}) },
    payload: new URLSearchParams({ grant_type: "password", client_id: "Erp_App", scope: "Erp", username: userName, password }).toString(),
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

const subUsers = async (t: TestTenant, query: ApiOptions["query"] = {}) => s.api("GET", "/api/User/GetSubUsers", { token: t.token, query });
const byId = async (t: TestTenant, id: string) => s.api("GET", "/api/User/GetSubUserById", { token: t.token, query: { id } });

describe("GetUserInfo", () => {
  it("answers the main account with the super role and its tenant", async () => {
    const res = await s.api("GET", "/api/User/GetUserInfo", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      id: a.userId,
      userName: "boss",
      tenantId: a.tenantId,
      tenantName: a.tenantName,
      isMainAccount: true,
      isHost: false,
      roleList: ["super"],
      isShowPageCrwal: true,
    });
    expect(res.body.result).not.toHaveProperty("passwordHash");
    expect(res.body.result).not.toHaveProperty("securityStamp");
  });

  it("answers a sub-account as a non-main account of the same tenant", async () => {
    const sub = await s.createSubUser(a, undefined, { limitMeliAccount: 3, collectCount: 40, productCount: 500, isShowPageCrwal: false });
    const res = await s.api("GET", "/api/User/GetUserInfo", { token: sub.token });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      id: sub.id,
      userName: sub.userName,
      tenantId: a.tenantId,
      tenantName: a.tenantName,
      isMainAccount: false,
      isHost: false,
      roleList: ["sub"],
      isShowPageCrwal: false,
      limitMeliAccount: 3,
      collectCount: 40,
      productCount: 500,
    });
  });

  it("answers the host administrator with the host role and no tenant", async () => {
    const res = await s.api("GET", "/api/User/GetUserInfo", { token: await s.adminToken() });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ userName: "admin", tenantId: null, tenantName: null, isHost: true, roleList: ["host"] });
  });

  it("refuses no token (401) and a garbage token (401)", async () => {
    expect((await s.api("GET", "/api/User/GetUserInfo")).status).toBe(401);
    expect((await s.api("GET", "/api/User/GetUserInfo", { token: "not.a.jwt" })).status).toBe(401);
  });
});

describe("GetMyInfo (more)", () => {
  it("counts sub-accounts as they are created", async () => {
    const t = await s.createTenant();
    const count = async () => (await s.api("GET", "/api/User/GetMyInfo", { token: t.token })).body.result.subAccountCount;
    expect(await count()).toBe(0);
    await s.createSubUser(t);
    expect(await count()).toBe(1);
    await s.createSubUser(t);
    expect(await count()).toBe(2);
    // Another tenant's sub-accounts do not count here.
    await s.createSubUser(b);
    expect(await count()).toBe(2);
  });

  it("answers a sub-account's own summary with subAccountCount 0", async () => {
    const sub = await s.createSubUser(a);
    const res = await s.api("GET", "/api/User/GetMyInfo", { token: sub.token });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      id: sub.id,
      userName: sub.userName,
      isMainAccount: false,
      tenantId: a.tenantId,
      tenantName: a.tenantName,
      subAccountCount: 0,
    });
  });

  it("answers the host's summary with tenantId and tenantName null", async () => {
    const res = await s.api("GET", "/api/User/GetMyInfo", { token: await s.adminToken() });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      userName: "admin",
      tenantId: null,
      tenantName: null,
      isHost: true,
      subAccountCount: 0,
      balance: "0",
    });
  });
});

describe("GetUserInitCache", () => {
  it("gives the main account all of its tenant's users as {id, name}, a sub-account only itself, and empty lists", async () => {
    const t = await s.createTenant();
    const s1 = await s.createSubUser(t);
    const s2 = await s.createSubUser(t);
    await s.createSubUser(b);

    const main = await s.api("GET", "/api/User/GetUserInitCache", { token: t.token });
    expect(main.status).toBe(200);
    expect(main.body.result).toEqual({
      accs: [],
      groups: [],
      moduleAuths: [],
      subUsers: expect.any(Array),
    });
    const ids = main.body.result.subUsers.map((u: { id: string }) => u.id).sort();
    expect(ids).toEqual([t.userId, s1.id, s2.id].sort());
    expect(main.body.result.subUsers).toContainEqual({ id: s1.id, name: s1.userName });
    expect(main.body.result.subUsers).toContainEqual({ id: t.userId, name: "boss" });

    const sub = await s.api("GET", "/api/User/GetUserInitCache", { token: s1.token });
    expect(sub.status).toBe(200);
    expect(sub.body.result).toEqual({ accs: [], groups: [], moduleAuths: [], subUsers: [{ id: s1.id, name: s1.userName }] });
  });

  it("refuses a call without a token", async () => {
    expect((await s.api("GET", "/api/User/GetUserInitCache")).status).toBe(401);
  });
});

describe("GetSubUsers", () => {
  let t: TestTenant;
  let alpha: Sub;
  let bravo: Sub;
  let charlie: Sub;

  beforeAll(async () => {
    t = await s.createTenant();
    alpha = await s.createSubUser(t, "alpha_" + t.tenantName, { email: "alpha@example.com", phoneNumber: "+52 111 222", remark: "采集组" });
    bravo = await s.createSubUser(t, "bravo_" + t.tenantName, { email: "bravo@example.com", phoneNumber: "+52 333 444", remark: "上架组" });
    charlie = await s.createSubUser(t, "charlie_" + t.tenantName, { remark: "100%_done" });
    const off = await s.api("PUT", "/api/User/Enabled", { token: t.token, query: { userId: charlie.id, enable: false } });
    expect(off.status).toBe(204);
  });

  it("lists only the tenant's sub-accounts, never the main account, with totalCount", async () => {
    const res = await subUsers(t, { MaxResultCount: 100 });
    expect(res.status).toBe(200);
    expect(res.body.result.totalCount).toBe(3);
    const ids = res.body.result.items.map((u: { id: string }) => u.id);
    expect(ids.sort()).toEqual([alpha.id, bravo.id, charlie.id].sort());
    expect(ids).not.toContain(t.userId);
    expect(res.body.result.items.every((u: { isMainAccount: boolean }) => u.isMainAccount === false)).toBe(true);
    const row = res.body.result.items.find((u: { id: string }) => u.id === alpha.id);
    expect(row).toMatchObject({
      userName: alpha.userName,
      email: "alpha@example.com",
      phoneNumber: "+52 111 222",
      remark: "采集组",
      isActive: true,
      creatorId: t.userId,
    });
    expect(row.concurrencyStamp).toBeTruthy();
    expect(Date.parse(row.creationTime)).not.toBeNaN();
  });

  it("searches user name, email, phone and remark, case-insensitively and with % and _ taken literally", async () => {
    const names = async (Search: string) =>
      (await subUsers(t, { Search })).body.result.items.map((u: { userName: string }) => u.userName).sort();
    expect(await names("ALPHA_")).toEqual([alpha.userName]);
    expect(await names("bravo@example")).toEqual([bravo.userName]);
    expect(await names("333 4")).toEqual([bravo.userName]);
    expect(await names("采集")).toEqual([alpha.userName]);
    expect(await names("100%_")).toEqual([charlie.userName]);
    expect(await names("%")).toEqual([charlie.userName]);
    expect(await names("no-such-user")).toEqual([]);
    expect(await names("   ")).toHaveLength(3);
  });

  it("filters by IsActive", async () => {
    const active = await subUsers(t, { IsActive: true });
    expect(active.body.result.totalCount).toBe(2);
    expect(active.body.result.items.map((u: { id: string }) => u.id)).not.toContain(charlie.id);
    const inactive = await subUsers(t, { IsActive: "false" as never });
    expect(inactive.body.result).toMatchObject({ totalCount: 1, items: [{ id: charlie.id, isActive: false }] });
    expect400(await subUsers(t, { IsActive: "maybe" }), "IsActive");
  });

  it("pages with SkipCount and MaxResultCount without overlap", async () => {
    const p1 = await subUsers(t, { Sorting: "userName", SkipCount: 0, MaxResultCount: 2 });
    const p2 = await subUsers(t, { Sorting: "userName", SkipCount: 2, MaxResultCount: 2 });
    const p3 = await subUsers(t, { Sorting: "userName", SkipCount: 3, MaxResultCount: 2 });
    expect(p1.body.result.totalCount).toBe(3);
    expect(p1.body.result.items.map((u: { id: string }) => u.id)).toEqual([alpha.id, bravo.id]);
    expect(p2.body.result).toEqual({ totalCount: 3, items: [expect.objectContaining({ id: charlie.id })] });
    expect(p3.body.result).toEqual({ totalCount: 3, items: [] });
    // The default page is 10 and newest first.
    const def = await subUsers(t);
    expect(def.body.result.items.map((u: { id: string }) => u.id)).toEqual([charlie.id, bravo.id, alpha.id]);
  });

  it("sorts by whitelisted fields with asc/desc in any case", async () => {
    const order = async (Sorting: string) => (await subUsers(t, { Sorting })).body.result.items.map((u: { id: string }) => u.id);
    expect(await order("userName desc")).toEqual([charlie.id, bravo.id, alpha.id]);
    expect(await order("userName asc")).toEqual([alpha.id, bravo.id, charlie.id]);
    expect(await order("USERNAME DESC")).toEqual([charlie.id, bravo.id, alpha.id]);
    expect(await order("creationTime")).toEqual([alpha.id, bravo.id, charlie.id]);
    expect((await subUsers(t, { Sorting: "isActive" })).body.result.items[0].id).toBe(charlie.id);
    expect((await subUsers(t, { Sorting: "email desc" })).status).toBe(200);
  });

  it("refuses a Sorting outside the whitelist (no SQL reaches the database)", async () => {
    for (const Sorting of ["passwordHash", "userName; drop table users", "userName sideways", "id desc"]) {
      expect400(await subUsers(t, { Sorting }), "Sorting");
    }
    expect((await subUsers(t)).body.result.totalCount).toBe(3);
  });

  it("refuses MaxResultCount 0 or 1001 and a negative SkipCount, and accepts 1000", async () => {
    expect400(await subUsers(t, { MaxResultCount: 0 }), "MaxResultCount");
    expect400(await subUsers(t, { MaxResultCount: 1001 }), "MaxResultCount");
    expect400(await subUsers(t, { MaxResultCount: "ten" }), "MaxResultCount");
    expect400(await subUsers(t, { SkipCount: -1 }), "SkipCount");
    expect((await subUsers(t, { MaxResultCount: 1000 })).status).toBe(200);
  });

  it("reads query names case-insensitively", async () => {
    const res = await subUsers(t, { maxresultcount: 1, skipcount: 1, sorting: "username desc", isactive: "true" });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ totalCount: 2, items: [expect.objectContaining({ id: alpha.id })] });
    const search = await subUsers(t, { SEARCH: "bravo" });
    expect(search.body.result.items.map((u: { id: string }) => u.id)).toEqual([bravo.id]);
    expect400(await subUsers(t, { maxresultcount: 0 }), "MaxResultCount");
  });

  it("is refused to a sub-account (403), the host (403) and without a token (401)", async () => {
    const res = await s.api("GET", "/api/User/GetSubUsers", { token: alpha.token });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe("仅主账号可以执行此操作");
    expect((await s.api("GET", "/api/User/GetSubUsers", { token: await s.adminToken() })).status).toBe(403);
    expect((await s.api("GET", "/api/User/GetSubUsers")).status).toBe(401);
  });

  it("shows another tenant none of these rows", async () => {
    const other = await s.createTenant();
    expect((await subUsers(other, { MaxResultCount: 1000 })).body.result).toEqual({ items: [], totalCount: 0 });
    expect((await subUsers(other, { Search: "alpha" })).body.result.totalCount).toBe(0);
  });
});

describe("GetSubUserById", () => {
  it("answers a sub-account of the caller's tenant", async () => {
    const sub = await s.createSubUser(a, undefined, { email: uniqueName("byid") + "@example.com", remark: "备注" });
    const res = await byId(a, sub.id);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: sub.id, userName: sub.userName, remark: "备注", isActive: true, isMainAccount: false });
    // A GUID in upper case names the same user.
    expect((await byId(a, sub.id.toUpperCase())).body.result.id).toBe(sub.id);
  });

  it("answers 404 for an unknown id and another tenant's user", async () => {
    const res = await byId(a, MISSING_GUID);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBeTruthy();
    const subB = await s.createSubUser(b);
    expect((await byId(a, subB.id)).status).toBe(404);
    expect((await byId(a, b.userId)).status).toBe(404);
  });

  it("answers 400 for a bad GUID and for a missing id", async () => {
    expect400(await byId(a, "not-a-guid"), "id");
    expect400(await byId(a, MISSING_GUID + "0"), "id");
    const missing = await s.api("GET", "/api/User/GetSubUserById", { token: a.token });
    expect400(missing, "The parameter id cannot be null.");
    expect(missing.body.error.validationErrors).toContainEqual(
      expect.objectContaining({ message: "The parameter id cannot be null.", members: ["id"] }),
    );
  });

  it("is refused to a sub-account", async () => {
    const sub = await s.createSubUser(a);
    expect((await byId({ ...a, token: sub.token }, sub.id)).status).toBe(403);
  });
});

describe("GetSubUserStaticInfo", () => {
  it("answers one row per user of the tenant, and one row for a UserId", async () => {
    const t = await s.createTenant();
    const s1 = await s.createSubUser(t);
    const s2 = await s.createSubUser(t);
    const all = await s.api("GET", "/api/User/GetSubUserStaticInfo", { token: t.token });
    expect(all.status).toBe(200);
    expect(all.body.result).toHaveLength(3);
    expect(all.body.result.map((r: { userId: string }) => r.userId).sort()).toEqual([t.userId, s1.id, s2.id].sort());
    expect(all.body.result).toContainEqual({ userId: s2.id, userName: s2.userName, productCount: 0, totalAmount: "0" });

    const one = await s.api("GET", "/api/User/GetSubUserStaticInfo", {
      token: t.token,
      query: { UserId: s1.id, StartDate: "2024-01-01", EndDate: new Date().toISOString() },
    });
    expect(one.status).toBe(200);
    expect(one.body.result).toEqual([{ userId: s1.id, userName: s1.userName, productCount: 0, totalAmount: "0" }]);
    // Query names case-insensitively; another tenant's user id gives no row.
    const lower = await s.api("GET", "/api/User/GetSubUserStaticInfo", { token: t.token, query: { userid: s2.id } });
    expect(lower.body.result.map((r: { userId: string }) => r.userId)).toEqual([s2.id]);
    const foreign = await s.api("GET", "/api/User/GetSubUserStaticInfo", { token: t.token, query: { UserId: b.userId } });
    expect(foreign.body.result).toEqual([]);
  });

  it("refuses a bad UserId or date (400) and a sub-account caller (403)", async () => {
    expect400(await s.api("GET", "/api/User/GetSubUserStaticInfo", { token: a.token, query: { UserId: "x" } }), "UserId");
    expect400(await s.api("GET", "/api/User/GetSubUserStaticInfo", { token: a.token, query: { StartDate: "yesterday" } }), "StartDate");
    const sub = await s.createSubUser(a);
    expect((await s.api("GET", "/api/User/GetSubUserStaticInfo", { token: sub.token })).status).toBe(403);
  });
});

describe("CreateSubUser", () => {
  it("stores every field, answers the new row, and the sub-account can log in", async () => {
    const t = await s.createTenant();
    const body = {
      userName: "  " + uniqueName("new") + "  ",
      pwd: "Abc12345",
      email: "New.User@Example.com",
      phoneNumber: "+86 138 0000",
      remark: "新员工",
      limitMeliAccount: 2,
      collectCount: 10,
      productCount: 0,
      isShowPageCrwal: false,
    };
    const res = await s.api("POST", "/api/User/CreateSubUser", { token: t.token, body });
    expect(res.status, res.raw).toBe(200);
    const userName = body.userName.trim();
    expect(res.body.result).toMatchObject({
      userName,
      email: "New.User@Example.com",
      phoneNumber: "+86 138 0000",
      remark: "新员工",
      limitMeliAccount: 2,
      collectCount: 10,
      productCount: 0,
      isShowPageCrwal: false,
      isActive: true,
      isMainAccount: false,
      creatorId: t.userId,
    });
    expect(res.body.result).not.toHaveProperty("pwd");
    expect(res.raw).not.toContain("Abc12345");
    const stored = await byId(t, res.body.result.id);
    expect(stored.body.result).toEqual(res.body.result);

    const login = await s.login(userName, "Abc12345", t.tenantName);
    const me = await s.api("GET", "/api/User/GetUserInfo", { token: login.access_token });
    expect(me.body.result).toMatchObject({ id: res.body.result.id, isMainAccount: false, tenantId: t.tenantId });
    // The email works as a login name too, in any case.
    expect((await tryLogin("new.user@example.com", "Abc12345", t.tenantName)).status).toBe(200);
  });

  it("leaves the optional fields empty and shows the page crawl by default", async () => {
    const res = await s.api("POST", "/api/User/CreateSubUser", { token: a.token, body: { userName: uniqueName("min"), pwd: "Abc12345" } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      email: null,
      phoneNumber: null,
      remark: null,
      limitMeliAccount: null,
      collectCount: null,
      productCount: null,
      isShowPageCrwal: true,
    });
  });

  it("refuses a user name taken in the same tenant (any case) with a 403 business error; another tenant may use it", async () => {
    const name = uniqueName("dup");
    const first = await s.api("POST", "/api/User/CreateSubUser", { token: a.token, body: { userName: name, pwd: "Abc12345" } });
    expect(first.status).toBe(200);
    const again = await s.api("POST", "/api/User/CreateSubUser", {
      token: a.token,
      body: { userName: name.toUpperCase(), pwd: "Xyz12345" },
    });
    expect(again.status).toBe(403);
    expect(again.body.error.message).toContain(name.toUpperCase());
    expect(again.body.error.code).toBe("DuplicateUserName");
    // The main account's own name is taken too.
    expect((await s.api("POST", "/api/User/CreateSubUser", { token: a.token, body: { userName: "BOSS", pwd: "Abc12345" } })).status).toBe(
      403,
    );
    // The first password still logs in: the refused call changed nothing.
    expect((await tryLogin(name, "Abc12345", a.tenantName)).status).toBe(200);
    expect((await tryLogin(name, "Xyz12345", a.tenantName)).status).toBe(400);

    const inB = await s.api("POST", "/api/User/CreateSubUser", { token: b.token, body: { userName: name, pwd: "Xyz12345" } });
    expect(inB.status).toBe(200);
    expect((await tryLogin(name, "Xyz12345", b.tenantName)).status).toBe(200);
  });

  it("refuses an email taken in the same tenant with a 403 business error", async () => {
    const mail = uniqueName("m") + "@example.com";
    expect(
      (
        await s.api("POST", "/api/User/CreateSubUser", {
          token: a.token,
          body: { userName: uniqueName("e1"), pwd: "Abc12345", email: mail },
        })
      ).status,
    ).toBe(200);
    const again = await s.api("POST", "/api/User/CreateSubUser", {
      token: a.token,
      body: { userName: uniqueName("e2"), pwd: "Abc12345", email: mail.toUpperCase() },
    });
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe("DuplicateEmail");
  });

  it("refuses weak passwords with 400 naming the rule", async () => {
    for (const [pwd, rule] of [
      ["Ab1", "密码至少6位"],
      ["abcdefgh", "密码需包含数字"],
      ["12345678", "密码需包含字母"],
      ["a1".repeat(65), "密码最多128位"],
    ]) {
      const res = await s.api("POST", "/api/User/CreateSubUser", { token: a.token, body: { userName: uniqueName("weak"), pwd } });
      expect400(res, rule);
      expect(res.body.error.validationErrors[0].members).toEqual(["pwd"]);
    }
  });

  it("refuses missing and malformed fields with 400 naming them, and creates nothing", async () => {
    const before = (await subUsers(a, { MaxResultCount: 1000 })).body.result.totalCount;
    const missingName = await s.api("POST", "/api/User/CreateSubUser", { token: a.token, body: { pwd: "Abc12345" } });
    expect400(missingName, "The parameter userName cannot be null.");
    expect(missingName.body.error.validationErrors).toContainEqual(
      expect.objectContaining({ message: "The parameter userName cannot be null.", members: ["userName"] }),
    );
    expect400(
      await s.api("POST", "/api/User/CreateSubUser", { token: a.token, body: { userName: uniqueName("np") } }),
      "The parameter pwd cannot be null.",
    );
    expect400(await s.api("POST", "/api/User/CreateSubUser", { token: a.token, body: { userName: "a b", pwd: "Abc12345" } }), "userName");
    expect400(await s.api("POST", "/api/User/CreateSubUser", { token: a.token, body: { userName: "x", pwd: "Abc12345" } }), "userName");
    expect400(
      await s.api("POST", "/api/User/CreateSubUser", {
        token: a.token,
        body: { userName: uniqueName("m"), pwd: "Abc12345", email: "not-an-email" },
      }),
      "email",
    );
    expect400(
      await s.api("POST", "/api/User/CreateSubUser", {
        token: a.token,
        body: { userName: uniqueName("p"), pwd: "Abc12345", phoneNumber: "call me" },
      }),
      "phoneNumber",
    );
    expect400(
      await s.api("POST", "/api/User/CreateSubUser", {
        token: a.token,
        body: { userName: uniqueName("l"), pwd: "Abc12345", limitMeliAccount: -1 },
      }),
      "limitMeliAccount",
    );
    expect400(
      await s.api("POST", "/api/User/CreateSubUser", {
        token: a.token,
        body: { userName: uniqueName("l"), pwd: "Abc12345", collectCount: 1.5 },
      }),
      "collectCount",
    );
    expect400(
      await s.api("POST", "/api/User/CreateSubUser", {
        token: a.token,
        body: { userName: uniqueName("r"), pwd: "Abc12345", remark: "x".repeat(501) },
      }),
      "remark",
    );
    expect(
      (await s.api("POST", "/api/User/CreateSubUser", { token: a.token, body: "[]", headers: { "content-type": "application/json" } }))
        .status,
    ).toBe(400);
    expect(
      (
        await s.api("POST", "/api/User/CreateSubUser", {
          token: a.token,
          body: "{bad json",
          headers: { "content-type": "application/json" },
        })
      ).status,
    ).toBe(400);
    const text = await s.api("POST", "/api/User/CreateSubUser", {
      token: a.token,
      body: "userName=x",
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect((await subUsers(a, { MaxResultCount: 1000 })).body.result.totalCount).toBe(before);
  });

  it("is refused to a sub-account (403) and to the host (403)", async () => {
    const sub = await s.createSubUser(a);
    const name = uniqueName("bysub");
    const res = await s.api("POST", "/api/User/CreateSubUser", { token: sub.token, body: { userName: name, pwd: "Abc12345" } });
    expect(res.status).toBe(403);
    expect(
      (await s.api("POST", "/api/User/CreateSubUser", { token: await s.adminToken(), body: { userName: name, pwd: "Abc12345" } })).status,
    ).toBe(403);
    expect((await subUsers(a, { Search: name })).body.result.totalCount).toBe(0);
  });
});

describe("UpdateUser", () => {
  it("changes limits, email, phone, remark and isShowPageCrwal, and a new concurrencyStamp", async () => {
    const sub = await s.createSubUser(a, undefined, { remark: "旧", limitMeliAccount: 1 });
    const before = (await byId(a, sub.id)).body.result;
    const mail = uniqueName("upd") + "@example.com";
    const res = await s.api("POST", "/api/User/UpdateUser", {
      token: a.token,
      body: {
        id: sub.id,
        email: mail,
        phoneNumber: "123",
        remark: "新",
        limitMeliAccount: 5,
        collectCount: 6,
        productCount: 7,
        isShowPageCrwal: false,
        concurrencyStamp: before.concurrencyStamp,
      },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({
      id: sub.id,
      userName: sub.userName,
      email: mail,
      phoneNumber: "123",
      remark: "新",
      limitMeliAccount: 5,
      collectCount: 6,
      productCount: 7,
      isShowPageCrwal: false,
    });
    expect(res.body.result.concurrencyStamp).not.toBe(before.concurrencyStamp);
    expect((await byId(a, sub.id)).body.result).toEqual(res.body.result);
    // The sub-account sees its new limits; its session survives an edit of its profile.
    const info = await s.api("GET", "/api/User/GetUserInfo", { token: sub.token });
    expect(info.body.result).toMatchObject({ email: mail, limitMeliAccount: 5, collectCount: 6, productCount: 7, isShowPageCrwal: false });
  });

  it("leaves fields not sent unchanged and clears fields sent as null", async () => {
    const sub = await s.createSubUser(a, undefined, { remark: "保留", collectCount: 9, email: uniqueName("k") + "@example.com" });
    const partial = await s.api("POST", "/api/User/UpdateUser", { token: a.token, body: { id: sub.id, productCount: 3 } });
    expect(partial.status).toBe(200);
    expect(partial.body.result).toMatchObject({ remark: "保留", collectCount: 9, productCount: 3 });
    const cleared = await s.api("POST", "/api/User/UpdateUser", {
      token: a.token,
      body: { id: sub.id, remark: null, collectCount: null, email: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.result).toMatchObject({ remark: null, collectCount: null, email: null, productCount: 3 });
  });

  it("answers 409 for a stale concurrencyStamp and changes nothing", async () => {
    const sub = await s.createSubUser(a, undefined, { remark: "v1" });
    const stamp = (await byId(a, sub.id)).body.result.concurrencyStamp;
    expect(
      (await s.api("POST", "/api/User/UpdateUser", { token: a.token, body: { id: sub.id, remark: "v2", concurrencyStamp: stamp } })).status,
    ).toBe(200);
    const after = (await byId(a, sub.id)).body.result;
    const stale = await s.api("POST", "/api/User/UpdateUser", {
      token: a.token,
      body: { id: sub.id, remark: "v3", limitMeliAccount: 9, concurrencyStamp: stamp },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("Concurrency");
    expect((await byId(a, sub.id)).body.result).toEqual(after);
    expect(after.remark).toBe("v2");
  });

  it("refuses an email another user of the tenant has (403) and changes nothing; another tenant's email is fine", async () => {
    const mail = uniqueName("taken") + "@example.com";
    const owner = await s.createSubUser(a, undefined, { email: mail });
    const sub = await s.createSubUser(a, undefined, { remark: "x" });
    const res = await s.api("POST", "/api/User/UpdateUser", {
      token: a.token,
      body: { id: sub.id, email: mail.toUpperCase(), remark: "y" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("DuplicateEmail");
    expect((await byId(a, sub.id)).body.result).toMatchObject({ email: null, remark: "x" });
    // Re-sending a user's own email is no conflict.
    expect((await s.api("POST", "/api/User/UpdateUser", { token: a.token, body: { id: owner.id, email: mail } })).status).toBe(200);
    const subB = await s.createSubUser(b);
    expect((await s.api("POST", "/api/User/UpdateUser", { token: b.token, body: { id: subB.id, email: mail } })).status).toBe(200);
  });

  it("answers 404 for another tenant's user id and an unknown id, and leaves that user unchanged", async () => {
    const subB = await s.createSubUser(b, undefined, { remark: "B的" });
    const res = await s.api("POST", "/api/User/UpdateUser", {
      token: a.token,
      body: { id: subB.id, remark: "hacked", limitMeliAccount: 99 },
    });
    expect(res.status).toBe(404);
    expect((await s.api("POST", "/api/User/UpdateUser", { token: a.token, body: { id: b.userId, remark: "hacked" } })).status).toBe(404);
    expect((await s.api("POST", "/api/User/UpdateUser", { token: a.token, body: { id: MISSING_GUID, remark: "x" } })).status).toBe(404);
    expect((await byId(b, subB.id)).body.result).toMatchObject({ remark: "B的", limitMeliAccount: null });
  });

  it("refuses bad input (400) and a sub-account caller (403)", async () => {
    const sub = await s.createSubUser(a);
    expect400(await s.api("POST", "/api/User/UpdateUser", { token: a.token, body: { remark: "x" } }), "The parameter id cannot be null.");
    expect400(await s.api("POST", "/api/User/UpdateUser", { token: a.token, body: { id: "1", remark: "x" } }), "id");
    expect400(await s.api("POST", "/api/User/UpdateUser", { token: a.token, body: { id: sub.id, email: "nope" } }), "email");
    expect400(await s.api("POST", "/api/User/UpdateUser", { token: a.token, body: { id: sub.id, productCount: "many" } }), "productCount");
    expect400(
      await s.api("POST", "/api/User/UpdateUser", { token: a.token, body: { id: sub.id, isShowPageCrwal: "yes" } }),
      "isShowPageCrwal",
    );
    const bySub = await s.api("POST", "/api/User/UpdateUser", { token: sub.token, body: { id: sub.id, limitMeliAccount: 1000 } });
    expect(bySub.status).toBe(403);
    expect((await byId(a, sub.id)).body.result.limitMeliAccount).toBeNull();
  });
});

describe("ChangePwd", () => {
  it("refuses a wrong oldPwd with 403 and keeps the password and the session", async () => {
    const sub = await s.createSubUser(a);
    const res = await s.api("POST", "/api/User/ChangePwd", { token: sub.token, body: { oldPwd: "Wrong1234", newPwd: "Fresh1234" } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe("原密码不正确");
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: sub.token })).status).toBe(200);
    expect((await tryLogin(sub.userName, sub.password, a.tenantName)).status).toBe(200);
    expect((await tryLogin(sub.userName, "Fresh1234", a.tenantName)).status).toBe(400);
  });

  it("changes the password: the old token is a 401, the new password logs in and the old one is refused", async () => {
    const sub = await s.createSubUser(a);
    const res = await s.api("POST", "/api/User/ChangePwd", { token: sub.token, body: { oldPwd: sub.password, newPwd: "Fresh1234" } });
    expect(res.status, res.raw).toBe(204);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: sub.token })).status).toBe(401);
    const fresh = await s.login(sub.userName, "Fresh1234", a.tenantName);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: fresh.access_token })).body.result.id).toBe(sub.id);
    const old = await tryLogin(sub.userName, sub.password, a.tenantName);
    expect(old).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("works for the main account too, ending its other sessions", async () => {
    const t = await s.createTenant();
    const second = (await s.login("boss", t.password, t.tenantName)).access_token;
    const res = await s.api("POST", "/api/User/ChangePwd", { token: t.token, body: { oldPwd: t.password, newPwd: "Boss98765" } });
    expect(res.status).toBe(204);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: second })).status).toBe(401);
    expect((await s.login("boss", "Boss98765", t.tenantName)).access_token).toBeTruthy();
  });

  it("refuses a weak or unchanged new password and missing fields with 400", async () => {
    const sub = await s.createSubUser(a);
    expect400(await s.api("POST", "/api/User/ChangePwd", { token: sub.token, body: { oldPwd: sub.password, newPwd: "short" } }), "newPwd");
    expect400(
      await s.api("POST", "/api/User/ChangePwd", { token: sub.token, body: { newPwd: "Fresh1234" } }),
      "The parameter oldPwd cannot be null.",
    );
    expect400(
      await s.api("POST", "/api/User/ChangePwd", { token: sub.token, body: { oldPwd: sub.password } }),
      "The parameter newPwd cannot be null.",
    );
    const same = await s.api("POST", "/api/User/ChangePwd", { token: sub.token, body: { oldPwd: sub.password, newPwd: sub.password } });
    expect(same.status).toBe(400);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: sub.token })).status).toBe(200);
    expect((await s.api("POST", "/api/User/ChangePwd", { body: { oldPwd: sub.password, newPwd: "Fresh1234" } })).status).toBe(401);
  });
});

describe("GetResetPwdToken and ResetPwd", () => {
  const getToken = async (t: TestTenant, userId: string) =>
    s.api("GET", "/api/User/GetResetPwdToken", { token: t.token, query: { userId } });
  const reset = async (t: TestTenant, token: string, newPwd: string) =>
    s.api("POST", "/api/User/ResetPwd", { token: t.token, body: { token, newPwd } });

  it("lets the main account set a sub-account's password with a single-use token", async () => {
    const sub = await s.createSubUser(a);
    const got = await getToken(a, sub.id);
    expect(got.status).toBe(200);
    expect(got.body.result.token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]+$/);
    const expires = Date.parse(got.body.result.expireTime);
    expect(expires).toBeGreaterThan(Date.now());
    expect(expires).toBeLessThan(Date.now() + 24 * 3600_000);

    const res = await reset(a, got.body.result.token, "Reset1234");
    expect(res.status, res.raw).toBe(204);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: sub.token })).status).toBe(401);
    expect((await tryLogin(sub.userName, sub.password, a.tenantName)).status).toBe(400);
    expect((await tryLogin(sub.userName, "Reset1234", a.tenantName)).status).toBe(200);

    const twice = await reset(a, got.body.result.token, "Again1234");
    expect(twice.status).toBe(403);
    expect(twice.body.error.code).toBe("InvalidResetToken");
    expect((await tryLogin(sub.userName, "Again1234", a.tenantName)).status).toBe(400);
    expect((await tryLogin(sub.userName, "Reset1234", a.tenantName)).status).toBe(200);
  });

  it("lets only one of several concurrent resets with one token win", async () => {
    const sub = await s.createSubUser(a);
    const got: string = (await getToken(a, sub.id)).body.result.token;
    const pwds = ["Race1111a", "Race2222b", "Race3333c", "Race4444d"];
    const results = await Promise.all(pwds.map((p) => reset(a, got, p)));
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((x) => x === 204),
      JSON.stringify(statuses),
    ).toHaveLength(1);
    expect(statuses.filter((x) => x === 403 || x === 409)).toHaveLength(pwds.length - 1);
    const winner = pwds[statuses.indexOf(204)];
    for (const p of pwds) expect((await tryLogin(sub.userName, p, a.tenantName)).status).toBe(p === winner ? 200 : 400);
  });

  it("refuses a token used by another tenant's main account and leaves the password", async () => {
    const sub = await s.createSubUser(a);
    const got = await getToken(a, sub.id);
    const res = await reset(b, got.body.result.token, "Stolen1234");
    expect(res.status).toBe(403);
    expect((await tryLogin(sub.userName, sub.password, a.tenantName)).status).toBe(200);
    // The refusal did not use the token up.
    expect((await reset(a, got.body.result.token, "Owner1234")).status).toBe(204);
  });

  it("refuses garbage and tampered tokens with 400/403, never 500", async () => {
    const sub = await s.createSubUser(a);
    const good: string = (await getToken(a, sub.id)).body.result.token;
    const [codeId, secret] = good.split(".");
    const garbage = [
      "garbage-garbage",
      "x".repeat(2000),
      `${codeId}.${secret}x`,
      `${codeId}.`,
      `${MISSING_GUID}.${secret}`,
      `${"-".repeat(36)}.${secret}`,
      `${"f".repeat(36)}.${secret}`,
      `${codeId.toUpperCase()}.${secret}`,
      `${codeId}.${secret}.extra`,
      "'; drop table users; --",
    ];
    for (const token of garbage) {
      const res = await reset(a, token, "Garbage1234");
      expect([400, 403], `${token}: ${res.raw}`).toContain(res.status);
    }
    expect400(await reset(a, "short", "Garbage1234"), "token");
    expect400(await reset(a, "x".repeat(2001), "Garbage1234"), "token");
    expect400(
      await s.api("POST", "/api/User/ResetPwd", { token: a.token, body: { newPwd: "Garbage1234" } }),
      "The parameter token cannot be null.",
    );
    expect400(await reset(a, good, "weak"), "newPwd");
    expect((await tryLogin(sub.userName, sub.password, a.tenantName)).status).toBe(200);
    // None of this used the real token up.
    expect((await reset(a, good, "Finally1234")).status).toBe(204);
  });

  it("GetResetPwdToken answers 404 for another tenant's user and an unknown id, 400 for a bad id, 403 to a sub-account", async () => {
    const subB = await s.createSubUser(b);
    expect((await getToken(a, subB.id)).status).toBe(404);
    expect((await getToken(a, MISSING_GUID)).status).toBe(404);
    expect400(await getToken(a, "nope"), "userId");
    expect400(await s.api("GET", "/api/User/GetResetPwdToken", { token: a.token }), "The parameter userId cannot be null.");
    const sub = await s.createSubUser(a);
    expect((await s.api("GET", "/api/User/GetResetPwdToken", { token: sub.token, query: { userId: sub.id } })).status).toBe(403);
    expect(
      (await s.api("POST", "/api/User/ResetPwd", { token: sub.token, body: { token: "x".repeat(20), newPwd: "Abc12345" } })).status,
    ).toBe(403);
  });

  it("gives no reset token for the main account itself (ChangePwd, with the old password, is the way)", async () => {
    const t = await s.createTenant();
    const res = await getToken(t, t.userId);
    expect(res.status).toBe(403);
    expect((await tryLogin("boss", t.password, t.tenantName)).status).toBe(200);
  });
});

describe("Enabled", () => {
  const enabled = async (t: TestTenant, userId: string, enable: unknown) =>
    s.api("PUT", "/api/User/Enabled", { token: t.token, query: { userId, enable: enable as string } });

  it("disabling ends the sub-account's token and its logins; enabling lets it log in again", async () => {
    const sub = await s.createSubUser(a);
    const off = await enabled(a, sub.id, false);
    expect(off.status, off.raw).toBe(204);
    expect((await byId(a, sub.id)).body.result.isActive).toBe(false);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: sub.token })).status).toBe(401);
    const refused = await tryLogin(sub.userName, sub.password, a.tenantName);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("invalid_grant");
    expect(refused.body.error_description).toContain("禁用");
    // A wrong password for a disabled user says nothing about the account state.
    const wrong = await tryLogin(sub.userName, "Wrong1234", a.tenantName);
    expect(wrong.body).toEqual({ error: "invalid_grant", error_description: "用户名或密码错误" });

    const on = await enabled(a, sub.id, "TRUE");
    expect(on.status).toBe(204);
    expect((await byId(a, sub.id)).body.result.isActive).toBe(true);
    const back = await s.login(sub.userName, sub.password, a.tenantName);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: back.access_token })).status).toBe(200);
    // The old token stays ended.
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: sub.token })).status).toBe(401);
    // 1/0 are booleans too.
    expect((await enabled(a, sub.id, 0)).status).toBe(204);
    expect((await byId(a, sub.id)).body.result.isActive).toBe(false);
    expect((await enabled(a, sub.id, 1)).status).toBe(204);
  });

  it("refuses to disable the main account (403) and it keeps working", async () => {
    const res = await enabled(a, a.userId, false);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBeTruthy();
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: a.token })).status).toBe(200);
  });

  it("refuses bad input with 400, another tenant's user with 404, a sub-account caller with 403", async () => {
    const sub = await s.createSubUser(a);
    expect400(await enabled(a, sub.id, "maybe"), "enable");
    expect400(
      await s.api("PUT", "/api/User/Enabled", { token: a.token, query: { userId: sub.id } }),
      "The parameter enable cannot be null.",
    );
    expect400(
      await s.api("PUT", "/api/User/Enabled", { token: a.token, query: { enable: "false" } }),
      "The parameter userId cannot be null.",
    );
    expect400(await enabled(a, "abc", false), "userId");
    const subB = await s.createSubUser(b);
    expect((await enabled(a, subB.id, false)).status).toBe(404);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: subB.token })).status).toBe(200);
    const other = await s.createSubUser(a);
    expect((await enabled({ ...a, token: sub.token }, other.id, false)).status).toBe(403);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: other.token })).status).toBe(200);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: sub.token })).status).toBe(200);
  });
});

describe("ClearSubAccountInfo (answers only; the job run is in clear-sub-account.test.ts)", () => {
  it("answers {taskId} for a sub-account, 404 for an unknown id, 403 for the main account", async () => {
    const t = await s.createTenant();
    const sub = await s.createSubUser(t);
    const res = await s.api("POST", "/api/User/ClearSubAccountInfo", { token: t.token, query: { id: sub.id } });
    expect(res.status, res.raw).toBe(200);
    expect(Object.keys(res.body.result)).toEqual(["taskId"]);
    expect(res.body.result.taskId).toMatch(/^[0-9a-f-]{36}$/);
    const unknown = await s.api("POST", "/api/User/ClearSubAccountInfo", { token: t.token, query: { id: MISSING_GUID } });
    expect(unknown.status).toBe(404);
    const main = await s.api("POST", "/api/User/ClearSubAccountInfo", { token: t.token, query: { id: t.userId } });
    expect(main.status).toBe(403);
    expect(main.body.error.message).toBeTruthy();
    expect400(await s.api("POST", "/api/User/ClearSubAccountInfo", { token: t.token, query: { id: "nope" } }), "id");
  });
});
