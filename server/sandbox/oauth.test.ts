// The sandbox's OAuth as Mercado Libre runs it: the consent page (errors for an unknown app or redirect URI), single-use
// codes bound to their redirect URI and PKCE challenge, rotating single-use refresh tokens, expiring access tokens,
// form-only token requests; then the seller's account calls, a global seller's marketplaces included.
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REDIRECT, SELLER_PASSWORD, startSandbox, type TestSandbox } from "../testing/sandbox-kit.ts";

let t: TestSandbox;
let client: { clientId: string; clientSecret: string };

beforeEach(async () => {
  t = await startSandbox();
  client = t.control.app();
});
afterEach(() => t.close());

const authorize = (extra: Record<string, string> = {}) =>
  t.call("GET", "/auth/authorization", {
    query: { response_type: "code", client_id: client.clientId, redirect_uri: REDIRECT, state: "xyz", ...extra },
  });

async function consent(form: Record<string, string | string[]> = {}) {
  const res = await t.call("POST", "/auth/authorization", {
    form: {
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: REDIRECT,
      state: "st-1",
      nickname: "SELLER_A",
      password: SELLER_PASSWORD,
      signup: "1",
      site: "MLM",
      decision: "allow",
      ...form,
    },
  });
  return { res, location: res.headers.location ? new URL(String(res.headers.location)) : null };
}

const exchange = (code: string, extra: Record<string, string> = {}) =>
  t.call("POST", "/oauth/token", {
    form: {
      grant_type: "authorization_code",
      client_id: client.clientId,
      client_secret: client.clientSecret,
      code,
      redirect_uri: REDIRECT,
      ...extra,
    },
  });

const refresh = (refreshToken: string) =>
  t.call("POST", "/oauth/token", {
    form: { grant_type: "refresh_token", client_id: client.clientId, client_secret: client.clientSecret, refresh_token: refreshToken },
  });

const INVALID_TOKEN = { message: "invalid access token", error: "invalid_token", status: 401, cause: [] };

describe("authorization page", () => {
  it("shows a consent form carrying the request, prefilled from the query", async () => {
    const res = await authorize({ nickname: "PREFILLED", site: "CBT", code_challenge: "abc" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.raw).toContain('id="nickname" name="nickname" value="PREFILLED"');
    expect(res.raw).toContain('<option value="CBT" selected>');
    expect(res.raw).toContain(`name="redirect_uri" value="${REDIRECT}"`);
    expect(res.raw).toContain('name="code_challenge" value="abc"');
    expect(res.raw).toContain('id="allow"');
  });

  it("answers an error page for an unknown client_id, a bad response_type or an unregistered redirect_uri", async () => {
    const unknown = await authorize({ client_id: "999" });
    expect(unknown.status).toBe(400);
    expect(unknown.raw).toContain("client_id inválido");
    expect((await authorize({ response_type: "token" })).status).toBe(400);
    t.control.setApp({ redirectUris: ["https://erp.example.com/other"] });
    const mismatch = await authorize();
    expect(mismatch.status).toBe(400);
    expect(mismatch.raw).toContain("redirect_uri no coincide");
    expect((await consent()).res.status).toBe(400);
    t.control.setApp({ redirectUris: [REDIRECT] });
    expect((await authorize()).status).toBe(200);
  });

  it("escapes what it echoes", async () => {
    const res = await authorize({ state: '"><script>alert(1)</script>' });
    expect(res.raw).not.toContain("<script>alert(1)</script>");
    expect(res.raw).toContain("&lt;script&gt;");
  });

  it("redirects with a single-use code and the state on Permitir, creating the seller once", async () => {
    const first = await consent();
    expect(first.res.status).toBe(302);
    expect(first.location!.origin + first.location!.pathname).toBe(REDIRECT);
    expect(first.location!.searchParams.get("state")).toBe("st-1");
    expect(first.location!.searchParams.get("code")).toMatch(/^TG-[0-9a-f]{24}-\d+$/);
    const second = await consent({ site: "MLB" });
    const userId = (code: string) => Number(code.split("-").pop());
    expect(userId(second.location!.searchParams.get("code")!)).toBe(userId(first.location!.searchParams.get("code")!));
    // An existing seller keeps its site.
    const token = await exchange(second.location!.searchParams.get("code")!);
    const me = await t.call("GET", "/users/me", { token: token.body.access_token });
    expect(me.body).toMatchObject({ nickname: "SELLER_A", site_id: "MLM", country_id: "MX" });
  });

  it("redirects with error=access_denied on Cancelar, and refuses a bad nickname on the page", async () => {
    const denied = await consent({ decision: "deny" });
    expect(denied.res.status).toBe(302);
    expect(denied.location!.searchParams.get("error")).toBe("access_denied");
    expect(denied.location!.searchParams.get("state")).toBe("st-1");
    expect(denied.location!.searchParams.get("code")).toBeNull();
    const bad = await consent({ nickname: "a b" });
    expect(bad.res.status).toBe(400);
    expect(bad.res.raw).toContain('class="error"');
  });

  it("asks for the seller's password: a wrong one, an unknown nickname or a taken one gives no code", async () => {
    expect((await authorize()).raw).toContain('type="password" id="password" name="password"');
    const noSeller = await consent({ signup: [] });
    expect(noSeller.res.status).toBe(401);
    expect(noSeller.res.raw).toContain("Apodo o contraseña incorrectos");
    const short = await consent({ password: "12345" });
    expect(short.res.status).toBe(400);
    expect(t.control.sellerByNickname("SELLER_A")).toBeNull();

    expect((await consent()).res.status).toBe(302); // signed up
    const signIn = await consent({ signup: [] });
    expect(signIn.res.status).toBe(302);
    for (const [form, status] of [
      [{ signup: [], password: "wrong-pass" }, 401],
      [{ password: "wrong-pass" }, 409],
      [{ signup: [], password: "" }, 400],
    ] as const) {
      const refused = await consent(form as Record<string, string | string[]>);
      expect(refused.res.status, JSON.stringify(form)).toBe(status);
      expect(refused.location).toBeNull();
      expect(refused.res.raw).toContain('id="error"');
      expect(refused.res.raw).not.toContain("wrong-pass");
    }
  });

  it("a seller made through the controls signs in with the password it was given", async () => {
    t.control.createSeller({ nickname: "CONTROL_SELLER", password: "control-pass" });
    expect((await consent({ nickname: "CONTROL_SELLER", password: "control-pass", signup: [] })).res.status).toBe(302);
    expect((await consent({ nickname: "CONTROL_SELLER", password: SELLER_PASSWORD, signup: [] })).res.status).toBe(401);
    const byHttp = await t.call("POST", "/_sandbox/sellers", { body: { nickname: "HTTP_SELLER", password: "http-pass-1" } });
    expect(byHttp.status).toBe(200);
    expect((await consent({ nickname: "HTTP_SELLER", password: "http-pass-1", signup: [] })).res.status).toBe(302);
    expect((await t.call("POST", "/_sandbox/sellers", { body: { nickname: "SHORT_PASS", password: "1" } })).status).toBe(400);
  });
});

describe("POST /oauth/token", () => {
  it("exchanges a code for the real answer's fields, once", async () => {
    const { location } = await consent();
    const code = location!.searchParams.get("code")!;
    const res = await exchange(code);
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 21600, scope: "offline_access read write" });
    expect(res.body.access_token).toMatch(new RegExp(`^APP_USR-${client.clientId}-\\d{6}-[0-9a-f]{32}-${res.body.user_id}$`));
    expect(res.body.refresh_token).toMatch(/^TG-/);
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: "invalid_grant", status: 400 });
    expect(again.body.error_description).toContain("already used");
  });

  it("refuses a code after 10 minutes, or with another redirect_uri (and spends it)", async () => {
    const late = (await consent()).location!.searchParams.get("code")!;
    t.control.clock.advance(10 * 60_000 + 1);
    expect((await exchange(late)).body.error).toBe("invalid_grant");
    const code = (await consent()).location!.searchParams.get("code")!;
    const wrong = await exchange(code, { redirect_uri: "https://erp.example.com/elsewhere" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
    expect((await exchange(code)).body.error).toBe("invalid_grant");
  });

  it("checks the PKCE verifier against the challenge", async () => {
    const verifier = "v".repeat(50);
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const c1 = (await consent({ code_challenge: challenge, code_challenge_method: "S256" })).location!.searchParams.get("code")!;
    expect((await exchange(c1, { code_verifier: "wrong" })).body.error).toBe("invalid_grant");
    const c2 = (await consent({ code_challenge: challenge, code_challenge_method: "S256" })).location!.searchParams.get("code")!;
    expect((await exchange(c2)).body.error).toBe("invalid_grant");
    const c3 = (await consent({ code_challenge: challenge, code_challenge_method: "S256" })).location!.searchParams.get("code")!;
    expect((await exchange(c3, { code_verifier: verifier })).status).toBe(200);
  });

  it("rotates refresh tokens: each works once and only the newest works", async () => {
    const first = await t.connect("SELLER_R");
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    const reused = await refresh(first.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: "invalid_grant", status: 400 });
    // The refused reuse did not spend the newest one.
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(200);
    expect((await refresh(second.body.refresh_token)).body.error).toBe("invalid_grant");
    const me = await t.call("GET", "/users/me", { token: third.body.access_token });
    expect(me.body.id).toBe(first.user_id);
  });

  it("lets only one of two concurrent refreshes of one token win", async () => {
    const { refresh_token } = await t.connect("SELLER_RACE");
    const [a, b] = await Promise.all([refresh(refresh_token), refresh(refresh_token)]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
  });

  it("accepts only form bodies: a JSON body or parameters in the query are invalid_request", async () => {
    const { location } = await consent();
    const code = location!.searchParams.get("code")!;
    const params = {
      grant_type: "authorization_code",
      client_id: client.clientId,
      client_secret: client.clientSecret,
      code,
      redirect_uri: REDIRECT,
    };
    const json = await t.call("POST", "/oauth/token", { body: params });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe("invalid_request");
    const inQuery = await t.call("POST", "/oauth/token", { query: params, form: {} });
    expect(inQuery.body.error).toBe("invalid_request");
    // Neither attempt spent the code.
    expect((await exchange(code)).status).toBe(200);
  });

  it("answers invalid_client, unsupported_grant_type and invalid_request by the OAuth rules", async () => {
    const { location } = await consent();
    const code = location!.searchParams.get("code")!;
    const badSecret = await exchange(code, { client_secret: "nope" });
    expect(badSecret.status).toBe(400);
    expect(badSecret.body).toMatchObject({ error: "invalid_client", error_description: expect.any(String), status: 400 });
    const grant = await t.call("POST", "/oauth/token", {
      form: { grant_type: "client_credentials", client_id: client.clientId, client_secret: client.clientSecret },
    });
    expect(grant.body.error).toBe("unsupported_grant_type");
    const missing = await t.call("POST", "/oauth/token", { form: { client_id: client.clientId } });
    expect(missing.body.error).toBe("invalid_request");
    const noCode = await exchange("", {});
    expect(noCode.body.error).toBe("invalid_request");
    // The code survived the refused attempts that never reached it.
    expect((await exchange(code)).status).toBe(200);
  });

  it("honours the app credentials set through the control API", async () => {
    t.control.setApp({ clientId: "777", clientSecret: "s3cret" });
    client = t.control.app();
    const tokens = await t.connect("SELLER_APP");
    expect(tokens.access_token).toMatch(/^APP_USR-777-/);
  });
});

describe("access tokens", () => {
  it("expire after expires_in on the sandbox clock, with the real 401 body", async () => {
    const { access_token } = await t.connect("SELLER_EXP");
    t.control.clock.advance(21600 * 1000 - 1000);
    expect((await t.call("GET", "/users/me", { token: access_token })).status).toBe(200);
    t.control.clock.advance(1000);
    const expired = await t.call("GET", "/users/me", { token: access_token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(INVALID_TOKEN);
  });

  it("take their lifetime from the setting", async () => {
    t.control.setAccessTokenSeconds(60);
    const tokens = await t.connect("SELLER_SHORT");
    expect(tokens).toMatchObject({ expires_in: 60 });
    t.control.clock.advance(60_000);
    expect((await t.call("GET", "/users/me", { token: tokens.access_token })).status).toBe(401);
  });

  it("are required on API calls: missing or unknown answers 401 invalid_token", async () => {
    expect((await t.call("GET", "/users/me")).body).toEqual(INVALID_TOKEN);
    expect((await t.call("GET", "/users/me", { token: "APP_USR-made-up" })).body).toEqual(INVALID_TOKEN);
    // Public category reads work without a token, but a bad one is still refused.
    expect((await t.call("GET", "/sites/MLM/categories")).status).toBe(200);
    expect((await t.call("GET", "/sites/MLM/categories", { token: "bad" })).status).toBe(401);
  });
});

describe("users", () => {
  it("/users/me describes the seller; /users/{id} shows another seller's public data only", async () => {
    const a = await t.connect("SELLER_ME");
    const b = await t.connect("SELLER_OTHER", "MLB");
    const me = await t.call("GET", "/users/me", { token: a.access_token });
    expect(me.body).toMatchObject({
      id: a.user_id,
      nickname: "SELLER_ME",
      site_id: "MLM",
      country_id: "MX",
      status: { site_status: "active" },
    });
    expect(me.body.seller_reputation).toHaveProperty("transactions");
    expect(me.body.email).toContain("@");
    const other = await t.call("GET", `/users/${b.user_id}`, { token: a.access_token });
    expect(other.body).toMatchObject({ id: b.user_id, site_id: "MLB", country_id: "BR" });
    expect(other.body.email).toBeUndefined();
    expect((await t.call("GET", "/users/1", { token: a.access_token })).status).toBe(404);
  });

  it("a global seller is CBT with one user per marketplace site, and caps per site", async () => {
    const g = await t.connect("GLOBAL_1", "CBT", ["MLM", "MLB"]);
    const me = await t.call("GET", "/users/me", { token: g.access_token });
    expect(me.body).toMatchObject({ id: g.user_id, site_id: "CBT" });
    const market = await t.call("GET", `/marketplace/users/${g.user_id}`, { token: g.access_token });
    expect(market.status).toBe(200);
    expect(market.body.user_id).toBe(g.user_id);
    expect(market.body.site_id).toBe("CBT");
    expect(market.body.marketplaces.map((m: { site_id: string }) => m.site_id)).toEqual(["MLM", "MLB"]);
    for (const m of market.body.marketplaces) {
      expect(m.user_id).not.toBe(g.user_id);
      expect(m.logistic_type).toBe("remote");
      const local = await t.call("GET", `/users/${m.user_id}`, { token: g.access_token });
      expect(local.body.site_id).toBe(m.site_id);
    }
    const cap = await t.call("GET", "/marketplace/users/cap", { token: g.access_token });
    expect(cap.body).toEqual([
      { site_id: "MLM", quota: 10000, total_items: 0 },
      { site_id: "MLB", quota: 10000, total_items: 0 },
    ]);
    const local = await t.connect("LOCAL_1");
    expect((await t.call("GET", `/marketplace/users/${g.user_id}`, { token: local.access_token })).body.error).toBe("access_denied");
    expect((await t.call("GET", "/marketplace/users/cap", { token: local.access_token })).status).toBe(403);
  });
});
