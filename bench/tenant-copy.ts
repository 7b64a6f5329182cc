// CopyProductsToTenant (issue 31), PostgreSQL: the host copies a tenant's 100,000 products (with their labels) to
// another tenant through HTTP, answered at once with a task that copies them in chunks; timed from the call to the
// task's end, against the bare statement over the same rows in the same run (`INSERT INTO products SELECT …` of every
// column, new ids, the new owner, with the same table, triggers and indexes, in a transaction rolled back). Three
// rounds, each copy into a tenant of its own, bare and copy taking turns going first, each after a VACUUM of products;
// the ratio is the copies' mean over the bares' mean.
//
//   npm run bench:tenant-copy -- [--pg-url=postgres://root@127.0.0.1:5432/test] [--products=100000] [--keep]
//
// Prints a markdown table of the seconds and the ratio; writes them as JSON into bench/.data/tenant-copy.json.
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { getTableColumns } from "drizzle-orm";
import pg from "pg";
import { accessToken, callApi, type AppProcess } from "../e2e/app-process.ts";
import { products } from "../server/db/schema.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import { seedProducts } from "./product-seed.ts";
import { BENCH_ADMIN_PASSWORD, benchDataDir, benchServer, serverOptions } from "./server.ts";

const { values: args } = parseArgs({
  options: { ...serverOptions, products: { type: "string", default: "100000" } },
});
const ROUNDS = 3;
const log = (line: string) => console.error(line);
const secondsSince = (t0: number) => (performance.now() - t0) / 1000;

type Task = { id: string; taskStatus: number; taskRemark: string | null; creationTime: string; lastUpdateTime: string };

const api = <T>(app: AppProcess, token: string, method: string, path: string, body?: unknown) =>
  callApi<T>(app.url, token, method, path, body);

/** Polls the host's task centre every 50 ms until the task has ended. */
async function taskEnd(app: AppProcess, token: string, taskId: string): Promise<Task> {
  for (;;) {
    const page = await api<{ items: Task[] }>(app, token, "GET", "/api/TaskInfo/GetTaskInfoByPage?MaxResultCount=20");
    const t = page.items.find((x) => x.id === taskId);
    if (t && (t.taskStatus === TaskStatus.Succeeded || t.taskStatus === TaskStatus.Failed)) return t;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A tenant opened by the host; answers its id and its main account's. */
async function openTenant(app: AppProcess, host: string, name: string) {
  const r = await api<{ id: string; tenantId: string }>(app, host, "POST", "/api/Hosted/OpenTenantAccount", {
    tenantName: name,
    userName: "owner",
    pwd: "Owner-Bench-1",
  });
  return { tenantId: r.tenantId, userId: r.id };
}

/** The bare statement over the same rows, into `dest` as `owner`, timed alone in a transaction rolled back. */
async function bare(client: pg.Client, src: string, dest: { tenantId: string; userId: string }) {
  const names = Object.values(getTableColumns(products)).map((c) => c.name);
  const own: Record<string, string> = { tenant_id: "$1::uuid", id: "gen_random_uuid()", user_id: "$2::uuid" };
  const statement = `insert into products (${names.map((n) => `"${n}"`).join(", ")})
    select ${names.map((n) => own[n] ?? `s."${n}"`).join(", ")} from products s where s.tenant_id = $3::uuid and s.is_deleted = false`;
  await client.query("begin");
  try {
    const t0 = performance.now();
    const r = await client.query(statement, [dest.tenantId, dest.userId, src]);
    return { seconds: secondsSince(t0), rows: r.rowCount ?? 0 };
  } finally {
    await client.query("rollback");
  }
}

/** CopyProductsToTenant from the call to the task's end (and the task's own span, creation to last update). */
async function copy(app: AppProcess, host: string, src: string, destTenantId: string) {
  const t0 = performance.now();
  const answer = await api<{ taskId: string; total: number }>(
    app,
    host,
    "GET",
    `/api/Hosted/CopyProductsToTenant?srcTenantId=${src}&destTenantId=${destTenantId}`,
  );
  const task = await taskEnd(app, host, answer.taskId);
  const seconds = secondsSince(t0);
  if (task.taskStatus !== TaskStatus.Succeeded) throw new Error(`copy task ended ${task.taskStatus}: ${task.taskRemark}`);
  const span = (Date.parse(task.lastUpdateTime) - Date.parse(task.creationTime)) / 1000;
  return { seconds, span, remark: task.taskRemark ?? "" };
}

async function main() {
  const server = await benchServer("tenant-copy", "postgres", {
    pgUrl: args["pg-url"]!,
    logLevel: args["log-level"]!,
    keep: !!args.keep,
    log,
  });
  const client = new pg.Client({ connectionString: server.pgUrl });
  try {
    // The first start migrates and makes the demo tenant, whose products are seeded with the server stopped.
    const demo = (await server.start()).firstStart.demo;
    if (!demo) throw new Error("no demo tenant printed");
    await server.stop();
    const database = await server.openDatabase();
    const seed = await seedProducts(database, { tenantName: demo.tenant, count: Number(args.products), subPassword: "Bench-Sub-1", log });
    await database.close();
    log(`seeded ${seed.products} products in ${(seed.ms.total / 1000).toFixed(1)} s`);

    const app = await server.start();
    const host = await accessToken(app.url, "admin", BENCH_ADMIN_PASSWORD);
    await client.connect();
    // As the server's pool runs (server/db/client.ts).
    await client.query("set jit = off");
    const [{ server_version: version }] = (await client.query("show server_version")).rows as { server_version: string }[];

    const rounds: { bare: number; copy: number; span: number; rows: number; remark: string }[] = [];
    // Each side starts from a vacuumed table (the bare's rolled-back rows gone), and they take turns going first.
    const vacuumed = async <T>(run: () => Promise<T>) => {
      await client.query("vacuum products");
      return run();
    };
    for (let i = 1; i <= ROUNDS; i++) {
      const dest = await openTenant(app, host, `copy${i}${Date.now().toString(36)}`);
      const bareFirst = i % 2 === 1;
      const b1 = bareFirst ? await vacuumed(() => bare(client, seed.tenantId, dest)) : null;
      const c = await vacuumed(() => copy(app, host, seed.tenantId, dest.tenantId));
      const b = b1 ?? (await vacuumed(() => bare(client, seed.tenantId, dest)));
      rounds.push({ bare: b.seconds, copy: c.seconds, span: c.span, rows: b.rows, remark: c.remark });
      log(
        `round ${i}: bare ${b.seconds.toFixed(2)} s (${b.rows} rows), copy ${c.seconds.toFixed(2)} s (task span ${c.span.toFixed(2)} s): ${c.remark}`,
      );
    }
    const mean = (k: "bare" | "copy" | "span") => rounds.reduce((n, r) => n + r[k], 0) / rounds.length;
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, PostgreSQL ${version}, Node ${process.version}`;
    const lines = [
      `| round | rows | bare INSERT … SELECT | CopyProductsToTenant (call to task end) | task's own span | ratio |`,
      `|---|---:|---:|---:|---:|---:|`,
      ...rounds.map(
        (r, i) =>
          `| ${i + 1} | ${r.rows} | ${r.bare.toFixed(2)} s | ${r.copy.toFixed(2)} s | ${r.span.toFixed(2)} s | ${(r.copy / r.bare).toFixed(2)}× |`,
      ),
      `| mean | | ${mean("bare").toFixed(2)} s | ${mean("copy").toFixed(2)} s | ${mean("span").toFixed(2)} s | ${(mean("copy") / mean("bare")).toFixed(2)}× |`,
      "",
      `Machine: ${machine}.`,
    ];
    console.log(lines.join("\n"));
    writeFileSync(join(benchDataDir, "tenant-copy.json"), JSON.stringify({ products: seed.products, machine, rounds }, null, 2));
  } finally {
    await client.end().catch(() => {});
    await server.cleanup();
  }
}

await main();
