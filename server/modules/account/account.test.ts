import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settings, tenants, users } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { SettingKeys } from "../../db/settings.ts";
import { LoginResultType } from "#shared/contract/enums.ts";
import { ADMIN_PASSWORD, startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
  // Self-registration is off unless the host switches it on (issue 29); these tests register.
  await setSelfRegistration("true");
});
afterAll(() => s?.close());

const validation = (res: { body: any }) => res.body.error.validationErrors as { message: string; members: string[] }[];

async function setSelfRegistration(value: string | null) {
  await inScope(s.database.db, hostAllScope, async (tx) => {
    await tx.delete(settings).where(eq(settings.key, SettingKeys.selfRegistrationEnabled));
    if (value !== null) {
      await tx.insert(settings).values({ id: randomUUID(), name: "自助注册", key: SettingKeys.selfRegistrationEnabled, value });
    }
  });
}

describe("POST /api/account/register", () => {
  const input = () => ({
    userName: "owner",
    emailAddress: `${uniqueName("o")}@example.com`,
    password: "Secret123",
    tenantName: uniqueName("co"),
    appName: "Erp_App",
  });

  it("opens a new tenant with the user as its main account and answers the full user", async () => {
    const body = input();
    const res = await s.api("POST", "/api/account/register", { body });
    expect(res.status).toBe(200);
    const u = res.body.result;
    expect(Object.keys(u).sort()).toEqual(
      [
        "id",
        "creationTime",
        "creatorId",
        "lastModificationTime",
        "lastModifierId",
        "isDeleted",
        "tenantId",
        "userName",
        "name",
        "surname",
        "email",
        "emailConfirmed",
        "phoneNumber",
        "phoneNumberConfirmed",
        "isActive",
        "lockoutEnabled",
        "lockoutEnd",
        "concurrencyStamp",
        "entityVersion",
      ].sort(),
    );
    expect(u).toMatchObject({
      userName: "owner",
      email: body.emailAddress,
      isDeleted: false,
      isActive: true,
      emailConfirmed: false,
      lockoutEnd: null,
      entityVersion: 0,
    });
    expect(new Date(u.creationTime).toISOString()).toBe(u.creationTime);

    const lookup = await s.api("GET", `/api/abp/multi-tenancy/tenants/by-name/${body.tenantName}`);
    expect(lookup.body.result).toMatchObject({ success: true, tenantId: u.tenantId, isActive: true });
    // The new main account logs in through the token endpoint and is its tenant's main account.
    const token = (await s.login("owner", body.password, body.tenantName)).access_token;
    const info = await s.api("GET", "/api/User/GetUserInfo", { token });
    expect(info.body.result).toMatchObject({
      id: u.id,
      tenantId: u.tenantId,
      tenantName: body.tenantName,
      isMainAccount: true,
      isHost: false,
    });
  });

  it("refuses a tenant name that is taken, in any case, with a business error", async () => {
    const res = await s.api("POST", "/api/account/register", { body: { ...input(), tenantName: a.tenantName.toUpperCase() } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain("已存在");
  });

  it("refuses a caller that sends a __tenant header: sub-accounts come from their main account", async () => {
    const res = await s.api("POST", "/api/account/register", { tenant: a.tenantName, body: input() });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe("子账号请联系主账号创建");
  });

  it("refuses a logged-in caller", async () => {
    const res = await s.api("POST", "/api/account/register", { token: a.token, body: input() });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe("子账号请联系主账号创建");
  });

  it("treats the client's placeholder tenant 11111111 as no tenant", async () => {
    const res = await s.api("POST", "/api/account/register", { tenant: "11111111", body: input() });
    expect(res.status).toBe(200);
  });

  it("answers 404 公司未找到 for an unknown __tenant header", async () => {
    const res = await s.api("POST", "/api/account/register", { tenant: uniqueName("ghost"), body: input() });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("公司未找到");
  });

  it("is refused while the host has switched self-registration off, and works again when switched on", async () => {
    await setSelfRegistration("False");
    try {
      const body = input();
      const off = await s.api("POST", "/api/account/register", { body });
      expect(off.status).toBe(403);
      expect(off.body.error.message).toContain("注册");
      const none = await inScope(s.database.db, hostAllScope, (tx) => tx.select().from(tenants).where(eq(tenants.name, body.tenantName)));
      expect(none).toHaveLength(0);
      await setSelfRegistration("true");
      expect((await s.api("POST", "/api/account/register", { body })).status).toBe(200);
    } finally {
      await setSelfRegistration("true");
    }
  });

  it("tells anyone before login whether sign-up is open, as register decides it (the login screen's 注册 link)", async () => {
    const open = async () => {
      const res = await s.api("GET", "/api/SystemConfigSetting/GetPublicSettings");
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.result)).toEqual(["selfRegistrationEnabled"]);
      return res.body.result.selfRegistrationEnabled as boolean;
    };
    try {
      for (const [value, expected] of [
        ["true", true],
        [" TRUE ", true],
        ["False", false],
        ["", false],
        [null, false],
      ] as const) {
        await setSelfRegistration(value);
        expect(await open(), String(value)).toBe(expected);
        const res = await s.api("POST", "/api/account/register", { body: input() });
        expect(res.status, String(value)).toBe(expected ? 200 : 403);
      }
      // A logged-in caller reads the same answer.
      expect((await s.api("GET", "/api/SystemConfigSetting/GetPublicSettings", { token: a.token })).body.result).toEqual({
        selfRegistrationEnabled: false,
      });
    } finally {
      await setSelfRegistration("true");
    }
  });

  it("is refused while the host has not decided (issue 29: open by default before)", async () => {
    await setSelfRegistration(null);
    try {
      const off = await s.api("POST", "/api/account/register", { body: input() });
      expect(off.status).toBe(403);
      expect(off.body.error.message).toBe("系统未开放注册，请联系平台管理员开通账号");
    } finally {
      await setSelfRegistration("true");
    }
  });

  it("names each missing field with the ABP message", async () => {
    const res = await s.api("POST", "/api/account/register", { body: {} });
    expect(res.status).toBe(400);
    const messages = validation(res).map((v) => v.message);
    for (const f of ["userName", "emailAddress", "password", "tenantName"])
      expect(messages).toContain(`The parameter ${f} cannot be null.`);
    expect(messages).not.toContain("The parameter appName cannot be null.");
  });

  it("refuses a bad email, a weak password, a GUID-like or placeholder tenant name with 400", async () => {
    for (const [field, value] of [
      ["emailAddress", "not-an-email"],
      ["password", "short"],
      ["password", "onlyletters"],
      ["tenantName", "7d3c3e1a-1111-4222-8333-944455556666"],
      ["tenantName", "11111111"],
      ["tenantName", "has space"],
      ["userName", "x"],
    ] as const) {
      const res = await s.api("POST", "/api/account/register", { body: { ...input(), [field]: value } });
      expect(res.status, `${field}=${value}`).toBe(400);
      expect(validation(res)[0].members).toEqual([field]);
    }
  });

  it("refuses a body that is not JSON without a 500", async () => {
    const res = await s.api("POST", "/api/account/register", { body: "not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
  });
});

describe("POST /api/account/login and check-password", () => {
  for (const path of ["/api/account/login", "/api/account/check-password"]) {
    describe(path, () => {
      it("answers Success for the right password in the __tenant header's tenant, without opening a session", async () => {
        const res = await s.api("POST", path, {
          tenant: a.tenantName,
          body: { userNameOrEmailAddress: "boss", password: a.password, rememberMe: true },
        });
        expect(res.status).toBe(200);
        expect(res.body.result).toEqual({ result: LoginResultType.Success, description: expect.any(String) });
        expect(res.headers["set-cookie"]).toBeUndefined();
      });

      it("answers InvalidUserNameOrPassword for a wrong password, and for a user of another tenant", async () => {
        const wrong = await s.api("POST", path, { tenant: a.tenantName, body: { userNameOrEmailAddress: "boss", password: "Wrong12345" } });
        expect(wrong.status).toBe(200);
        expect(wrong.body.result).toEqual({ result: LoginResultType.InvalidUserNameOrPassword, description: "用户名或密码错误" });
        // a's password in b's tenant: b's boss has another password.
        const cross = await s.api("POST", path, { tenant: b.tenantName, body: { userNameOrEmailAddress: "boss", password: a.password } });
        expect(cross.body.result.result).toBe(LoginResultType.InvalidUserNameOrPassword);
        // Without a header the host's users are checked.
        const host = await s.api("POST", path, { body: { userNameOrEmailAddress: "boss", password: a.password } });
        expect(host.body.result.result).toBe(LoginResultType.InvalidUserNameOrPassword);
        const admin = await s.api("POST", path, { body: { userNameOrEmailAddress: "admin", password: ADMIN_PASSWORD } });
        expect(admin.body.result.result).toBe(LoginResultType.Success);
      });

      it("answers NotAllowed for a disabled sub-account", async () => {
        const sub = await s.createSubUser(a);
        expect((await s.api("PUT", "/api/User/Enabled", { token: a.token, query: { userId: sub.id, enable: false } })).status).toBe(204);
        const res = await s.api("POST", path, {
          tenant: a.tenantId,
          body: { userNameOrEmailAddress: sub.userName, password: sub.password },
        });
        expect(res.body.result).toEqual({ result: LoginResultType.NotAllowed, description: "账号已被禁用" });
      });

      it("names missing fields with the ABP message", async () => {
        const res = await s.api("POST", path, { body: { rememberMe: false } });
        expect(res.status).toBe(400);
        expect(
          validation(res)
            .map((v) => v.message)
            .sort(),
        ).toEqual(["The parameter password cannot be null.", "The parameter userNameOrEmailAddress cannot be null."]);
      });

      it("answers 404 公司未找到 for an unknown tenant", async () => {
        const res = await s.api("POST", path, { tenant: uniqueName("ghost"), body: { userNameOrEmailAddress: "boss", password: "x" } });
        expect(res.status).toBe(404);
        expect(res.body.error.message).toBe("公司未找到");
      });
    });
  }

  it("counts failures with the token endpoint's lockout: the 5th wrong password locks, then even the right one is LockedOut", async () => {
    const c = await s.createTenant();
    const wrong = { userNameOrEmailAddress: "boss", password: "Wrong12345" };
    for (let i = 0; i < 4; i++) {
      const res = await s.api("POST", i % 2 ? "/api/account/login" : "/api/account/check-password", { tenant: c.tenantName, body: wrong });
      expect(res.body.result.result).toBe(LoginResultType.InvalidUserNameOrPassword);
    }
    const fifth = await s.api("POST", "/api/account/login", { tenant: c.tenantName, body: wrong });
    expect(fifth.body.result.result).toBe(LoginResultType.InvalidUserNameOrPassword);
    const locked = await s.api("POST", "/api/account/login", {
      tenant: c.tenantName,
      body: { userNameOrEmailAddress: "boss", password: c.password },
    });
    expect(locked.body.result.result).toBe(LoginResultType.LockedOut);
    expect(locked.body.result.description).toContain("锁定");
    // The lockout is the same one the token endpoint honours.
    await expect(s.login("boss", c.password, c.tenantName)).rejects.toThrow(/锁定/);
    const [row] = await inScope(s.database.db, hostAllScope, (tx) =>
      tx
        .select()
        .from(users)
        .where(and(eq(users.tenantId, c.tenantId), eq(users.id, c.userId))),
    );
    expect(row.lockoutEnd!.getTime()).toBeGreaterThan(Date.now());
  });

  it("accepts the email address as the login name", async () => {
    const c = await s.createTenant();
    const email = `${uniqueName("m")}@example.com`;
    expect((await s.api("PUT", "/api/account/my-profile", { token: c.token, body: { email } })).status).toBe(200);
    const res = await s.api("POST", "/api/account/check-password", {
      tenant: c.tenantName,
      body: { userNameOrEmailAddress: email.toUpperCase(), password: c.password },
    });
    expect(res.body.result.result).toBe(LoginResultType.Success);
  });
});

describe("per-IP limit", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ loginRateLimitPerMinute: 3 });
  });
  afterAll(() => limited?.close());

  it("answers 429 in the error envelope with Retry-After once the IP is over its limit", async () => {
    const body = { userNameOrEmailAddress: "admin", password: "Wrong12345" };
    for (let i = 0; i < 3; i++) expect((await limited.api("POST", "/api/account/check-password", { body })).status).toBe(200);
    const res = await limited.api("POST", "/api/account/login", { body });
    expect(res.status).toBe(429);
    expect(res.body.error.message).toBe("访问太多，请稍候访问!");
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    // The limit is the token endpoint's too, and reset codes count against it.
    expect((await limited.api("POST", "/api/account/send-password-reset-code", { body: { email: "a@example.com" } })).status).toBe(429);
  });
});

describe("GET /api/account/logout", () => {
  it("ends the session of the token sent at once, and only that session", async () => {
    const c = await s.createTenant();
    const other = (await s.login("boss", c.password, c.tenantName)).access_token;
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: c.token })).status).toBe(200);
    const res = await s.api("GET", "/api/account/logout", { token: c.token });
    expect(res.status).toBe(204);
    expect(res.raw).toBe("");
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: c.token })).status).toBe(401);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: other })).status).toBe(200);
  });

  it("ends a refresh token's session too", async () => {
    const c = await s.createTenant();
    const t = await s.login("boss", c.password, c.tenantName, { scope: "Erp offline_access" });
    expect((await s.api("GET", "/api/account/logout", { token: t.access_token })).status).toBe(204);
    const refreshed = await s.app.inject({
      method: "POST",
      url: "/connect/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ grant_type: "refresh_token", client_id: "Erp_App", refresh_token: t.refresh_token! }).toString(),
    });
    expect(refreshed.statusCode).toBe(400);
    expect(JSON.parse(refreshed.body).error).toBe("invalid_grant");
  });

  it("answers 204 without a token, with or without a tenant header", async () => {
    expect((await s.api("GET", "/api/account/logout")).status).toBe(204);
    expect((await s.api("GET", "/api/account/logout", { tenant: a.tenantName })).status).toBe(204);
  });

  it("logs the host out too", async () => {
    const t = (await s.login("admin", ADMIN_PASSWORD)).access_token;
    expect((await s.api("GET", "/api/account/logout", { token: t })).status).toBe(204);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: t })).status).toBe(401);
  });

  it("answers 401 for a token already logged out or forged (the registrar checks every sent token)", async () => {
    const c = await s.createTenant();
    expect((await s.api("GET", "/api/account/logout", { token: c.token })).status).toBe(204);
    expect((await s.api("GET", "/api/account/logout", { token: c.token })).status).toBe(401);
    expect((await s.api("GET", "/api/account/logout", { token: "forged.token.value" })).status).toBe(401);
  });
});

describe("GET/PUT /api/account/my-profile", () => {
  it("shows the caller's own profile only", async () => {
    const sub = await s.createSubUser(a, uniqueName("sales"), { email: `${uniqueName("s")}@example.com`, phoneNumber: "123" });
    const mine = await s.api("GET", "/api/account/my-profile", { token: sub.token });
    expect(mine.status).toBe(200);
    expect(mine.body.result).toEqual({
      userName: sub.userName,
      email: expect.stringContaining("@example.com"),
      name: null,
      surname: null,
      phoneNumber: "123",
      isExternal: false,
      hasPassword: true,
      concurrencyStamp: expect.any(String),
      extraProperties: {},
    });
    const boss = await s.api("GET", "/api/account/my-profile", { token: a.token });
    expect(boss.body.result.userName).toBe("boss");
    // A tenant header of the same tenant is fine; naming another tenant is refused.
    const withB = await s.api("GET", "/api/account/my-profile", { token: sub.token, tenant: b.tenantName });
    expect(withB.status).toBe(403);
    const host = await s.api("GET", "/api/account/my-profile", { token: await s.adminToken() });
    expect(host.body.result.userName).toBe("admin");
  });

  it("needs a token", async () => {
    expect((await s.api("GET", "/api/account/my-profile")).status).toBe(401);
    expect((await s.api("PUT", "/api/account/my-profile", { body: { name: "x" } })).status).toBe(401);
  });

  it("updates the caller's fields, renews the stamp, and leaves absent fields alone", async () => {
    const c = await s.createTenant();
    const before = (await s.api("GET", "/api/account/my-profile", { token: c.token })).body.result;
    const res = await s.api("PUT", "/api/account/my-profile", {
      token: c.token,
      body: { name: "三", surname: "张", phoneNumber: "+52 555", email: "zhang@example.com", concurrencyStamp: before.concurrencyStamp },
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      userName: "boss",
      name: "三",
      surname: "张",
      phoneNumber: "+52 555",
      email: "zhang@example.com",
    });
    expect(res.body.result.concurrencyStamp).not.toBe(before.concurrencyStamp);
    const partial = await s.api("PUT", "/api/account/my-profile", { token: c.token, body: { surname: "李" } });
    expect(partial.body.result).toMatchObject({ name: "三", surname: "李", email: "zhang@example.com" });
    // A blank clears a field.
    const cleared = await s.api("PUT", "/api/account/my-profile", { token: c.token, body: { phoneNumber: "" } });
    expect(cleared.body.result.phoneNumber).toBeNull();
    const [row] = await inScope(s.database.db, hostAllScope, (tx) =>
      tx
        .select()
        .from(users)
        .where(and(eq(users.tenantId, c.tenantId), eq(users.id, c.userId))),
    );
    expect(row.entityVersion).toBe(3);
    expect(row.lastModifierId).toBe(c.userId);
  });

  it("renames the user; the session stays valid and the new name logs in", async () => {
    const c = await s.createTenant();
    const res = await s.api("PUT", "/api/account/my-profile", { token: c.token, body: { userName: "chief" } });
    expect(res.status).toBe(200);
    expect(res.body.result.userName).toBe("chief");
    expect((await s.api("GET", "/api/User/GetUserInfo", { token: c.token })).body.result.userName).toBe("chief");
    await s.login("chief", c.password, c.tenantName);
    await expect(s.login("boss", c.password, c.tenantName)).rejects.toThrow();
  });

  it("answers 409 for a stale concurrencyStamp and changes nothing", async () => {
    const c = await s.createTenant();
    const stamp = (await s.api("GET", "/api/account/my-profile", { token: c.token })).body.result.concurrencyStamp;
    expect(
      (await s.api("PUT", "/api/account/my-profile", { token: c.token, body: { name: "first", concurrencyStamp: stamp } })).status,
    ).toBe(200);
    const stale = await s.api("PUT", "/api/account/my-profile", { token: c.token, body: { name: "second", concurrencyStamp: stamp } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("Concurrency");
    expect((await s.api("GET", "/api/account/my-profile", { token: c.token })).body.result.name).toBe("first");
  });

  it("refuses a user name or email taken in the tenant with a business error, but not one taken in another tenant", async () => {
    const sub = await s.createSubUser(a, uniqueName("sales"), { email: `${uniqueName("taken")}@example.com` });
    const byName = await s.api("PUT", "/api/account/my-profile", { token: a.token, body: { userName: sub.userName.toUpperCase() } });
    expect(byName.status).toBe(403);
    expect(byName.body.error.message).toContain("已存在");
    const subEmail = (await s.api("GET", "/api/account/my-profile", { token: sub.token })).body.result.email;
    const byEmail = await s.api("PUT", "/api/account/my-profile", { token: a.token, body: { email: subEmail } });
    expect(byEmail.status).toBe(403);
    expect(byEmail.body.error.message).toContain("已被使用");
    // The same name and email are free in tenant b.
    const inB = await s.api("PUT", "/api/account/my-profile", { token: b.token, body: { email: subEmail } });
    expect(inB.status).toBe(200);
    expect(inB.body.result.email).toBe(subEmail);
    // Keeping one's own name (any case) is not a clash.
    expect((await s.api("PUT", "/api/account/my-profile", { token: a.token, body: { userName: "boss" } })).status).toBe(200);
  });

  it("refuses bad values with 400 naming the field", async () => {
    for (const [field, value] of [
      ["email", "nope"],
      ["userName", "a b"],
      ["phoneNumber", "abc"],
      ["name", "x".repeat(65)],
      ["concurrencyStamp", 5],
    ] as const) {
      const res = await s.api("PUT", "/api/account/my-profile", { token: a.token, body: { [field]: value } });
      expect(res.status, field).toBe(400);
      expect(validation(res)[0].members).toEqual([field]);
    }
  });
});
