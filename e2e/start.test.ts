// `npm start` end to end: the real process on a fresh DATA_DIR (PGlite), or on a fresh database of the server named by
// DATABASE_URL when the suite runs on PostgreSQL, spoken to over real HTTP. First start prints the credentials, the
// console, the API, the token endpoint and the OpenAPI document answer; SIGTERM exits 0; a restart on the same data
// prints nothing new and keeps users, passwords and tokens. Given and refused settings are checked the same way.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { accessToken, freshStore, freePort, passwordLogin, runUntilExit, startApp, type AppProcess } from "./app-process.ts";

const suiteUrl = process.env.DATABASE_URL;
const store = suiteUrl ? "postgres" : "pglite";
/** The first start of a checkout builds the console (vite) before the server starts. */
const FIRST_START_MS = 240_000;

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse())
    await Promise.resolve()
      .then(c)
      .catch(() => {});
});

/** A fresh DATA_DIR, plus a fresh database when the suite runs on PostgreSQL: empty (the first start migrates it), or
 *  the run's migrated template (a first start that skips the migrations). */
async function newStore({ empty }: { empty: boolean }): Promise<{ env: Record<string, string>; databaseUrl?: string }> {
  const store = await freshStore("e2e", { empty });
  cleanups.push(store.drop);
  return { env: { ...store.env, LOG_LEVEL: "warn" }, databaseUrl: store.env.DATABASE_URL };
}

async function start(env: Record<string, string>) {
  const app = await startApp({ ...env, PORT: String(await freePort()) }, { timeoutMs: FIRST_START_MS });
  cleanups.push(() => app.stop("SIGKILL"));
  return app;
}

async function get(app: AppProcess, path: string, token?: string, tenant?: string) {
  const res = await fetch(app.url + path, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(tenant ? { __tenant: tenant } : {}) },
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", body, text };
}

/** Reads until `done` says the answer is there (work the server does after its start). */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() - started > timeoutMs) return v;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function post(app: AppProcess, path: string, json: unknown, token: string) {
  const res = await fetch(app.url + path, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe(`npm start on ${store}`, () => {
  let store0: Awaited<ReturnType<typeof newStore>>;
  let adminPassword: string;
  let demo: { tenant: string; user: string; password: string };
  let adminToken: string;
  let demoToken: string;
  const sub = { userName: `e2esub${process.pid}`, pwd: "SubPassw0rd1" };

  it(
    "first start prints the administrator and demo credentials, serves console, API, token endpoint and OpenAPI, and exits 0 on SIGTERM",
    async () => {
      store0 = await newStore({ empty: true });
      const app = await start({ ...store0.env, DEMO_DATA: "1" });
      expect(app.stdout()).toContain(`(database: ${store}`);

      expect(app.firstStart.adminPassword, app.stdout()).toMatch(/^\S{8,}$/);
      expect(app.firstStart.demo, app.stdout()).toEqual({ tenant: "demo", user: "demo", password: expect.stringMatching(/^\S{8,}$/) });
      adminPassword = app.firstStart.adminPassword!;
      demo = app.firstStart.demo!;

      const health = await get(app, "/health");
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: "ok", database: store });

      const page = await get(app, "/");
      expect(page.status).toBe(200);
      expect(page.contentType).toMatch(/^text\/html/);
      expect(page.text).toMatch(/<html[\s>]/i);
      expect(page.text).toContain("<title>美客多 ERP</title>");
      expect(page.text).toContain(`<div id="root">`);
      // The built page's script is served too.
      const script = /<script[^>]+src="\.?\/?([^"]+\.js)"/.exec(page.text)?.[1];
      expect(script, page.text).toMatch(/^assets\//);
      const asset = await fetch(`${app.url}/${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-type")).toMatch(/javascript/);

      const doc = await get(app, "/swagger/json");
      expect(doc.status).toBe(200);
      expect(doc.body.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.body.paths)).toEqual(
        expect.arrayContaining(["/api/User/GetMyInfo", "/api/User/CreateSubUser", "/connect/token"]),
      );

      adminToken = await accessToken(app.url, "admin", adminPassword);
      const adminInfo = await get(app, "/api/User/GetMyInfo", adminToken);
      expect(adminInfo.status).toBe(200);
      expect(adminInfo.body.result).toMatchObject({ userName: "admin", isHost: true });

      const wrong = await passwordLogin(app.url, "admin", adminPassword + "x");
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe("invalid_grant");

      demoToken = await accessToken(app.url, demo.user, demo.password, demo.tenant);
      const demoInfo = await get(app, "/api/User/GetMyInfo", demoToken);
      expect(demoInfo.status).toBe(200);
      expect(demoInfo.body.result).toMatchObject({
        userName: "demo",
        tenantName: "demo",
        isMainAccount: true,
        isHost: false,
        subAccountCount: 0,
      });

      // The demo content and the sandbox's categories, added after the start: a flagged product is the last step.
      const demoProducts = await until(
        () => post(app, "/api/Product/GetProductsByPage", { maxResultCount: 100 }, demoToken),
        (r) => r.body.result.items.some((p: { infringementWord: string | null }) => p.infringementWord),
      );
      expect(demoProducts.body.result.totalCount).toBeGreaterThan(10);
      const collects = await post(app, "/api/Collect/GetCollect", { maxResultCount: 1 }, demoToken);
      expect(collects.body.result.totalCount).toBeGreaterThanOrEqual(40);
      const shops = await get(app, "/api/MeliAccount/GetAccounts", demoToken);
      expect(shops.body.result.totalCount).toBe(1);
      const categories = await until(
        () => get(app, "/api/MeliCategory/GetCategoryBySiteId?siteId=1", demoToken),
        (r) => r.body.result?.length > 0,
      );
      expect(categories.status).toBe(200);
      // The host's task centre shows the sync; it ends before the stop below.
      const syncTask = await until(
        () => get(app, `/api/TaskInfo/GetTaskInfoByPage?TaskType=${TaskType.SyncCategories}`, adminToken),
        (r) => r.body.result?.items?.[0]?.taskStatus === TaskStatus.Succeeded,
      );
      expect(syncTask.body.result.items, syncTask.text).toMatchObject([{ taskStatus: TaskStatus.Succeeded }]);

      const created = await post(app, "/api/User/CreateSubUser", sub, demoToken);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.result).toMatchObject({ userName: sub.userName, isMainAccount: false, isActive: true });
      await accessToken(app.url, sub.userName, sub.pwd, demo.tenant);

      expect(await app.stop("SIGTERM")).toBe(0);
      expect(app.stderr()).not.toMatch(/\[fatal\]|Error:/);

      if (store0.databaseUrl) {
        // The data went to the PostgreSQL database; DATA_DIR holds the signing key and the built-in sandbox's own
        // (its application secret and its state, which stand for Mercado Libre's side, not the app's data).
        expect(readdirSync(store0.env.DATA_DIR).sort()).toEqual(["meli-sandbox-app.secret", "meli-sandbox.json", "token-signing.key"]);
        const c = new pg.Client({ connectionString: store0.databaseUrl });
        await c.connect();
        const r = await c.query("select user_name from users where normalized_user_name = upper($1)", [sub.userName]);
        await c.end();
        expect(r.rows).toEqual([{ user_name: sub.userName }]);
      } else {
        expect(existsSync(join(store0.env.DATA_DIR, "pglite"))).toBe(true);
      }
    },
    FIRST_START_MS + 60_000,
  );

  it("a restart on the same data prints no password and keeps the administrator, the sub-account and the issued tokens", async () => {
    expect(demoToken, "the first start must have passed").toBeTruthy();
    const app = await start(store0.env);
    expect(app.stdout()).not.toContain("[first start]");
    expect(app.stdout()).not.toContain(adminPassword);
    expect(app.stdout()).not.toContain(demo.password);

    // Tokens from the first run: the signing key persisted in DATA_DIR and the sessions in the database.
    const subs = await get(app, "/api/User/GetSubUsers?SkipCount=0&MaxResultCount=20", demoToken);
    expect(subs.status, subs.text).toBe(200);
    expect(subs.body.result.totalCount).toBe(1);
    expect(subs.body.result.items.map((u: { userName: string }) => u.userName)).toEqual([sub.userName]);
    const adminInfo = await get(app, "/api/User/GetMyInfo", adminToken);
    expect(adminInfo.status).toBe(200);

    // The same passwords.
    const again = await accessToken(app.url, "admin", adminPassword);
    expect((await get(app, "/api/User/GetMyInfo", again)).body.result.userName).toBe("admin");
    await accessToken(app.url, demo.user, demo.password, demo.tenant);
    await accessToken(app.url, sub.userName, sub.pwd, demo.tenant);

    expect(await app.stop("SIGTERM")).toBe(0);
  }, 180_000);
});

describe(`settings on ${store}`, () => {
  it(
    "ADMIN_PASSWORD given: that password logs in and no password is printed",
    async () => {
      const { env } = await newStore({ empty: false });
      const given = "Given-Passw0rd-" + process.pid;
      const app = await start({ ...env, ADMIN_PASSWORD: given });
      expect(app.stdout()).toContain("host administrator: user admin, password from ADMIN_PASSWORD");
      expect(app.firstStart.adminPassword).toBeUndefined();
      expect(app.stdout() + app.stderr()).not.toContain(given);
      const token = await accessToken(app.url, "admin", given);
      expect((await get(app, "/api/User/GetMyInfo", token)).body.result).toMatchObject({ userName: "admin", isHost: true });
      expect(await app.stop("SIGTERM")).toBe(0);
    },
    FIRST_START_MS,
  );

  it.each([
    ["PORT", "abc"],
    ["DATABASE_URL", "mysql://x"],
    ["LOG_LEVEL", "loud"],
  ])(
    "%s=%s is refused: the process exits non-zero naming the setting",
    async (name, value) => {
      const dataDir = mkdtempSync(join(tmpdir(), "erp-e2e-bad-"));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const r = await runUntilExit({ DATA_DIR: dataDir, LOG_LEVEL: "warn", PORT: String(await freePort()), [name]: value });
      expect(r.code).not.toBe(0);
      expect(r.code).not.toBeNull();
      expect(r.stderr).toContain(name);
      expect(r.stdout).not.toContain("[ready]");
      // Nothing was created for a refused configuration.
      expect(readdirSync(dataDir)).toEqual([]);
    },
    FIRST_START_MS,
  );
});
