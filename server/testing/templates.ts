// A migrated database (with the job queue's schema and the app's queues) made once per test run, copied for each test
// file: PGlite as a data directory (and a dump of it), PostgreSQL as a template database.
import { randomBytes } from "node:crypto";
import { accessSync, appendFileSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { openDatabase, type Database } from "../db/client.ts";
import { createDeps, createLogger } from "../deps.ts";
import { createJobs } from "../jobs/queue.ts";

export const TEMPLATE_ENV = "ERP_TEST_TEMPLATE";
/** The PGlite template as a data directory (makePgliteTemplateDir), for tests that start the server as a process. */
export const TEMPLATE_DIR_ENV = "ERP_TEST_TEMPLATE_DIR";

/**
 * The job queue's schema and the app's queues, as the app's first start leaves them: a test server's start (or a
 * process test's `npm start`) then finds every queue and creates none, about 0.5 s of CPU less for each on PGlite.
 */
async function createAppQueues(database: Database) {
  const dataDir = mkdtempSync(join(tmpdir(), "erp-template-app-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    TOKEN_SIGNING_KEY: randomBytes(48).toString("base64url"),
    LOG_LEVEL: "silent",
    DEMO_DATA: "0",
  });
  const log = createLogger(config);
  const jobs = createJobs(database, log);
  const app = await buildApp(createDeps(config, database, jobs, log));
  try {
    await jobs.start({ work: false });
    await jobs.stop();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function makePgliteTemplate(): Promise<string> {
  const database = await openDatabase({ kind: "pglite" });
  await database.migrate();
  await createAppQueues(database);
  const dump = await database.pglite!.dumpDataDir("none");
  const file = join(tmpdir(), `erp-test-template-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  return file;
}

/**
 * The PGlite template as a data directory (what `npm start` keeps in DATA_DIR/pglite), made from the dump once per
 * run: a process test copies it into its DATA_DIR instead of creating and migrating a database at its start.
 */
export async function makePgliteTemplateDir(dumpFile: string): Promise<string> {
  const dir = scratchDir("erp-test-template-dir-");
  const database = await openDatabase({ kind: "pglite", dataDir: dir, inProcess: true, loadDataDir: new Blob([readFileSync(dumpFile)]) });
  await database.close();
  // PGlite zeroes its shared buffers at every open: 128 MB (initdb's size, which the product keeps for a seller's large
  // catalogue) took about half of each test database's 0.87 s of CPU to open (0.37 s with 16 MB). A test database
  // holds little, so the copies (test servers' and process tests' alike) open with 16 MB, written as ALTER SYSTEM would.
  appendFileSync(join(dir, "postgresql.auto.conf"), "shared_buffers = '16MB'\n");
  return dir;
}

function adminUrl(url: string, dbName: string): string {
  const u = new URL(url);
  u.pathname = "/" + dbName;
  return u.toString();
}

export async function makePostgresTemplate(url: string): Promise<string> {
  const name = `erp_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const database = await openDatabase({ kind: "postgres", url: adminUrl(url, name), poolSize: 2 });
  await database.migrate();
  await createAppQueues(database);
  await database.close();
  return name;
}

export async function dropPostgresTemplate(url: string, name: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const leftovers = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1 or datname = $2`, [
    `erp_t_${process.pid}_%`,
    name,
  ]);
  for (const { datname } of leftovers.rows) await admin.query(`drop database if exists ${datname} with (force)`).catch(() => {});
  await admin.end();
}

/** Creates database `name` as a copy of the template database on the server of `url`. */
export async function copyPostgresTemplate(url: string, template: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${template}`);
        return;
      } catch (e) {
        // Two files copying the template at the same instant: PostgreSQL refuses one; try again shortly.
        if (attempt > 20 || !String(e).includes("being accessed")) throw e;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
}

/** A fresh migrated database for one test file. */
export async function openTestDatabase(): Promise<Database> {
  const template = process.env[TEMPLATE_ENV];
  const url = process.env.DATABASE_URL;
  if (url) {
    if (!template) throw new Error("no PostgreSQL template: run through vitest (global setup)");
    const name = `erp_t_${template.split("_").pop()}_${randomBytes(6).toString("hex")}`;
    await copyPostgresTemplate(url, template, name);
    const database = await openDatabase({ kind: "postgres", url: adminUrl(url, name), poolSize: 10 });
    const close = database.close;
    database.close = async () => {
      await close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await a.end();
    };
    return database;
  }
  const templateDir = process.env[TEMPLATE_DIR_ENV];
  if (!templateDir) {
    const database = await openDatabase({ kind: "pglite" });
    await database.migrate();
    return database;
  }
  // A copy of the template's data directory: PGlite opens it in about a third of the CPU it spends unpacking the same
  // database from its dump (46 MB, a WAL segment included), about 2 s less for each test server.
  const dataDir = scratchDir(`${TEST_DB_PREFIX}${process.env[RUN_ENV] ?? "x"}-`);
  await cp(templateDir, dataDir, { recursive: true });
  const database = await openDatabase({ kind: "pglite", dataDir });
  const close = database.close;
  database.close = async () => {
    await close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return database;
}

/** The test databases' data directories are named after the run (the global setup's process) to clear what a crashed
 *  file left. */
const TEST_DB_PREFIX = "erp-test-db-";
export const RUN_ENV = "ERP_TEST_RUN";

/** A new directory in memory (tmpfs) where the machine has one, so a test database's writes never wait on a disk. */
function scratchDir(prefix: string): string {
  let base = tmpdir();
  try {
    accessSync("/dev/shm", constants.W_OK);
    base = "/dev/shm";
  } catch {
    // no tmpfs: the temporary folder
  }
  return mkdtempSync(join(base, prefix));
}

/** Removes the test databases' data directories a run left (a file that crashed before closing its database). */
export function removeRunScratch(run: string) {
  for (const base of ["/dev/shm", tmpdir()]) {
    let names: string[] = [];
    try {
      names = readdirSync(base);
    } catch {
      continue;
    }
    for (const name of names) if (name.startsWith(`${TEST_DB_PREFIX}${run}-`)) rmSync(join(base, name), { recursive: true, force: true });
  }
}

/**
 * A scenario's size for the run's database: full on PostgreSQL (DATABASE_URL), where RELIABILITY.md runs money,
 * concurrency and the large scenarios, since only it runs transactions at once; smaller on PGlite, which runs one at a
 * time and so shows there only that the same rules hold, at a fraction of CI's time.
 */
export const sizedForDatabase = (postgres: number, pglite: number) => (process.env.DATABASE_URL ? postgres : pglite);
