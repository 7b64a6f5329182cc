// loadConfig: defaults, refused values named by their setting (secrets never echoed), the signing key generated into
// DATA_DIR once and reused, and the api/worker split refused without PostgreSQL.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, loadSandboxConfig } from "./config.ts";
import { databaseOptionsFromConfig } from "./db/client.ts";

const KEY = "k".repeat(32);
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "erp-config-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The ConfigError thrown for env, or fails. */
function refusal(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe("loadConfig defaults", () => {
  it("fills every setting from an empty environment", () => {
    // A given key, so the default DATA_DIR (./data of the working directory) is not written to.
    const c = loadConfig({ TOKEN_SIGNING_KEY: KEY });
    expect(c).toEqual({
      port: 3000,
      host: "0.0.0.0",
      dataDir: resolve("./data"),
      databaseUrl: undefined,
      adminPassword: undefined,
      tokenSigningKey: KEY,
      corsOrigins: [],
      logLevel: "info",
      smtpUrl: undefined,
      mailFrom: "no-reply@localhost",
      dbPoolSize: 20,
      dbLockTimeoutMs: 5_000,
      dbStatementTimeoutMs: 30_000,
      dbBulkStatementTimeoutMs: 300_000,
      pgliteWorker: true,
      loginRateLimitPerMinute: 60,
      bodyLimitBytes: 10 * 1024 * 1024,
      role: "all",
      lockoutAttempts: 5,
      lockoutSeconds: 300,
      passwordHashCost: 16384,
      accessTokenSeconds: 3600,
      refreshTokenSeconds: 14 * 24 * 3600,
      crawl: {
        allowPrivate: false,
        timeoutMs: 20_000,
        maxBodyBytes: 5 * 1024 * 1024,
        maxRedirects: 5,
        perHostConcurrency: 2,
        maxAttempts: 4,
        retryBaseSeconds: 5,
      },
      meliApiUrl: "http://127.0.0.1:3000/sandbox/meli",
      meliAuthUrl: "http://localhost:3000/sandbox/meli/auth",
      meliClientId: "5400000000000001",
      meliClientSecret: "",
      meliSandbox: true,
      publicUrl: "http://localhost:3000",
      demoData: true,
      checkAnswers: false,
    });
  });

  it("turns the demo content off with DEMO_DATA=0", () => {
    expect(loadConfig({ TOKEN_SIGNING_KEY: KEY, DEMO_DATA: "0" }).demoData).toBe(false);
    expect(() => loadConfig({ TOKEN_SIGNING_KEY: KEY, DEMO_DATA: "off" })).toThrow(/DEMO_DATA/);
  });

  it("runs PGlite in its worker thread unless PGLITE_WORKER is 0", () => {
    expect(loadConfig({ TOKEN_SIGNING_KEY: KEY, PGLITE_WORKER: "0" }).pgliteWorker).toBe(false);
    expect(loadConfig({ TOKEN_SIGNING_KEY: KEY, PGLITE_WORKER: "true" }).pgliteWorker).toBe(true);
    expect(() => loadConfig({ TOKEN_SIGNING_KEY: KEY, PGLITE_WORKER: "no" })).toThrow(/PGLITE_WORKER/);
  });

  it("lets CRAWL_ALLOW_PRIVATE lift the crawler's address check only when set", () => {
    expect(loadConfig({ TOKEN_SIGNING_KEY: KEY, CRAWL_ALLOW_PRIVATE: "1" }).crawl.allowPrivate).toBe(true);
    expect(loadConfig({ TOKEN_SIGNING_KEY: KEY, CRAWL_ALLOW_PRIVATE: "0" }).crawl.allowPrivate).toBe(false);
    expect(() => loadConfig({ TOKEN_SIGNING_KEY: KEY, CRAWL_ALLOW_PRIVATE: "yes" })).toThrow(/CRAWL_ALLOW_PRIVATE/);
  });

  it("treats empty and blank variables as unset and ignores unrelated ones", () => {
    const c = loadConfig({
      TOKEN_SIGNING_KEY: KEY,
      PORT: "",
      HOST: "  ",
      LOG_LEVEL: "",
      DATABASE_URL: "",
      PATH: "/usr/bin",
      HOME: "/root",
    });
    expect(c).toMatchObject({ port: 3000, host: "0.0.0.0", logLevel: "info", databaseUrl: undefined });
  });

  it("reads given values", () => {
    const dataDir = tempDir();
    const c = loadConfig({
      PORT: " 8080 ",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "postgresql://u:p@db:5432/erp",
      ADMIN_PASSWORD: "secret1",
      CORS_ORIGINS: " https://a.example , https://b.example,,",
      LOG_LEVEL: "warn",
      SMTP_URL: "smtps://u:p@mail:465",
      MAIL_FROM: "erp@example.com",
      DB_POOL_SIZE: "5",
      LOGIN_RATE_LIMIT_PER_MINUTE: "7",
      BODY_LIMIT_BYTES: "2048",
      ROLE: "api",
    });
    expect(c).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      dataDir,
      databaseUrl: "postgresql://u:p@db:5432/erp",
      adminPassword: "secret1",
      corsOrigins: ["https://a.example", "https://b.example"],
      logLevel: "warn",
      smtpUrl: "smtps://u:p@mail:465",
      mailFrom: "erp@example.com",
      dbPoolSize: 5,
      loginRateLimitPerMinute: 7,
      bodyLimitBytes: 2048,
      role: "api",
    });
  });

  it("accepts PORT=0 (any free port) and the edges of the ranges", () => {
    expect(loadConfig({ TOKEN_SIGNING_KEY: KEY, PORT: "0" }).port).toBe(0);
    expect(loadConfig({ TOKEN_SIGNING_KEY: KEY, PORT: "65535", DB_POOL_SIZE: "200", BODY_LIMIT_BYTES: "1024" })).toMatchObject({
      port: 65535,
      dbPoolSize: 200,
      bodyLimitBytes: 1024,
    });
  });
});

describe("loadConfig refuses a bad value, naming the setting", () => {
  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "-1"],
    ["PORT", "80.5"],
    ["PORT", "0x50"],
    ["PORT", "1e3"],
    ["DATABASE_URL", "mysql://x"],
    ["DATABASE_URL", "localhost:5432/db"],
    ["ADMIN_PASSWORD", "12345"],
    ["TOKEN_SIGNING_KEY", "too-short-key"],
    ["LOG_LEVEL", "loud"],
    ["LOG_LEVEL", "WARN"],
    ["SMTP_URL", "http://mail"],
    ["DB_POOL_SIZE", "0"],
    ["DB_POOL_SIZE", "201"],
    ["DB_POOL_SIZE", "many"],
    ["DB_LOCK_TIMEOUT_MS", "50"],
    ["DB_STATEMENT_TIMEOUT_MS", "soon"],
    ["LOGIN_RATE_LIMIT_PER_MINUTE", "0"],
    ["BODY_LIMIT_BYTES", "100"],
    ["ROLE", "boss"],
    ["MELI_API_URL", "ftp://api.example"],
    ["MELI_AUTH_URL", "auth.example"],
  ])("%s=%s", (name, value) => {
    const e = refusal({ TOKEN_SIGNING_KEY: KEY, DATA_DIR: tempDir(), [name]: value });
    expect(e.message).toMatch(new RegExp(`^\\s+${name}: \\S`, "m"));
    // Only the named setting is blamed.
    expect(e.message.split("\n").filter((l) => /^\s+[A-Z_]+:/.test(l))).toHaveLength(1);
  });

  it("names every bad setting at once", () => {
    const e = refusal({ PORT: "abc", LOG_LEVEL: "loud", DB_POOL_SIZE: "0", TOKEN_SIGNING_KEY: KEY });
    expect(e.message).toMatch(/^\s+PORT:/m);
    expect(e.message).toMatch(/^\s+LOG_LEVEL:/m);
    expect(e.message).toMatch(/^\s+DB_POOL_SIZE:/m);
  });

  it("does not echo secret values", () => {
    const e = refusal({
      DATABASE_URL: "mysql://root:hunter2-db@db/erp",
      ADMIN_PASSWORD: "pw1",
      TOKEN_SIGNING_KEY: "signing-secret",
      SMTP_URL: "http://u:hunter2-mail@mail",
    });
    for (const secret of ["hunter2-db", "pw1", "signing-secret", "hunter2-mail"]) expect(e.message).not.toContain(secret);
    for (const name of ["DATABASE_URL", "ADMIN_PASSWORD", "TOKEN_SIGNING_KEY", "SMTP_URL"]) expect(e.message).toContain(name);
  });

  it("writes nothing to DATA_DIR for a refused configuration", () => {
    const dataDir = tempDir();
    refusal({ DATA_DIR: dataDir, PORT: "abc" });
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe("Mercado Libre settings", () => {
  it("take PUBLIC_URL (without a trailing slash) as the address sellers come back to", () => {
    expect(loadConfig({ TOKEN_SIGNING_KEY: KEY, PUBLIC_URL: "https://erp.example.com/" }).publicUrl).toBe("https://erp.example.com");
    expect(loadConfig({ TOKEN_SIGNING_KEY: KEY, PORT: "4100" }).publicUrl).toBe("http://localhost:4100");
    expect(refusal({ TOKEN_SIGNING_KEY: KEY, PUBLIC_URL: "erp.example.com" }).message).toMatch(/PUBLIC_URL/);
  });

  it("point at the mounted sandbox when MELI_API_URL is unset, on the configured port", () => {
    const c = loadConfig({
      TOKEN_SIGNING_KEY: KEY,
      PORT: "4100",
      MELI_CLIENT_ID: "123",
      MELI_AUTH_URL: "https://erp.example/sandbox/meli/auth/",
    });
    expect(c).toMatchObject({
      meliSandbox: true,
      meliApiUrl: "http://127.0.0.1:4100/sandbox/meli",
      meliAuthUrl: "https://erp.example/sandbox/meli/auth",
      meliClientId: "123",
      meliClientSecret: "",
    });
  });

  it("go live with MELI_API_URL, which then needs the auth URL and the app's credentials", () => {
    const live = {
      TOKEN_SIGNING_KEY: KEY,
      MELI_API_URL: "https://api.mercadolibre.com/",
      MELI_AUTH_URL: "https://auth.mercadolibre.com.mx",
      MELI_CLIENT_ID: "1620218256833906",
      MELI_CLIENT_SECRET: "live-secret",
    };
    expect(loadConfig(live)).toMatchObject({
      meliSandbox: false,
      meliApiUrl: "https://api.mercadolibre.com",
      meliAuthUrl: "https://auth.mercadolibre.com.mx",
      meliClientId: "1620218256833906",
      meliClientSecret: "live-secret",
    });
    const e = refusal({ TOKEN_SIGNING_KEY: KEY, MELI_API_URL: live.MELI_API_URL, MELI_CLIENT_SECRET: "live-secret" });
    expect(e.message).toMatch(/^\s+MELI_AUTH_URL: required when MELI_API_URL is set/m);
    expect(e.message).toMatch(/^\s+MELI_CLIENT_ID: /m);
    expect(e.message).not.toMatch(/MELI_CLIENT_SECRET/);
    expect(e.message).not.toContain("live-secret");
  });

  it("for the sandbox run alone: SANDBOX_PORT (default 3900) and the app credentials", () => {
    expect(loadSandboxConfig({})).toEqual({
      port: 3900,
      host: "0.0.0.0",
      clientId: "5400000000000001",
      clientSecret: "sandbox-client-secret",
    });
    expect(loadSandboxConfig({ SANDBOX_PORT: "4000", MELI_CLIENT_ID: "9" })).toMatchObject({ port: 4000, clientId: "9" });
    expect(() => loadSandboxConfig({ SANDBOX_PORT: "x" })).toThrow(/SANDBOX_PORT/);
  });
});

describe("the token signing key", () => {
  it("is generated into DATA_DIR on first use (created if missing), readable only by its owner, and reused after", () => {
    const dataDir = join(tempDir(), "nested", "data");
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = join(dataDir, "token-signing.key");
    expect(existsSync(file)).toBe(true);
    expect(first.tokenSigningKey.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, "utf8").trim()).toBe(first.tokenSigningKey);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual(["token-signing.key"]);

    const again = loadConfig({ DATA_DIR: dataDir });
    expect(again.tokenSigningKey).toBe(first.tokenSigningKey);
    expect(readdirSync(dataDir)).toEqual(["token-signing.key"]);
  });

  it("differs between data directories", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).tokenSigningKey).not.toBe(loadConfig({ DATA_DIR: tempDir() }).tokenSigningKey);
  });

  it("TOKEN_SIGNING_KEY wins and nothing is written", () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, "token-signing.key"), "f".repeat(48));
    const given = "g".repeat(40);
    expect(loadConfig({ DATA_DIR: dataDir, TOKEN_SIGNING_KEY: given }).tokenSigningKey).toBe(given);
    const empty = tempDir();
    loadConfig({ DATA_DIR: empty, TOKEN_SIGNING_KEY: given });
    expect(readdirSync(empty)).toEqual([]);
  });

  it("a key file too short to be safe is refused, not used", () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, "token-signing.key"), "\n");
    expect(refusal({ DATA_DIR: dataDir }).message).toMatch(/TOKEN_SIGNING_KEY: .*token-signing\.key/);
  });

  it("a DATA_DIR that is a file is refused naming DATA_DIR", () => {
    const file = join(tempDir(), "not-a-dir");
    writeFileSync(file, "x");
    expect(refusal({ DATA_DIR: file }).message).toMatch(/^\s+DATA_DIR: cannot create/m);
  });
});

describe("ROLE", () => {
  it.each(["worker", "api"])("ROLE=%s without DATABASE_URL is refused (PGlite has one owner process)", (role) => {
    expect(refusal({ ROLE: role, TOKEN_SIGNING_KEY: KEY }).message).toMatch(/^\s+ROLE: .*DATABASE_URL/m);
  });

  it("ROLE=worker or api with DATABASE_URL is accepted; ROLE=all needs nothing", () => {
    const url = "postgres://root@127.0.0.1:5432/erp";
    expect(loadConfig({ ROLE: "worker", DATABASE_URL: url, TOKEN_SIGNING_KEY: KEY }).role).toBe("worker");
    expect(loadConfig({ ROLE: "api", DATABASE_URL: url, TOKEN_SIGNING_KEY: KEY }).role).toBe("api");
    expect(loadConfig({ ROLE: "all", TOKEN_SIGNING_KEY: KEY }).role).toBe("all");
  });
});

describe("DATABASE_DIRECT_URL", () => {
  const pooled = "postgres://erp@pgbouncer:6432/erp";
  const direct = "postgres://erp@db:5432/erp";

  it("defaults to DATABASE_URL: one direct connection string serves the pool and the session work", () => {
    const c = loadConfig({ DATABASE_URL: direct, TOKEN_SIGNING_KEY: KEY });
    expect(c.databaseDirectUrl).toBe(direct);
    expect(databaseOptionsFromConfig(c)).toMatchObject({ kind: "postgres", url: direct, directUrl: direct });
  });

  it("set beside a pooled DATABASE_URL, the pool goes through the pooler and session work connects directly", () => {
    const c = loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct, ROLE: "api", TOKEN_SIGNING_KEY: KEY });
    expect(c).toMatchObject({ databaseUrl: pooled, databaseDirectUrl: direct, role: "api" });
    expect(databaseOptionsFromConfig(c)).toMatchObject({ kind: "postgres", url: pooled, directUrl: direct });
  });

  it("is refused without DATABASE_URL, and when it is not a PostgreSQL URL, naming the setting", () => {
    expect(refusal({ DATABASE_DIRECT_URL: direct, TOKEN_SIGNING_KEY: KEY }).message).toMatch(
      /^\s+DATABASE_DIRECT_URL: needs DATABASE_URL/m,
    );
    expect(refusal({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: "db:5432/erp", TOKEN_SIGNING_KEY: KEY }).message).toMatch(
      /^\s+DATABASE_DIRECT_URL: must start with postgres:\/\//m,
    );
  });

  it("on PGlite (no DATABASE_URL) there is none", () => {
    expect(loadConfig({ TOKEN_SIGNING_KEY: KEY, DATA_DIR: tempDir() }).databaseDirectUrl).toBeUndefined();
  });
});
