// The server under benchmark: the real process (`node scripts/start.mjs`, what `npm start` runs) on a fresh DATA_DIR,
// and on a fresh PostgreSQL database (dropped after) or PGlite; its output into bench/.data/<name>-server-<db>.log; the
// database opened on the owner connection between two starts for set-based seeding (PGlite has one owner process).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFreshPostgresDatabase, freePort, repoRoot, startApp, type AppProcess } from "../e2e/app-process.ts";
import { openDatabase } from "../server/db/client.ts";

export const BENCH_ADMIN_PASSWORD = "Bench-Admin-1";
export const benchDataDir = join(repoRoot, "bench", ".data");

/** The options every such benchmark takes (for parseArgs). */
export const serverOptions = {
  db: { type: "string", default: "both" },
  "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test" },
  "log-level": { type: "string", default: "warn" },
  keep: { type: "boolean", default: false },
} as const;

/** --db=pglite|postgres|both as the list of databases to run on. */
export function databasesOf(db: string | undefined): ("pglite" | "postgres")[] {
  if (db === "both") return ["pglite", "postgres"];
  if (db === "pglite" || db === "postgres") return [db];
  throw new Error(`--db must be pglite, postgres or both, not ${db}`);
}

export type BenchServer = Awaited<ReturnType<typeof benchServer>>;

export async function benchServer(
  name: string,
  db: "pglite" | "postgres",
  o: { pgUrl: string; logLevel: string; keep: boolean; env?: Record<string, string | undefined>; log: (line: string) => void },
) {
  mkdirSync(benchDataDir, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), `erp-bench-${name}-`));
  const logFile = join(benchDataDir, `${name}-server-${db}.log`);
  writeFileSync(logFile, "");
  const pgDatabase = db === "postgres" ? await createFreshPostgresDatabase(o.pgUrl, `erp_bench_${name.replace(/-/g, "_")}`) : undefined;
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    DATABASE_URL: pgDatabase?.url,
    HOST: "127.0.0.1",
    ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
    LOG_LEVEL: o.logLevel,
    ...o.env,
  };
  let running: AppProcess | undefined;
  return {
    db,
    dataDir,
    logFile,
    pgUrl: pgDatabase?.url,
    /** Starts the server (on a free port) and waits for "[ready]". */
    async start(nodeArgs: string[] = []): Promise<AppProcess> {
      running = await startApp({ ...env, PORT: String(await freePort()) }, { logFile, nodeArgs });
      return running;
    },
    /** Stops it (SIGTERM); throws when it does not exit 0. */
    async stop() {
      const app = running;
      running = undefined;
      const code = await app?.stop();
      if (app && code !== 0) throw new Error(`[${name} ${db}] server exited ${code}; log: ${logFile}`);
    },
    /** The database on the owner connection (the server stopped, for PGlite). */
    openDatabase: () =>
      openDatabase(
        pgDatabase ? { kind: "postgres", url: pgDatabase.url, poolSize: 2 } : { kind: "pglite", dataDir: join(dataDir, "pglite") },
      ),
    /** Stops a server still running and removes the data (unless --keep). */
    async cleanup() {
      if (running) {
        const code = await running.stop();
        if (code !== 0) o.log(`[${name} ${db}] server exited ${code}; log: ${logFile}`);
        running = undefined;
      }
      if (o.keep) {
        o.log(`[${name} ${db}] kept: DATA_DIR ${dataDir}${pgDatabase ? `, database ${pgDatabase.url}` : ""}`);
        return;
      }
      await pgDatabase?.drop().catch((e) => o.log(`[${name} ${db}] drop failed: ${e}`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
