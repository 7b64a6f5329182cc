// PgBouncer in transaction pooling mode in front of a test's PostgreSQL server, for the multi-process test
// (e2e/pooler.test.ts) and its benchmark (bench/processes.ts): Debian's `pgbouncer` package (CI's .ci/run installs it),
// with a configuration written into a temporary directory, listening on a free loopback port. Debian's PgBouncer
// refuses to run as root, so as root it runs with `-u nobody`.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import pg from "pg";
import { freePort } from "./app-process.ts";
import { sleep } from "./publish-rig.ts";

export type PgBouncer = {
  /** The same database as `directUrl`, through the pooler. */
  url: string;
  /** PgBouncer's own output (its log). */
  output(): string;
  stop(): Promise<void>;
};

/** The pgbouncer binary: on PATH, or where Debian puts it (/usr/sbin, not on every user's PATH). */
function pgBouncerBinary(): string | null {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/usr/local/sbin"];
  for (const d of dirs) if (d && existsSync(join(d, "pgbouncer"))) return join(d, "pgbouncer");
  return null;
}

/**
 * Starts PgBouncer (pool_mode=transaction, `poolSize` server connections per database and user) in front of the
 * server of `directUrl` and answers the URL of the same database through it. Client authentication is trust on
 * loopback; PgBouncer logs in to PostgreSQL as the URL's user (with its password, if the URL has one).
 */
export async function startPgBouncer(directUrl: string, o: { poolSize?: number; maxClients?: number } = {}): Promise<PgBouncer> {
  const binary = pgBouncerBinary();
  if (!binary) throw new Error("pgbouncer is not installed (Debian: apt-get install -y pgbouncer)");
  const direct = new URL(directUrl);
  const user = decodeURIComponent(direct.username || "postgres");
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "erp-pgbouncer-"));
  // Readable by the user PgBouncer drops to.
  chmodSync(dir, 0o755);
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  writeFileSync(join(dir, "users.txt"), `${quote(user)} ${quote(decodeURIComponent(direct.password))}\n`, { mode: 0o644 });
  const ini = [
    "[databases]",
    // Any database name the client asks for, on the direct URL's server.
    `* = host=${direct.hostname} port=${direct.port || "5432"}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    "auth_type = trust",
    `auth_file = ${join(dir, "users.txt")}`,
    "pool_mode = transaction",
    `default_pool_size = ${o.poolSize ?? 20}`,
    `max_client_conn = ${o.maxClients ?? 500}`,
    "",
  ].join("\n");
  const config = join(dir, "pgbouncer.ini");
  writeFileSync(config, ini, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const child = spawn(binary, [...(asRoot ? ["-u", "nobody"] : []), config], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const keep = (d: string) => {
    if (out.length < 256 * 1024) out += d;
  };
  child.stdout!.setEncoding("utf8").on("data", keep);
  child.stderr!.setEncoding("utf8").on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const pooled = new URL(directUrl);
  pooled.hostname = "127.0.0.1";
  pooled.port = String(port);
  const url = pooled.toString();
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready when a query goes through.
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`pgbouncer exited before it answered:\n${out}`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("select 1");
      await client.end();
      break;
    } catch (err) {
      await client.end().catch(() => {});
      if (i > 100) {
        await stop();
        throw new Error(`pgbouncer did not answer: ${String(err)}\n${out}`);
      }
      await sleep(100);
    }
  }
  return { url, output: () => out, stop };
}
