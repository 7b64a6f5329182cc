// Bulk edits as tasks (issue 29), PostgreSQL: BatchUpdateProductPrice and ReplaceKeyword over bench1's products (10 % of
// --products, 100,000 of 1,000,000 by default) through HTTP, each answered at once with a task that changes the rows in
// batches, timed from the call to the task's end; against the bare statement over the same rows in the same run
// (`UPDATE products SET price = price * 1.1 …` and `… SET title = … replace(…)`, in a transaction rolled back, with
// the same table, triggers and indexes); then the undo of each (a task too) against its edit.
//
//   npm run bench:bulk-tasks -- [--pg-url=postgres://postgres@127.0.0.1:5432/test] [--products=1000000]
//
// Prints a markdown table of the seconds and ratios; writes them as JSON into bench/.data/bulk-tasks.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { accessToken, createFreshPostgresDatabase, freePort, repoRoot, startApp, type AppProcess } from "../e2e/app-process.ts";
import { openDatabase } from "../server/db/client.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { PREFIX_WORD, seedProducts } from "./product-seed.ts";

const { values: args } = parseArgs({
  options: {
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test" },
    products: { type: "string", default: "1000000" },
    keep: { type: "boolean", default: false },
  },
});
const ADMIN_PASSWORD = "Bench-Admin-1";
const SUB_PASSWORD = "Bench-Sub-1";
const outDir = join(repoRoot, "bench", ".data");
const log = (line: string) => console.error(line);
const secondsSince = (t0: number) => (performance.now() - t0) / 1000;

type Task = { id: string; taskStatus: number; taskRemark: string | null };

async function call<T>(app: AppProcess, token: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { result: T };
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.result;
}

/** Polls the task centre every 100 ms until the task has ended. */
async function taskEnd(app: AppProcess, token: string, taskId: string): Promise<Task> {
  for (;;) {
    const res = await fetch(`${app.url}/api/TaskInfo/GetTaskInfoByPage?TaskType=${TaskType.BulkEditProducts}&MaxResultCount=20`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const items = ((await res.json()) as { result: { items: Task[] } }).result.items;
    const t = items.find((x) => x.id === taskId);
    if (t && (t.taskStatus === TaskStatus.Succeeded || t.taskStatus === TaskStatus.Failed)) return t;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A call answered with a task: seconds to the answer and to the task's end. */
async function timedTask(app: AppProcess, token: string, path: string, body: unknown) {
  const t0 = performance.now();
  const answer = await call<{ count: number; editId?: string | null; taskId?: string | null }>(app, token, path, body);
  const answered = secondsSince(t0);
  if (!answer.taskId) return { answer, answered, seconds: answered, remark: `in the call: ${answer.count}` };
  const task = await taskEnd(app, token, answer.taskId);
  if (task.taskStatus !== TaskStatus.Succeeded) throw new Error(`${path}: task ended ${task.taskStatus}: ${task.taskRemark}`);
  return { answer, answered, seconds: secondsSince(t0), remark: task.taskRemark ?? "" };
}

/** The bare statement, timed alone in a transaction rolled back (the rows stay as they were). */
async function bare(client: pg.Client, statement: string, params: unknown[]) {
  await client.query("begin");
  try {
    const t0 = performance.now();
    const r = await client.query(statement, params);
    return { seconds: secondsSince(t0), rows: r.rowCount ?? 0 };
  } finally {
    await client.query("rollback");
  }
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-bulk-tasks-"));
  const logFile = join(outDir, "bulk-tasks-server.log");
  writeFileSync(logFile, "");
  const pgDatabase = await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_bulk");
  const env = { DATA_DIR: dataDir, DATABASE_URL: pgDatabase.url, HOST: "127.0.0.1", ADMIN_PASSWORD, LOG_LEVEL: "warn" };
  let app: AppProcess | undefined;
  const client = new pg.Client({ connectionString: pgDatabase.url });
  try {
    const first = await startApp({ ...env, PORT: String(await freePort()) }, { logFile });
    const demo = first.firstStart.demo;
    if (!demo) throw new Error(`no demo tenant printed:\n${first.stdout()}`);
    if ((await first.stop()) !== 0) throw new Error("first start did not exit 0");
    const database = await openDatabase({ kind: "postgres", url: pgDatabase.url, poolSize: 2 });
    const seed = await seedProducts(database, { tenantName: demo.tenant, count: Number(args.products), subPassword: SUB_PASSWORD, log });
    await database.close();
    const bench1 = seed.subUsers[0];
    log(`seeded ${seed.products} products; bench1 owns ${bench1.products}`);

    app = await startApp({ ...env, PORT: String(await freePort()) }, { logFile });
    const token = await accessToken(app.url, demo.user, demo.password, demo.tenant);
    await client.connect();
    // As the server's pool runs (server/db/client.ts).
    await client.query("set jit = off");
    const selected = "tenant_id = $1 and user_id = $2 and is_deleted = false";
    const ids = [seed.tenantId, bench1.id];
    const filter = { userId: bench1.id };
    const keyword = `【${PREFIX_WORD}】`;

    const rows: { edit: string; rows: number; bare: number; task: number; answered: number; undo: number }[] = [];
    const priceBare = await bare(client, `update products set price = price * 1.1 where ${selected}`, ids);
    const price = await timedTask(app, token, "/api/Product/BatchUpdateProductPrice", { filter, rate: 1.1, price: 0 });
    const priceUndo = await timedTask(app, token, "/api/Product/UndoProductEdit", { id: price.answer.editId });
    rows.push({
      edit: "BatchUpdateProductPrice (×1.1)",
      rows: priceBare.rows,
      bare: priceBare.seconds,
      task: price.seconds,
      answered: price.answered,
      undo: priceUndo.seconds,
    });
    log(
      `price: bare ${priceBare.seconds.toFixed(2)} s, task ${price.seconds.toFixed(2)} s (${price.remark}), undo ${priceUndo.seconds.toFixed(2)} s`,
    );

    const replaceBare = await bare(
      client,
      `update products set title = (select jsonb_object_agg(e.key, case when jsonb_typeof(e.value) = 'string'
          then to_jsonb(replace(e.value #>> '{}', $3, '【精选】')) else e.value end) from jsonb_each(title) e)
        where ${selected} and strpos(title::text, $3) > 0`,
      [...ids, keyword],
    );
    const replace = await timedTask(app, token, "/api/Product/ReplaceKeyword", {
      filter,
      keyword,
      replaceText: "【精选】",
      isReplaceTitle: true,
    });
    const replaceUndo = await timedTask(app, token, "/api/Product/UndoProductEdit", { id: replace.answer.editId });
    rows.push({
      edit: "ReplaceKeyword (titles)",
      rows: replaceBare.rows,
      bare: replaceBare.seconds,
      task: replace.seconds,
      answered: replace.answered,
      undo: replaceUndo.seconds,
    });
    log(
      `replace: bare ${replaceBare.seconds.toFixed(2)} s, task ${replace.seconds.toFixed(2)} s (${replace.remark}), undo ${replaceUndo.seconds.toFixed(2)} s`,
    );

    const lines = [
      `| edit | rows | bare UPDATE | call answered | task to its end | ratio | undo (task) | undo / edit |`,
      `|---|---:|---:|---:|---:|---:|---:|---:|`,
      ...rows.map(
        (r) =>
          `| ${r.edit} | ${r.rows} | ${r.bare.toFixed(2)} s | ${(r.answered * 1000).toFixed(0)} ms | ${r.task.toFixed(2)} s | ${(r.task / r.bare).toFixed(2)}× | ${r.undo.toFixed(2)} s | ${(r.undo / r.task).toFixed(2)}× |`,
      ),
    ];
    console.log(lines.join("\n"));
    writeFileSync(join(outDir, "bulk-tasks.json"), JSON.stringify({ products: seed.products, rows }, null, 2));
  } finally {
    await client.end().catch(() => {});
    if (app) await app.stop();
    if (!args.keep) {
      await pgDatabase.drop().catch((e: unknown) => log(`drop failed: ${String(e)}`));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

await main();
