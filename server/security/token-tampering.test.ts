// RELIABILITY.md scenario 12, token tampering: alg none, another key, another algorithm, expired, edited claims, wrong
// issuer/audience, and tokens whose session ended (disabled user, logout, revoked session, password change) are all
// 401; a token with a header naming another tenant is 403; a refresh token rotates on use and a reused old one ends
// the session. Each refusal has a control that the same construction with the real values is accepted.
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userSessions } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../testing/harness.ts";
import { envelopeProblem } from "../testing/security-kit.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let key: Uint8Array;
let forged = 0;
let accepted = 0;
const report: string[] = [];

const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as Record<string, unknown>;
const sign = (claims: Record<string, unknown>, k: Uint8Array = key, alg = "HS256") =>
  new SignJWT(claims).setProtectedHeader({ alg, typ: "JWT" }).sign(k);
const now = () => Math.floor(Date.now() / 1000);

async function me(token: string, tenant?: string) {
  return s.api("GET", "/api/User/GetMyInfo", { token, tenant });
}

/** A forged or dead token must answer 401 in the error envelope. */
async function expectRefused(token: string, what: string, url = "/api/User/GetMyInfo") {
  forged++;
  const res = await s.api("GET", url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status < 300) accepted++;
  expect(res.status, `${what}: ${res.raw}`).toBe(401);
  expect(envelopeProblem(res), what).toBeNull();
}

async function refresh(refreshToken: string) {
  const res = await s.app.inject({
    method: "POST",
    url: "/connect/token",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ grant_type: "refresh_token", client_id: "Erp_App", refresh_token: refreshToken }).toString(),
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

beforeAll(async () => {
  s = await startTestServer();
  key = new TextEncoder().encode(s.deps.config.tokenSigningKey);
  A = await s.createTenant();
  B = await s.createTenant();
});
afterAll(async () => {
  report.unshift(`forged or dead tokens tried: ${forged}, accepted: ${accepted}`);
  console.log("[security] token tampering\n  " + report.join("\n  "));
  await s?.close();
});

describe("forged tokens (scenario 12)", () => {
  it("control: a token re-signed with the real key and claims is accepted", async () => {
    const res = await me(await sign(claimsOf(A.token)));
    expect(res.status).toBe(200);
    expect(res.body.result.id).toBe(A.userId);
  });

  it("refuses alg none, in any spelling, with or without the old signature", async () => {
    const [, payload, signature] = A.token.split(".");
    for (const alg of ["none", "None", "NONE", "nOnE"]) {
      const header = b64({ alg, typ: "JWT" });
      await expectRefused(`${header}.${payload}.`, `alg ${alg}`);
      await expectRefused(`${header}.${payload}.${signature}`, `alg ${alg} with signature`);
    }
  });

  it("refuses a token signed with another key, and one signed with the right key under another algorithm", async () => {
    await expectRefused(await sign(claimsOf(A.token), randomBytes(48)), "another key");
    await expectRefused(await sign(claimsOf(A.token), new TextEncoder().encode(s.deps.config.tokenSigningKey + "x")), "a near key");
    await expectRefused(await sign(claimsOf(A.token), key, "HS512"), "HS512 with the right key");
    await expectRefused(await sign(claimsOf(A.token), key, "HS384"), "HS384 with the right key");
  });

  it("refuses an expired token signed with the right key (and accepts the same one unexpired)", async () => {
    const claims = claimsOf(A.token);
    await expectRefused(await sign({ ...claims, iat: now() - 7200, exp: now() - 60 }), "expired a minute ago");
    await expectRefused(await sign({ ...claims, iat: now() - 7200, exp: now() - 1 }), "expired a second ago");
    const noExp = { ...claims };
    delete noExp.exp;
    expect((await me(await sign({ ...claims, exp: now() + 600 }))).status).toBe(200);
    // A token without an expiry is not one the server issues; it must not live forever.
    await expectRefused(await sign(noExp), "no exp claim");
  });

  it("refuses a token whose payload was edited to another tenant, user or role (signature broken)", async () => {
    const [header, , signature] = A.token.split(".");
    const claims = claimsOf(A.token);
    for (const [what, change] of [
      ["tenant B", { tid: B.tenantId, tname: B.tenantName }],
      ["user B", { sub: B.userId, tid: B.tenantId }],
      ["host flag", { host: true, tid: null }],
      ["longer expiry", { exp: now() + 86400 * 365 }],
    ] as const) {
      await expectRefused(`${header}.${b64({ ...claims, ...change })}.${signature}`, `payload edited: ${what}`);
    }
  });

  it("refuses wrong issuer or audience, and claims that name a user outside the token's tenant even when signed with the real key", async () => {
    const claims = claimsOf(A.token);
    await expectRefused(await sign({ ...claims, iss: "someone-else" }), "issuer");
    await expectRefused(await sign({ ...claims, aud: "Other" }), "audience");
    // Key compromise is not enough to cross tenants: the session named must exist for that user in that tenant.
    await expectRefused(await sign({ ...claims, tid: B.tenantId, tname: B.tenantName }), "A's session under B's tenant");
    await expectRefused(await sign({ ...claimsOf(B.token), sid: claims.sid }), "B's user with A's session");
    await expectRefused(await sign({ ...claims, sst: "stale-stamp" }), "another security stamp");
  });

  it("does not let a role claim the server did not grant open main or host calls", async () => {
    const sub = await s.createSubUser(A);
    const claims = claimsOf(sub.token);
    const asMain = await sign({ ...claims, main: true });
    const res = await s.api("GET", "/api/User/GetSubUsers", { token: asMain });
    expect(res.status, res.raw).toBe(403);
    const host = s.app.calls.find((c) => c.access === "host" && c.method === "GET");
    if (host) {
      const asHost = await sign({ ...claims, host: true });
      const h = await s.api("GET", host.url.replace(/:(\w+)/g, A.tenantId), { token: asHost });
      expect(h.status, h.raw).toBe(403);
    }
  });

  it("refuses malformed Authorization headers with 401", async () => {
    for (const header of [
      "Bearer",
      "Bearer ",
      "Bearer a.b",
      "Bearer a.b.c",
      "Basic YWRtaW46YWRtaW4=",
      `Bearer ${A.token} extra`,
      `Bearer ${"x".repeat(10_000)}`,
      `Bearer ${A.token}.`,
    ]) {
      forged++;
      const res = await s.api("GET", "/api/User/GetMyInfo", { headers: { authorization: header } });
      if (res.status < 300) accepted++;
      expect(res.status, header.slice(0, 40)).toBe(401);
      expect(envelopeProblem(res)).toBeNull();
    }
  });
});

describe("tokens whose session ended (scenario 12)", () => {
  it("refuses the token of a disabled sub-account, and keeps refusing it after re-enabling", async () => {
    const sub = await s.createSubUser(A);
    expect((await me(sub.token)).status).toBe(200);
    const off = await s.api("PUT", "/api/User/Enabled", { token: A.token, query: { userId: sub.id, enable: false } });
    expect(off.status, off.raw).toBeLessThan(300);
    await expectRefused(sub.token, "disabled sub-account");
    const on = await s.api("PUT", "/api/User/Enabled", { token: A.token, query: { userId: sub.id, enable: true } });
    expect(on.status).toBeLessThan(300);
    await expectRefused(sub.token, "re-enabled sub-account's old token");
    const fresh = await s.login(sub.userName, sub.password, A.tenantName);
    expect((await me(fresh.access_token)).status).toBe(200);
  });

  it("refuses a token after its session is revoked in the session table", async () => {
    const t = await s.login("boss", A.password, A.tenantName);
    expect((await me(t.access_token)).status).toBe(200);
    const sid = claimsOf(t.access_token).sid as string;
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .update(userSessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(userSessions.tenantId, A.tenantId), eq(userSessions.id, sid))),
    );
    await expectRefused(t.access_token, "revoked session");
    expect((await me(A.token)).status, "other sessions of the user live on").toBe(200);
  });

  it("refuses a token after GET /api/account/logout (when the account area has it)", async (ctx) => {
    if (!s.app.calls.some((c) => c.method === "GET" && c.url.toLowerCase() === "/api/account/logout")) {
      ctx.skip();
      return;
    }
    const t = await s.login("boss", A.password, A.tenantName);
    expect((await me(t.access_token)).status).toBe(200);
    const out = await s.api("GET", "/api/account/logout", { token: t.access_token });
    expect(out.status).toBeLessThan(300);
    await expectRefused(t.access_token, "after logout");
  });

  it("refuses every older token of a user after ChangePwd, and the new password works", async () => {
    const sub = await s.createSubUser(A);
    const second = await s.login(sub.userName, sub.password, A.tenantName, { scope: "Erp offline_access" });
    const res = await s.api("POST", "/api/User/ChangePwd", { token: sub.token, body: { oldPwd: sub.password, newPwd: "Changed123abc" } });
    expect(res.status, res.raw).toBeLessThan(300);
    await expectRefused(sub.token, "after ChangePwd (the session that changed it)");
    await expectRefused(second.access_token, "after ChangePwd (another session)");
    expect((await refresh(second.refresh_token!)).status, "refresh token of an ended session").toBe(400);
    const fresh = await s.login(sub.userName, "Changed123abc", A.tenantName);
    expect((await me(fresh.access_token)).status).toBe(200);
  });

  it("answers 403 to a valid token of A with a __tenant header naming B (by name or id), and 200 naming A", async () => {
    for (const tenant of [B.tenantName, B.tenantId, B.tenantName.toLowerCase()]) {
      const res = await me(A.token, tenant);
      expect(res.status, tenant).toBe(403);
      expect(envelopeProblem(res)).toBeNull();
    }
    for (const tenant of [A.tenantName, A.tenantId, A.tenantName.toUpperCase()])
      expect((await me(A.token, tenant)).status, tenant).toBe(200);
    // The host's token names no tenant: a tenant header with it is refused as well.
    expect((await me(await s.adminToken(), A.tenantName)).status).toBe(403);
  });
});

describe("refresh tokens (scenario 12)", () => {
  it("rotates on use: the new pair works, the old refresh token is refused", async () => {
    const first = await s.login("boss", A.password, A.tenantName, { scope: "Erp offline_access" });
    expect(first.refresh_token).toBeTruthy();
    const second = await refresh(first.refresh_token!);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.refresh_token).toBeTruthy();
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await me(second.body.access_token)).status).toBe(200);
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(200);
    expect((await me(third.body.access_token)).status).toBe(200);
  });

  it("ends the session when an old refresh token is reused: the newest refresh token and the session's access tokens are refused", async () => {
    const first = await s.login("boss", A.password, A.tenantName, { scope: "Erp offline_access" });
    const second = await refresh(first.refresh_token!);
    expect(second.status).toBe(200);
    const reuse = await refresh(first.refresh_token!);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe("invalid_grant");
    const after = await refresh(second.body.refresh_token);
    expect(after.status, "the rotated token after a reuse").toBe(400);
    await expectRefused(second.body.access_token, "access token of a session ended by refresh reuse");
    await expectRefused(first.access_token, "first access token of that session");
    expect((await me(A.token)).status, "other sessions live on").toBe(200);
  });

  it("refuses a refresh token edited to another tenant, a made-up one, and one of a disabled user", async () => {
    const first = await s.login("boss", A.password, A.tenantName, { scope: "Erp offline_access" });
    const [, sid, secret] = first.refresh_token!.split(".");
    expect((await refresh(`${B.tenantId}.${sid}.${secret}`)).status).toBe(400);
    expect((await refresh(`${A.tenantId}.${sid}.${randomBytes(32).toString("base64url")}`)).status).toBe(400);
    expect((await refresh("not-a-token")).status).toBe(400);
    const sub = await s.createSubUser(A);
    const subPair = await s.login(sub.userName, sub.password, A.tenantName, { scope: "Erp offline_access" });
    await s.api("PUT", "/api/User/Enabled", { token: A.token, query: { userId: sub.id, enable: false } });
    expect((await refresh(subPair.refresh_token!)).status).toBe(400);
  });
});
