// Runs the real server the way the README says (`node scripts/start.mjs`, what `npm start` runs) as a child process,
// and reads what it prints. Shared by the end-to-end tests and the benchmark.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { copyPostgresTemplate, TEMPLATE_DIR_ENV, TEMPLATE_ENV } from "../server/testing/templates.ts";

export const repoRoot = fileURLToPath(new URL("..", import.meta.url));

export type FirstStart = {
  /** Printed only when the administrator was created now with a generated password. */
  adminPassword?: string;
  demo?: { tenant: string; user: string; password: string };
};

export type AppProcess = {
  child: ChildProcess;
  /** Base URL from the "[ready]" line, e.g. http://127.0.0.1:3000. */
  url: string;
  /** Output so far (the first MiB of each stream; with a log file, both read the whole file). */
  stdout(): string;
  stderr(): string;
  firstStart: FirstStart;
  /** Sends SIGTERM and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
};

export type ExitedProcess = { code: number | null; stdout: string; stderr: string };

/** A port nobody listens on right now (loopback). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The environment a newcomer's shell would have: the test runner's own variables (DATABASE_URL of the suite, the
 * template name, NODE_ENV=test, VITEST*) are removed, the demo content is off and, in a test, answers are checked
 * (below), then `env` is applied.
 */
export function cleanEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  const drop =
    /^(DATABASE_URL|DATABASE_DIRECT_URL|DATA_DIR|PORT|HOST|ADMIN_PASSWORD|TOKEN_SIGNING_KEY|LOG_LEVEL|ROLE|ERP_TEST_TEMPLATE(_DIR)?|NODE_ENV|VITEST.*|TEST|NODE_OPTIONS)$/;
  for (const [k, v] of Object.entries(process.env)) if (!drop.test(k)) out[k] = v;
  // The first start's demo content and category sync stay off unless a test asks for them (DEMO_DATA: "1").
  out.DEMO_DATA = "0";
  // In a test (not a benchmark, which times the product as it runs), every answer is checked against its call's
  // declared result, as the test servers do: a drift fails the test with a 500.
  if (process.env.VITEST) out.CHECK_ANSWERS = "1";
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/** Output kept in memory per stream; a server logging every request must not fill the test's memory. */
const MAX_CAPTURE = 1024 * 1024;

/** Starts the server without waiting for it (startApp waits for "[ready]"): for a test that acts before then. */
export function launch(env: Record<string, string | undefined>, args: string[] = [], logFile?: string, nodeArgs: string[] = []) {
  if (logFile) {
    // Output to a file, as a process manager would: the reading side costs the benchmark nothing.
    // Appended to; this start's output is what follows the current end.
    const from = existsSync(logFile) ? statSync(logFile).size : 0;
    const fd = openSync(logFile, "a");
    const child = spawn(process.execPath, [...nodeArgs, "scripts/start.mjs", ...args], {
      cwd: repoRoot,
      env: cleanEnv(env),
      stdio: ["ignore", fd, fd],
    });
    closeSync(fd);
    const read = () => readFileSync(logFile).subarray(from).toString("utf8");
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    return { child, stdout: read, stderr: read, exited };
  }
  const child = spawn(process.execPath, [...nodeArgs, "scripts/start.mjs", ...args], {
    cwd: repoRoot,
    env: cleanEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => {
    if (out.length < MAX_CAPTURE) out += d;
  });
  child.stderr!.setEncoding("utf8").on("data", (d: string) => {
    if (err.length < MAX_CAPTURE) err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

export function parseFirstStart(stdout: string): FirstStart {
  const admin = /\[first start\] host administrator: user admin, password (\S+) \(shown once/.exec(stdout);
  const demo = /\[first start\] demo tenant: tenant (\S+), user (\S+), password (\S+)/.exec(stdout);
  return {
    adminPassword: admin?.[1],
    demo: demo ? { tenant: demo[1], user: demo[2], password: demo[3] } : undefined,
  };
}

/** Starts the server and waits for "[ready] <url>"; throws with its output when it exits or takes too long. */
export async function startApp(
  env: Record<string, string | undefined>,
  opts: {
    timeoutMs?: number;
    /** after the script: `npm start -- <args>` */
    args?: string[];
    /** before the script: node's own flags (--cpu-prof) */
    nodeArgs?: string[];
    /** stdout and stderr to this file instead of memory */
    logFile?: string;
  } = {},
): Promise<AppProcess> {
  const p = launch(env, opts.args, opts.logFile, opts.nodeArgs);
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const url = await new Promise<string>((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const m = /\[ready\] (http:\/\/\S+)/.exec(p.stdout());
      if (m) {
        clearInterval(timer);
        resolve(m[1]);
      } else if (p.child.exitCode !== null || p.child.signalCode !== null) {
        clearInterval(timer);
        reject(
          new Error(
            `server exited (${p.child.exitCode ?? p.child.signalCode}) before ready\nstdout:\n${p.stdout()}\nstderr:\n${p.stderr()}`,
          ),
        );
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(timer);
        p.child.kill("SIGKILL");
        reject(new Error(`server not ready after ${timeoutMs} ms\nstdout:\n${p.stdout()}\nstderr:\n${p.stderr()}`));
      }
    }, 50);
  });
  return {
    ...p,
    url,
    firstStart: parseFirstStart(p.stdout()),
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
      const timeout = setTimeout(() => p.child.kill("SIGKILL"), 30_000);
      const code = await p.exited;
      clearTimeout(timeout);
      return code;
    },
  };
}

/** Runs the server expecting it to exit by itself (a refused configuration); kills it after the timeout. */
export async function runUntilExit(env: Record<string, string | undefined>, timeoutMs = 120_000): Promise<ExitedProcess> {
  const p = launch(env);
  const timer = setTimeout(() => p.child.kill("SIGKILL"), timeoutMs);
  const code = await p.exited;
  clearTimeout(timer);
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** A new, empty database on the server of `url` (same credentials); drop() removes it, connections and all. */
export async function createFreshPostgresDatabase(url: string, prefix = "erp_e2e", template?: string) {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
  if (template) await copyPostgresTemplate(url, template, name);
  else {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
  }
  const u = new URL(url);
  u.pathname = "/" + name;
  return {
    name,
    url: u.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      try {
        await a.query(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}

/** OAuth password grant over real HTTP; answers the status and the parsed body. */
export async function passwordLogin(baseUrl: string, userName: string, password: string, tenant?: string) {
  const res = await fetch(`${baseUrl}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(tenant ? { __tenant: tenant } : {}) },
    body: new URLSearchParams({ grant_type: "password", client_id: "Erp_App", scope: "Erp", username: userName, password }).toString(),
  });
  const body = (await res.json()) as { access_token?: string; error?: string; error_description?: string };
  return { status: res.status, body };
}

/** Logs in or throws; answers the access token. */
export async function accessToken(baseUrl: string, userName: string, password: string, tenant?: string): Promise<string> {
  const { status, body } = await passwordLogin(baseUrl, userName, password, tenant);
  if (status !== 200 || !body.access_token)
    throw new Error(`login ${userName}@${tenant ?? "host"} failed: ${status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/**
 * A new DATA_DIR, and a new database when the suite runs on PostgreSQL (DATABASE_URL): the settings that point a
 * start at them (DATA_DIR, and DATABASE_URL). By default a copy of the run's migrated template (no administrator yet:
 * a first start that skips the migrations' CPU); `empty` for a start that migrates a database of nothing.
 */
export async function freshStore(
  name: string,
  { empty = false }: { empty?: boolean } = {},
): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `erp-${name}-`));
  const database = process.env.DATABASE_URL
    ? await createFreshPostgresDatabase(
        process.env.DATABASE_URL,
        `erp_${name.replace(/-/g, "_")}`,
        empty ? undefined : process.env[TEMPLATE_ENV],
      )
    : null;
  const templateDir = empty ? undefined : process.env[TEMPLATE_DIR_ENV];
  if (!database && templateDir) cpSync(templateDir, join(dataDir, "pglite"), { recursive: true });
  return {
    env: { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) },
    async drop() {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The app on a fresh data directory, and on a fresh PostgreSQL database when DATABASE_URL is set (the suite's second
 * run); `stop` ends it and removes both. The database is a copy of the run's migrated template (made once by the
 * global set-up), so each start skips creating and migrating one; it is still a first start (no administrator, no
 * demo tenant yet). `empty: true` starts on an empty database instead, for the tests of the first start itself.
 */
export async function startFreshApp(
  name: string,
  env: Record<string, string> = {},
  { empty = false }: { empty?: boolean } = {},
): Promise<{ app: AppProcess; stop: () => Promise<void> }> {
  const store = await freshStore(name, { empty });
  const app = await startApp({ ...store.env, LOG_LEVEL: "warn", PORT: String(await freePort()), ...env });
  return {
    app,
    async stop() {
      await app.stop("SIGKILL");
      await store.drop();
    },
  };
}

/** One API call with a bearer token; a non-2xx answer throws with its body. Answers the envelope's result. */
export async function callApi<T>(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    // A fresh Idempotency-Key on every call, as the shared client sends: the calls that move money require one.
    headers: {
      authorization: `Bearer ${token}`,
      "idempotency-key": crypto.randomUUID(),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (JSON.parse(text) as { result: T }).result;
}

/** Reads until `done` holds, every 250 ms; throws with the last value after `timeoutMs`. */
export async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: still ${JSON.stringify(v)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
