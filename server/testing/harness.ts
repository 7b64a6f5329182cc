// Starts the real app on a fresh migrated database for a test file, and speaks to it through the full HTTP stack
// (Fastify's inject): routing, validation, auth, tenancy, error envelope.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.ts";
import { createDeps, createLogger, type AppDeps } from "../deps.ts";
import { loadConfig, type Config } from "../config.ts";
import { bootstrap } from "../bootstrap.ts";
import type { Database } from "../db/client.ts";
import { hostAllScope, inScope } from "../db/scope.ts";
import { createJobs, type Jobs } from "../jobs/queue.ts";
import { createFirstStart } from "../modules/demo/first-start.ts";
import { createPasswordHasher } from "../modules/identity/passwords.ts";
import { insertTenantWithMainAccount } from "../modules/identity/users.ts";
import { openTestDatabase } from "./templates.ts";
import { closeWithin } from "../shutdown.ts";

export const ADMIN_PASSWORD = "Admin123456";

export type ApiOptions = {
  token?: string;
  tenant?: string;
  query?: Record<string, string | number | boolean | (string | number)[]>;
  body?: unknown;
  headers?: Record<string, string>;
};

export type ApiResponse = { status: number; body: any; headers: Record<string, unknown>; raw: string };

/** A multipart/form-data body with one file part (field `file` unless told). */
export function multipartFile(filename: string, content: Uint8Array, opts: { field?: string; contentType?: string } = {}) {
  const boundary = `----erp${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? "file"}"; filename="${filename}"\r\n` +
      `Content-Type: ${opts.contentType ?? "image/png"}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export type TestTenant = { tenantId: string; tenantName: string; userName: string; password: string; userId: string; token: string };

export type TestServer = {
  app: FastifyInstance;
  deps: AppDeps;
  database: Database;
  api(method: string, url: string, opts?: ApiOptions): Promise<ApiResponse>;
  /** Password grant; answers the whole token response, throwing when refused. */
  login(
    userName: string,
    password: string,
    tenant?: string,
    extra?: Record<string, string>,
  ): Promise<{ access_token: string; refresh_token?: string }>;
  adminToken(): Promise<string>;
  createTenant(name?: string): Promise<TestTenant>;
  createSubUser(
    owner: TestTenant,
    userName?: string,
    extra?: Record<string, unknown>,
  ): Promise<{ id: string; userName: string; password: string; token: string }>;
  /** Holds back the jobs named `name`: their handler waits until the returned release is called (to see what a call
   *  did before its job ran, without timing it). */
  holdJobs(name: string): () => void;
  close(): Promise<void>;
};

export const uniqueName = (prefix: string) => `${prefix}${randomBytes(4).toString("hex")}`;

export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const config: Config = {
    ...loadConfig({
      DATA_DIR: mkdtempSync(join(tmpdir(), "erp-test-")),
      TOKEN_SIGNING_KEY: randomBytes(48).toString("base64url"),
      LOG_LEVEL: "silent",
      LOGIN_RATE_LIMIT_PER_MINUTE: "1000000",
      // A test that wants the first start's demo content and category sync passes { demoData: true }.
      DEMO_DATA: "0",
      // Every answer is checked against its call's declared result: a drift fails the test that met it.
      CHECK_ANSWERS: "1",
    }),
    // scrypt at N=1024 (about 3 ms, against 50 ms at the default): a run makes thousands of accounts and logins, and
    // what a test checks of a hash (its format, that only its password matches) holds at any cost.
    passwordHashCost: 1024,
    ...overrides,
  };
  const database = await openTestDatabase();
  const boot = await bootstrap(database.db, {
    adminPassword: ADMIN_PASSWORD,
    withDemo: config.demoData,
    passwords: createPasswordHasher(config.passwordHashCost),
  });
  const log = createLogger(config);
  // The queue, with the handlers of held job names waiting for their release.
  const held = new Map<string, Promise<void>>();
  const queue = createJobs(database, log);
  const jobs: Jobs = {
    ...queue,
    handle: (name, handler, options) =>
      queue.handle(
        name,
        async (data) => {
          await held.get(name);
          return handler(data);
        },
        options,
      ),
  };
  function holdJobs(name: string) {
    let release!: () => void;
    held.set(name, new Promise<void>((resolve) => (release = resolve)));
    return () => {
      held.delete(name);
      release();
    };
  }
  const deps = createDeps(config, database, jobs, log);
  const app = await buildApp(deps);
  await app.ready();
  const firstStart = config.demoData ? createFirstStart(app, deps) : null;
  await jobs.start({ work: true });
  await firstStart?.queue(boot);

  async function api(method: string, url: string, opts: ApiOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.tenant) headers.__tenant = opts.tenant;
    const res = await app.inject({
      method: method as "GET",
      url,
      query: opts.query as Record<string, string>,
      headers,
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
    let body: unknown = null;
    try {
      body = res.body ? JSON.parse(res.body) : null;
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, body, headers: res.headers, raw: res.body };
  }

  async function login(userName: string, password: string, tenant?: string, extra: Record<string, string> = {}) {
    const res = await app.inject({
      method: "POST",
      url: "/connect/token",
      headers: { "content-type": "application/x-www-form-urlencoded", ...(tenant ? { __tenant: tenant } : {}) },
      payload: new URLSearchParams({
        grant_type: "password",
        client_id: "Erp_App",
        scope: "Erp",
        username: userName,
        password,
        ...extra,
      }).toString(),
    });
    if (res.statusCode !== 200) throw new Error(`login ${userName}@${tenant ?? "host"} failed: ${res.statusCode} ${res.body}`);
    return JSON.parse(res.body);
  }

  let adminTokenCache: string | undefined;
  return {
    app,
    deps,
    database,
    api,
    login,
    holdJobs,
    async adminToken() {
      adminTokenCache ??= (await login("admin", ADMIN_PASSWORD)).access_token;
      return adminTokenCache!;
    },
    async createTenant(name = uniqueName("t")) {
      const password = "Passw0rd!" + randomBytes(3).toString("hex");
      const { tenant, user } = await inScope(database.db, hostAllScope, (tx) =>
        insertTenantWithMainAccount(tx, { tenantName: name, userName: "boss", pwd: password }, deps.passwords),
      );
      const token = (await login("boss", password, name)).access_token;
      return { tenantId: tenant.id, tenantName: name, userName: "boss", password, userId: user.id, token };
    },
    async createSubUser(owner, userName = uniqueName("sub"), extra = {}) {
      const password = "Sub12345" + randomBytes(2).toString("hex");
      const res = await api("POST", "/api/User/CreateSubUser", { token: owner.token, body: { userName, pwd: password, ...extra } });
      if (res.status !== 200) throw new Error(`CreateSubUser failed: ${res.status} ${res.raw}`);
      const token = (await login(userName, password, owner.tenantName)).access_token;
      return { id: res.body.result.id, userName, password, token };
    },
    // Each step bounded as the server's own stop is: a step that holds is named on stderr and the file goes on.
    async close() {
      await closeWithin({ name: "test server: http", close: () => app.close() }, 10_000);
      await closeWithin({ name: "test server: job queue", close: () => jobs.stop() }, 10_000);
      await closeWithin({ name: "test server: database", close: () => database.close() }, 10_000);
    },
  };
}
