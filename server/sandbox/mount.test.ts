// The sandbox as the app mounts it by default: at /sandbox/meli with the configured app credentials, the whole OAuth
// flow through the app's HTTP stack (its form parser included), answers in Mercado Libre's shape rather than the app's
// envelope, nothing in the OpenAPI document, and not mounted at all when MELI_API_URL points elsewhere.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, SANDBOX_SECRET_FILE, withSandboxSecret } from "../config.ts";
import { SANDBOX_STATE_FILE } from "./sandbox.ts";
import { DEFAULT_CLIENT_SECRET } from "./store.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const form = (values: Record<string, string>) => ({
  headers: { "content-type": "application/x-www-form-urlencoded" },
  payload: new URLSearchParams(values).toString(),
});

describe("the mounted sandbox", () => {
  it("serves none of the sandbox's controls over HTTP (the app's secret, the clock, the sellers)", async () => {
    const before = server.deps.sandbox!.control.app();
    for (const [method, path] of [
      ["GET", "/_sandbox/state"],
      ["POST", "/_sandbox/app"],
      ["POST", "/_sandbox/clock"],
      ["POST", "/_sandbox/reset"],
      ["GET", "/_sandbox/creations"],
    ] as const) {
      const res = await server.app.inject({
        method,
        url: `/sandbox/meli${path}`,
        payload: method === "POST" ? { clientSecret: "x" } : undefined,
      });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    expect(server.deps.sandbox!.control.app()).toEqual(before);
  });

  it("runs the OAuth flow at the configured URLs with the configured credentials", async () => {
    const { config, sandbox } = server.deps;
    expect(config.meliSandbox).toBe(true);
    expect(sandbox!.control.app()).toMatchObject({ clientId: config.meliClientId, clientSecret: config.meliClientSecret });
    const authPath = `${new URL(config.meliAuthUrl).pathname}/authorization`;
    const apiPath = new URL(config.meliApiUrl).pathname;
    expect(authPath).toBe("/sandbox/meli/auth/authorization");
    expect(apiPath).toBe("/sandbox/meli");

    const redirect = "http://localhost:3000/api/Meli/AuthBack";
    const page = await server.app.inject({
      method: "GET",
      url: authPath,
      query: { response_type: "code", client_id: config.meliClientId, redirect_uri: redirect, state: "abc" },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('action="authorization"');
    const consent = await server.app.inject({
      method: "POST",
      url: authPath,
      ...form({
        response_type: "code",
        client_id: config.meliClientId,
        redirect_uri: redirect,
        state: "abc",
        nickname: "MOUNTED_SELLER",
        password: "mounted-pass",
        signup: "1",
        site: "MLB",
        decision: "allow",
      }),
    });
    expect(consent.statusCode).toBe(302);
    const back = new URL(String(consent.headers.location));
    expect(back.searchParams.get("state")).toBe("abc");
    const token = await server.app.inject({
      method: "POST",
      url: `${apiPath}/oauth/token`,
      ...form({
        grant_type: "authorization_code",
        client_id: config.meliClientId,
        client_secret: config.meliClientSecret,
        code: back.searchParams.get("code")!,
        redirect_uri: redirect,
      }),
    });
    expect(token.statusCode).toBe(200);
    const me = await server.api("GET", `${apiPath}/users/me`, { token: token.json().access_token });
    expect(me.body).toMatchObject({ nickname: "MOUNTED_SELLER", site_id: "MLB" });
    expect(sandbox!.control.callCount("GET /users/me")).toBe(1);

    // Kept in DATA_DIR: after the call (or on close) the file holds the seller and its token.
    sandbox!.store.flush();
    const saved = readFileSync(join(config.dataDir, SANDBOX_STATE_FILE), "utf8");
    expect(saved).toContain("MOUNTED_SELLER");
    expect(saved).toContain(token.json().access_token);
    expect(saved).not.toContain("mounted-pass");
  });

  it("has an application secret of its own installation, kept in DATA_DIR, not the built-in one", async () => {
    const { config } = server.deps;
    expect(config.meliClientSecret).not.toBe(DEFAULT_CLIENT_SECRET);
    expect(config.meliClientSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(config.dataDir, SANDBOX_SECRET_FILE), "utf8").trim()).toBe(config.meliClientSecret);
    // The same DATA_DIR gives the same secret; another gives another.
    const load = (dir: string) => withSandboxSecret(loadConfig({ DATA_DIR: dir, TOKEN_SIGNING_KEY: "k".repeat(32) }));
    expect(load(config.dataDir).meliClientSecret).toBe(config.meliClientSecret);
    expect(load(mkdtempSync(join(tmpdir(), "erp-secret-"))).meliClientSecret).not.toBe(config.meliClientSecret);
    // MELI_CLIENT_SECRET, when given, is the secret.
    expect(
      withSandboxSecret(loadConfig({ DATA_DIR: config.dataDir, TOKEN_SIGNING_KEY: "k".repeat(32), MELI_CLIENT_SECRET: "given" }))
        .meliClientSecret,
    ).toBe("given");
  });

  it("answers in Mercado Libre's shape, never the app's envelope", async () => {
    const unauthorized = await server.api("GET", "/sandbox/meli/users/me");
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toEqual({ message: "invalid access token", error: "invalid_token", status: 401, cause: [] });
    expect(unauthorized.headers._abperrorformat).toBeUndefined();
    const missing = await server.api("GET", "/sandbox/meli/no/such/path");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: "not_found", status: 404 });
    const json = await server.app.inject({
      method: "POST",
      url: "/sandbox/meli/oauth/token",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ error: "bad_request", status: 400, cause: [] });
    const site = await server.api("GET", "/sandbox/meli/sites/MLX/categories");
    expect(site.body).toEqual({ message: "Invalid site_id: MLX", error: "not_found", status: 404, cause: [] });
    // The app's own routes keep their envelope.
    const app404 = await server.api("GET", "/api/NoSuch/Call");
    expect(app404.body.error).toMatchObject({ code: "NotFound" });
  });

  it("stays out of the OpenAPI document", async () => {
    const doc = await server.api("GET", "/swagger/json");
    expect(doc.status).toBe(200);
    const paths = Object.keys(doc.body.paths);
    expect(paths.length).toBeGreaterThan(10);
    // The sandbox's own routes (the app's host calls for it, /api/MeliSandbox/*, are documented).
    expect(paths.filter((p) => p.toLowerCase().startsWith("/sandbox"))).toEqual([]);
  });
});

describe("with MELI_API_URL set", () => {
  it("is not mounted", async () => {
    const live = await startTestServer({ meliSandbox: false, meliApiUrl: "https://api.mercadolibre.com" });
    try {
      expect(live.deps.sandbox).toBeNull();
      const res = await live.api("GET", "/sandbox/meli/sites/MLM/categories");
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: "NotFound" });
    } finally {
      await live.close();
    }
  });
});
