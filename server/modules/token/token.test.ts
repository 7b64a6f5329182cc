// POST /connect/token through the real HTTP stack: the password and refresh_token grants, their OAuth-shaped refusals
// ({error, error_description}, never the ABP envelope, never a 500), tenant resolution, and what the access token carries.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenants } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
});
afterAll(() => s?.close());

type TokenResponse = { status: number; body: any; raw: string; headers: Record<string, unknown> };

/** Posts to /connect/token: a form by default, or a raw payload with its content type. */
async function token(
  fields: Record<string, string | string[]> | string,
  opts: { tenant?: string; contentType?: string; headers?: Record<string, string> } = {},
): Promise<TokenResponse> {
  let payload: string;
  if (typeof fields === "string") payload = fields;
  else {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
    payload = form.toString();
  }
  const res = await s.app.inject({
    method: "POST",
    url: "/connect/token",
    headers: {
      "content-type": opts.contentType ?? "application/x-www-form-urlencoded",
      ...(opts.tenant ? { __tenant: opts.tenant } : {}),
      ...opts.headers,
    },
    payload,
  });
  let body: unknown = null;
  try {
    body = res.body ? JSON.parse(res.body) : null;
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, raw: res.body, headers: res.headers };
}

const passwordGrant = (username: string, password: string, extra: Record<string, string> = {}) => ({
  grant_type: "password",
  client_id: "Erp_App",
  scope: "Erp",
  username,
  password,
  ...extra,
});

function expectOAuthError(res: TokenResponse, status: number, error: string) {
  expect(res.status, res.raw).toBe(status);
  expect(res.body).toEqual({ error, error_description: expect.any(String) });
  expect(res.body.error_description.length).toBeGreaterThan(0);
}

/** The payload of a JWT, decoded from base64url without verifying it (what any holder of the token can read). */
function payloadOf(jwt: string): Record<string, unknown> {
  const parts = jwt.split(".");
  expect(parts).toHaveLength(3);
  return JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
}

const me = (accessToken: string) => s.api("GET", "/api/User/GetUserInfo", { token: accessToken });

describe("password grant", () => {
  it("answers Bearer, a 1 h access token and scope Erp, without a refresh token, and not cached", async () => {
    const res = await token(passwordGrant("boss", a.password), { tenant: a.tenantName });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toEqual({ token_type: "Bearer", access_token: expect.any(String), expires_in: 3600, scope: "Erp" });
    expect(res.body).not.toHaveProperty("refresh_token");
    expect(String(res.headers["cache-control"])).toContain("no-store");
    const info = await me(res.body.access_token);
    expect(info.status).toBe(200);
    expect(info.body.result).toMatchObject({ id: a.userId, tenantId: a.tenantId });
  });

  it('takes scope as optional (Erp) and answers a refresh token with scope "Erp offline_access"', async () => {
    const noScope = await token(
      { grant_type: "password", client_id: "Erp_App", username: "boss", password: a.password },
      { tenant: a.tenantName },
    );
    expect(noScope.status).toBe(200);
    expect(noScope.body.scope).toBe("Erp");
    expect(noScope.body).not.toHaveProperty("refresh_token");

    const res = await token(passwordGrant("boss", a.password, { scope: "Erp offline_access" }), { tenant: a.tenantName });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      token_type: "Bearer",
      access_token: expect.any(String),
      expires_in: 3600,
      scope: "Erp offline_access",
      refresh_token: expect.any(String),
    });
    expect(res.body.refresh_token.length).toBeGreaterThan(40);
  });

  it("puts the tenant id in the access token and no password material", async () => {
    const res = await token(passwordGrant("boss", a.password), { tenant: a.tenantName });
    const claims = payloadOf(res.body.access_token);
    expect(claims).toMatchObject({
      sub: a.userId,
      tid: a.tenantId,
      tname: a.tenantName,
      main: true,
      host: false,
      client_id: "Erp_App",
      aud: "Erp",
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    const text = Buffer.from(res.body.access_token.split(".")[1], "base64url").toString("utf8");
    expect(text).not.toContain(a.password);
    expect(text).not.toMatch(/scrypt|password|pwd|hash/i);
    const header = JSON.parse(Buffer.from(res.body.access_token.split(".")[0], "base64url").toString("utf8"));
    expect(header.alg).toBe("HS256");
    // The host's token names no tenant.
    const host = await token(passwordGrant("admin", ADMIN_PASSWORD));
    expect(payloadOf(host.body.access_token)).toMatchObject({ tid: null, host: true });
    expect(host.raw).not.toContain(ADMIN_PASSWORD);
  });

  it("answers an unknown user and a wrong password alike", async () => {
    const t = await s.createTenant();
    const unknown = await token(passwordGrant("nobody", "Whatever1"), { tenant: t.tenantName });
    const wrong = await token(passwordGrant("boss", "Whatever1"), { tenant: t.tenantName });
    expectOAuthError(unknown, 400, "invalid_grant");
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(unknown.body);
    // The real password still works (one failure does not lock).
    expect((await token(passwordGrant("boss", t.password), { tenant: t.tenantName })).status).toBe(200);
  });

  it("accepts the user name in any case and the email as login name", async () => {
    const sub = await s.createSubUser(a, undefined, { email: "Login.Me." + a.tenantName + "@example.com" });
    expect((await token(passwordGrant(sub.userName.toUpperCase(), sub.password), { tenant: a.tenantName })).status).toBe(200);
    const byMail = await token(passwordGrant("login.me." + a.tenantName + "@EXAMPLE.com", sub.password), { tenant: a.tenantName });
    expect(byMail.status).toBe(200);
    expect(payloadOf(byMail.body.access_token).sub).toBe(sub.id);
  });
});

describe("tenant resolution", () => {
  it("finds the tenant by name in any case and by id, in the __tenant header or the form", async () => {
    for (const tenant of [a.tenantName, a.tenantName.toUpperCase(), ` ${a.tenantName} `, a.tenantId, a.tenantId.toUpperCase()]) {
      const res = await token(passwordGrant("boss", a.password), { tenant });
      expect(res.status, `${tenant}: ${res.raw}`).toBe(200);
      expect(payloadOf(res.body.access_token).tid).toBe(a.tenantId);
    }
    for (const __tenant of [a.tenantName.toUpperCase(), a.tenantId]) {
      const res = await token(passwordGrant("boss", a.password, { __tenant }));
      expect(res.status, `${__tenant}: ${res.raw}`).toBe(200);
      expect(payloadOf(res.body.access_token).tid).toBe(a.tenantId);
    }
  });

  it("lets the header win over the form's __tenant", async () => {
    // boss exists in both tenants with different passwords: a's password only works where the header points.
    const res = await token(passwordGrant("boss", a.password, { __tenant: b.tenantName }), { tenant: a.tenantName });
    expect(res.status).toBe(200);
    expect(payloadOf(res.body.access_token).tid).toBe(a.tenantId);
  });

  it("answers an unknown tenant like a wrong password (invalid_grant)", async () => {
    const wrongPwd = await token(passwordGrant("boss", "Nope12345"), { tenant: b.tenantName });
    for (const tenant of ["no-such-company", "0b6c3f2e-9d7a-4c1e-8f00-123456789abc", "x".repeat(200)]) {
      const res = await token(passwordGrant("boss", a.password), { tenant });
      expectOAuthError(res, 400, "invalid_grant");
      expect(res.body).toEqual(wrongPwd.body);
    }
    expectOAuthError(await token(passwordGrant("boss", a.password, { __tenant: "no-such-company" })), 400, "invalid_grant");
  });

  it("does not let the host administrator log in inside a tenant; without a tenant it is the host", async () => {
    expectOAuthError(await token(passwordGrant("admin", ADMIN_PASSWORD), { tenant: a.tenantName }), 400, "invalid_grant");
    expectOAuthError(await token(passwordGrant("admin", ADMIN_PASSWORD, { __tenant: a.tenantId })), 400, "invalid_grant");
    // The client's placeholder tenant means none.
    const host = await token(passwordGrant("admin", ADMIN_PASSWORD), { tenant: "11111111" });
    expect(host.status, host.raw).toBe(200);
    expect((await me(host.body.access_token)).body.result).toMatchObject({ isHost: true, tenantId: null });
    const formPlaceholder = await token(passwordGrant("admin", ADMIN_PASSWORD, { __tenant: "11111111" }));
    expect(formPlaceholder.status, formPlaceholder.raw).toBe(200);
    expect(payloadOf(formPlaceholder.body.access_token).tid).toBeNull();
    // And a tenant's main account is not found among the host's users.
    expectOAuthError(await token(passwordGrant("boss", a.password)), 400, "invalid_grant");
  });

  it("refuses a user disabled by the main account, with a message saying so", async () => {
    const sub = await s.createSubUser(a);
    expect((await s.api("PUT", "/api/User/Enabled", { token: a.token, query: { userId: sub.id, enable: false } })).status).toBe(204);
    const res = await token(passwordGrant(sub.userName, sub.password), { tenant: a.tenantName });
    expectOAuthError(res, 400, "invalid_grant");
    expect(res.body.error_description).toContain("禁用");
  });

  it("refuses every user of a deactivated or expired tenant", async () => {
    const t = await s.createTenant();
    const sub = await s.createSubUser(t);
    const setTenant = (change: Partial<typeof tenants.$inferInsert>) =>
      inScope(s.database.db, hostAllScope, (tx) => tx.update(tenants).set(change).where(eq(tenants.id, t.tenantId)));

    await setTenant({ isActive: false });
    for (const [user, pwd] of [
      ["boss", t.password],
      [sub.userName, sub.password],
    ]) {
      const res = await token(passwordGrant(user, pwd), { tenant: t.tenantName });
      expectOAuthError(res, 400, "invalid_grant");
      expect(res.body.error_description).toContain("停用");
    }
    // Tokens issued before stop working too.
    expect((await me(t.token)).status).toBe(401);

    await setTenant({ isActive: true, accountExpireTime: new Date(Date.now() - 60_000) });
    const expired = await token(passwordGrant("boss", t.password), { tenant: t.tenantName });
    expectOAuthError(expired, 400, "invalid_grant");
    expect(expired.body.error_description).toContain("过期");

    await setTenant({ accountExpireTime: new Date(Date.now() + 86_400_000) });
    expect((await token(passwordGrant("boss", t.password), { tenant: t.tenantName })).status).toBe(200);
  });
});

describe("refresh_token grant", () => {
  const refresh = (refresh_token: string, extra: Record<string, string> = {}, opts: { tenant?: string } = {}) =>
    token({ grant_type: "refresh_token", client_id: "Erp_App", refresh_token, ...extra }, opts);

  it("rotates: a new access and refresh token; the old refresh token is refused afterwards", async () => {
    const first = await token(passwordGrant("boss", a.password, { scope: "Erp offline_access" }), { tenant: a.tenantName });
    const r1 = first.body.refresh_token as string;

    const second = await refresh(r1);
    expect(second.status, second.raw).toBe(200);
    expect(second.body).toEqual({
      token_type: "Bearer",
      access_token: expect.any(String),
      expires_in: 3600,
      scope: "Erp offline_access",
      refresh_token: expect.any(String),
    });
    expect(second.body.refresh_token).not.toBe(r1);
    expect(payloadOf(second.body.access_token)).toMatchObject({ sub: a.userId, tid: a.tenantId });
    expect((await me(second.body.access_token)).status).toBe(200);

    const reused = await refresh(r1);
    expectOAuthError(reused, 400, "invalid_grant");
  });

  it("ends the session when an old refresh token is replayed (the rotated one stops too)", async () => {
    const first = await token(passwordGrant("boss", a.password, { scope: "Erp offline_access" }), { tenant: a.tenantName });
    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    expectOAuthError(await refresh(first.body.refresh_token), 400, "invalid_grant");
    // Replay means the token leaked: the whole session ends, including its newest refresh and access tokens.
    expectOAuthError(await refresh(second.body.refresh_token), 400, "invalid_grant");
    expect((await me(second.body.access_token)).status).toBe(401);
  });

  it("keeps working through several rotations", async () => {
    let current = (await token(passwordGrant("boss", b.password, { scope: "Erp offline_access" }), { tenant: b.tenantId })).body
      .refresh_token;
    for (let i = 0; i < 3; i++) {
      const next = await refresh(current);
      expect(next.status).toBe(200);
      current = next.body.refresh_token;
    }
  });

  it("is refused after the password changes or the user is disabled", async () => {
    const sub = await s.createSubUser(a);
    const session = await token(passwordGrant(sub.userName, sub.password, { scope: "Erp offline_access" }), { tenant: a.tenantName });
    expect((await s.api("PUT", "/api/User/Enabled", { token: a.token, query: { userId: sub.id, enable: false } })).status).toBe(204);
    expectOAuthError(await refresh(session.body.refresh_token), 400, "invalid_grant");

    expect((await s.api("PUT", "/api/User/Enabled", { token: a.token, query: { userId: sub.id, enable: true } })).status).toBe(204);
    const again = await token(passwordGrant(sub.userName, sub.password, { scope: "Erp offline_access" }), { tenant: a.tenantName });
    const changed = await s.api("POST", "/api/User/ChangePwd", {
      token: again.body.access_token,
      body: { oldPwd: sub.password, newPwd: "Changed123" },
    });
    expect(changed.status).toBe(204);
    expectOAuthError(await refresh(again.body.refresh_token), 400, "invalid_grant");
  });

  it("refuses garbage refresh tokens with invalid_grant, never a 500", async () => {
    const good = (await token(passwordGrant("boss", a.password, { scope: "Erp offline_access" }), { tenant: a.tenantName })).body
      .refresh_token as string;
    const [tid, sid, secret] = good.split(".");
    for (const bad of [
      "garbage",
      `${tid}.${sid}.${"A".repeat(43)}`,
      `${b.tenantId}.${sid}.${secret}`,
      `${"-".repeat(36)}.${"-".repeat(36)}.${secret}`,
      `${"f".repeat(36)}.${sid}.${secret}`,
      `${tid}.${"0".repeat(36)}.${secret}`,
      `${tid.toUpperCase()}.${sid}.${secret}`,
      `${tid}.${sid}.${secret}.x`,
      "x".repeat(512),
    ]) {
      const res = await refresh(bad);
      expectOAuthError(res, 400, "invalid_grant");
    }
    expectOAuthError(await refresh("x".repeat(513)), 400, "invalid_request");
    expectOAuthError(await token({ grant_type: "refresh_token", client_id: "Erp_App" }), 400, "invalid_request");
    // A refresh token is no access token, and an access token is no refresh token.
    expect((await me(good)).status).toBe(401);
    const access = (await token(passwordGrant("boss", a.password), { tenant: a.tenantName })).body.access_token as string;
    const asRefresh = await refresh(access);
    expect(asRefresh.status).toBe(400);
    // invalid_request when the JWT is longer than a refresh token may be, invalid_grant otherwise.
    expect(["invalid_grant", "invalid_request"]).toContain(asRefresh.body.error);
  });

  it("refuses a refresh whose __tenant names another tenant than the token's, as the password grant does", async () => {
    const session = await token(passwordGrant("boss", a.password, { scope: "Erp offline_access" }), { tenant: a.tenantName });
    const good = session.body.refresh_token as string;
    const host = await token(passwordGrant("admin", ADMIN_PASSWORD, { scope: "Erp offline_access" }));
    // Another tenant (by name or id, in the header or the form), an unknown one, and any tenant for a host session.
    expectOAuthError(await refresh(good, {}, { tenant: b.tenantName }), 400, "invalid_grant");
    expectOAuthError(await refresh(good, {}, { tenant: b.tenantId }), 400, "invalid_grant");
    expectOAuthError(await refresh(good, { __tenant: b.tenantName }), 400, "invalid_grant");
    expectOAuthError(await refresh(good, {}, { tenant: "no-such-company" }), 400, "invalid_grant");
    expectOAuthError(await refresh(host.body.refresh_token, {}, { tenant: a.tenantName }), 400, "invalid_grant");
    // The refusals did not use the tokens up: their own tenant (or none, or the placeholder) still works.
    const own = await refresh(good, {}, { tenant: a.tenantName.toUpperCase() });
    expect(own.status, own.raw).toBe(200);
    expect(payloadOf(own.body.access_token).tid).toBe(a.tenantId);
    const byForm = await refresh(own.body.refresh_token, { __tenant: a.tenantId });
    expect(byForm.status, byForm.raw).toBe(200);
    expect((await refresh(byForm.body.refresh_token, {}, { tenant: "11111111" })).status).toBe(200);
    expect((await refresh(host.body.refresh_token)).status).toBe(200);
  });

  it("checks the client and the scope on a refresh too", async () => {
    const good = (await token(passwordGrant("boss", a.password, { scope: "Erp offline_access" }), { tenant: a.tenantName })).body
      .refresh_token as string;
    expectOAuthError(await refresh(good, { client_id: "Other" }), 400, "invalid_client");
    expectOAuthError(await refresh(good, { scope: "admin" }), 400, "invalid_scope");
    // Those refusals did not use the token up.
    expect((await refresh(good)).status).toBe(200);
  });
});

describe("request errors", () => {
  it("refuses a client other than Erp_App, or none, with invalid_client", async () => {
    expectOAuthError(
      await token(passwordGrant("boss", a.password, { client_id: "Other_App" }), { tenant: a.tenantName }),
      400,
      "invalid_client",
    );
    expectOAuthError(
      await token(passwordGrant("boss", a.password, { client_id: "erp_app" }), { tenant: a.tenantName }),
      400,
      "invalid_client",
    );
    const { client_id: _, ...noClient } = passwordGrant("boss", a.password);
    expectOAuthError(await token(noClient, { tenant: a.tenantName }), 400, "invalid_client");
  });

  it("refuses other grant types with unsupported_grant_type and a missing one with invalid_request", async () => {
    for (const grant_type of ["client_credentials", "authorization_code", "implicit", "PASSWORD"]) {
      expectOAuthError(
        await token(passwordGrant("boss", a.password, { grant_type }), { tenant: a.tenantName }),
        400,
        "unsupported_grant_type",
      );
    }
    const { grant_type: _, ...noGrant } = passwordGrant("boss", a.password);
    const res = await token(noGrant, { tenant: a.tenantName });
    expectOAuthError(res, 400, "invalid_request");
    expect(res.body.error_description).toBe("The parameter grant_type cannot be null.");
  });

  it("refuses an unknown scope with invalid_scope", async () => {
    for (const scope of ["Admin", "Erp Admin", "erp", "openid"]) {
      expectOAuthError(await token(passwordGrant("boss", a.password, { scope }), { tenant: a.tenantName }), 400, "invalid_scope");
    }
  });

  it("refuses a missing or empty username or password with invalid_request naming it", async () => {
    const full = passwordGrant("boss", a.password);
    const { username: _u, ...noUser } = full;
    const { password: _p, ...noPwd } = full;
    let res = await token(noUser, { tenant: a.tenantName });
    expectOAuthError(res, 400, "invalid_request");
    expect(res.body.error_description).toContain("username");
    res = await token(noPwd, { tenant: a.tenantName });
    expectOAuthError(res, 400, "invalid_request");
    expect(res.body.error_description).toContain("password");
    expectOAuthError(await token({ ...full, username: "" }, { tenant: a.tenantName }), 400, "invalid_request");
    expectOAuthError(await token({ ...full, password: "" }, { tenant: a.tenantName }), 400, "invalid_request");
    expectOAuthError(await token({ ...full, username: "u".repeat(257) }, { tenant: a.tenantName }), 400, "invalid_request");
  });

  it("refuses repeated fields and an empty body with invalid_request", async () => {
    expectOAuthError(
      await token({ ...passwordGrant("boss", a.password), username: ["boss", "admin"] }, { tenant: a.tenantName }),
      400,
      "invalid_request",
    );
    expectOAuthError(await token(""), 400, "invalid_request");
    const none = await s.app.inject({ method: "POST", url: "/connect/token" });
    expect(none.statusCode).toBe(400);
    expect(JSON.parse(none.body).error).toBe("invalid_request");
  });

  it("accepts a JSON body with the same fields and rules as the form", async () => {
    // Documented behaviour: the endpoint reads form-encoded and JSON bodies alike.
    const ok = await token(JSON.stringify(passwordGrant("boss", a.password)), { tenant: a.tenantName, contentType: "application/json" });
    expect(ok.status, ok.raw).toBe(200);
    expect(payloadOf(ok.body.access_token).tid).toBe(a.tenantId);
    const withTenant = await token(JSON.stringify(passwordGrant("boss", a.password, { __tenant: a.tenantName })), {
      contentType: "application/json",
    });
    expect(withTenant.status).toBe(200);
    expectOAuthError(
      await token(JSON.stringify({ ...passwordGrant("boss", a.password), client_id: "x" }), {
        contentType: "application/json",
        tenant: a.tenantName,
      }),
      400,
      "invalid_client",
    );
    // Non-string values and a non-object body are a bad request, not a crash.
    expectOAuthError(
      await token(JSON.stringify({ ...passwordGrant("boss", a.password), password: 123456 }), {
        contentType: "application/json",
        tenant: a.tenantName,
      }),
      400,
      "invalid_request",
    );
    expectOAuthError(
      await token(JSON.stringify({ ...passwordGrant("boss", a.password), username: { $ne: null } }), {
        contentType: "application/json",
        tenant: a.tenantName,
      }),
      400,
      "invalid_request",
    );
    expectOAuthError(
      await token(JSON.stringify([passwordGrant("boss", a.password)]), { contentType: "application/json", tenant: a.tenantName }),
      400,
      "invalid_request",
    );
    expectOAuthError(await token("null", { contentType: "application/json" }), 400, "invalid_request");
    const broken = await token("{not json", { contentType: "application/json" });
    expect(broken.status).toBe(400);
  });

  it("refuses text/plain and other content types with 400 or 415, never a 500", async () => {
    const form = new URLSearchParams(passwordGrant("boss", a.password)).toString();
    // text/plain is read as a string, which is no set of fields: 400 invalid_request.
    const text = await token(form, { contentType: "text/plain", tenant: a.tenantName });
    expectOAuthError(text, 400, "invalid_request");
    // Types no parser takes are a 415, still in OAuth's shape.
    for (const contentType of ["application/xml", "multipart/form-data; boundary=x", "application/octet-stream"]) {
      const res = await token(form, { contentType, tenant: a.tenantName });
      expectOAuthError(res, 415, "invalid_request");
    }
    expectOAuthError(await token("{not json", { contentType: "application/json" }), 400, "invalid_request");
  });

  it("answers control characters in the user name or the form's tenant in OAuth's shape, never the ABP envelope", async () => {
    for (const username of ["boss\u0000", "\u0000", "bo\u0000ss", "boss\u001b"]) {
      const res = await token(passwordGrant(username, a.password), { tenant: a.tenantName });
      expectOAuthError(res, 400, "invalid_request");
      expect(res.headers["_abperrorformat"]).toBeUndefined();
    }
    const json = await token(JSON.stringify(passwordGrant("boss\u0000", a.password)), {
      contentType: "application/json",
      tenant: a.tenantName,
    });
    expectOAuthError(json, 400, "invalid_request");
    expectOAuthError(await token(passwordGrant("boss", a.password, { __tenant: `${a.tenantName}\u0000` })), 400, "invalid_request");
    // A NUL in the password only reaches the hash: a wrong password like any other.
    expectOAuthError(await token(passwordGrant("boss", "\u0000pw12345"), { tenant: a.tenantName }), 400, "invalid_grant");
  });

  it("refuses a GET with 404 or 405", async () => {
    const res = await s.app.inject({
      method: "GET",
      url: "/connect/token?" + new URLSearchParams(passwordGrant("boss", a.password)).toString(),
    });
    expect([404, 405]).toContain(res.statusCode);
    expect(res.body).not.toContain("access_token");
  });
});

describe("the issued access token", () => {
  it("works only in its own tenant: another tenant in the __tenant header is refused (403)", async () => {
    const res = await token(passwordGrant("boss", a.password), { tenant: a.tenantName });
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: res.body.access_token, tenant: a.tenantId })).status).toBe(200);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: res.body.access_token, tenant: b.tenantName })).status).toBe(403);
  });

  it("is a 401 once tampered with", async () => {
    const jwt: string = (await token(passwordGrant("boss", a.password), { tenant: a.tenantName })).body.access_token;
    const [h, p, sig] = jwt.split(".");
    const forged = Buffer.from(JSON.stringify({ ...payloadOf(jwt), tid: b.tenantId })).toString("base64url");
    expect((await me(`${h}.${forged}.${sig}`)).status).toBe(401);
    const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    expect((await me(`${none}.${p}.`)).status).toBe(401);
  });
});
