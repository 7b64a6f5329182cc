// Bulk edits over a large selection as tasks (issue 29), through the real HTTP stack and the job queue: past the
// threshold (lowered here by config.bulkEditTask, with batches smaller still, so every task runs several batches) a
// price edit and a find-and-replace answer a task id at once; the task ends done with the right count, every row
// changed exactly, and the undo (a task too) restores every row exactly. A small selection stays in the call; a
// batch refused midway ends the task as partial, saying so; another tenant sees nothing of the task; while a task runs
// the tenant's other bulk edits are refused.
import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productEdits, productEditTargets, products, taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { BULK_EDIT_TASK_THRESHOLD } from "#shared/contract/product.ts";
import { MAX_PAGE_SIZE } from "#shared/contract/common.ts";
import type { BulkEditTaskState } from "./bulk-tasks.ts";

const THRESHOLD = 50;
const BATCH = 40;
const N = 230;

let s: TestServer;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  s = await startTestServer({ bulkEditTask: { threshold: THRESHOLD, batchSize: BATCH } });
  a = await s.createTenant();
  b = await s.createTenant();
});
afterAll(() => s?.close());

type Row = typeof products.$inferSelect;

/** n products tagged by sku; every third has a title holding 耐克 (twice in one language for some). */
async function seed(t: TestTenant, n: number, userId = t.userId) {
  const tag = `tag-${randomUUID()}`;
  const rows = Array.from({ length: n }, (_, i) => ({
    tenantId: t.tenantId,
    id: randomUUID(),
    userId,
    sku: tag,
    title: i % 3 === 0 ? { zh: `耐克鞋${i}耐克`, en: `Nike ${i}` } : { zh: `商品${i}`, en: `Item ${i}` },
    description: { en: `<p>${i}</p>` },
    price: i % 9 === 0 ? null : (((i * 3719) % 100000) / 100 + 1).toFixed(2),
    variants: i % 2 ? [{ sku: `v${i}`, price: ((i * 13) % 5000) / 100 }] : [],
    status: 1 + (i % 4),
  }));
  await inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
    for (let i = 0; i < rows.length; i += 500) await tx.insert(products).values(rows.slice(i, i + 500));
  });
  return tag;
}

const rowsOfTag = (t: TestTenant, tag: string): Promise<Row[]> =>
  inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.select().from(products).where(eq(products.sku, tag)).orderBy(asc(products.id)),
  );
/** A row without its audit stamp (an edit and its undo both renew it): what undo must restore exactly. */
const content = ({ lastModificationTime, lastModifierId, concurrencyStamp, ...rest }: Row) => {
  void [lastModificationTime, lastModifierId, concurrencyStamp];
  return rest;
};

const P = "/api/Product";
type Answer = { count: number; editId: string | null; taskId?: string | null };
async function call(token: string, path: string, body: unknown): Promise<Answer> {
  const res = await s.api("POST", path, { token, body });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as Answer;
}

type Task = { id: string; taskStatus: number; taskRemark: string | null; progress: number; creatorId: string };
const listTasks = async (token: string): Promise<Task[]> => {
  const res = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", {
    token,
    query: { TaskType: TaskType.BulkEditProducts, MaxResultCount: 100 },
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.items as Task[];
};
async function waitForTask(token: string, taskId: string, timeoutMs = 30_000): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = (await listTasks(token)).find((t) => t.id === taskId);
    if (task && (task.taskStatus === TaskStatus.Succeeded || task.taskStatus === TaskStatus.Failed)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} not finished in ${timeoutMs} ms: ${JSON.stringify(task)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const stateOf = async (t: TestTenant, taskId: string) => {
  const [row] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select({ state: taskInfos.state })
      .from(taskInfos)
      .where(and(eq(taskInfos.tenantId, t.tenantId), eq(taskInfos.id, taskId))),
  );
  return row.state as BulkEditTaskState;
};
const editRecord = async (t: TestTenant, editId: string) =>
  (
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx
        .select()
        .from(productEdits)
        .where(and(eq(productEdits.tenantId, t.tenantId), eq(productEdits.id, editId))),
    )
  )[0];

/** The edit's listed selection not yet taken by a batch (product_edit_targets). */
const targetsLeft = async (t: TestTenant, editId: string) =>
  (
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx
        .select({ n: productEditTargets.n })
        .from(productEditTargets)
        .where(and(eq(productEditTargets.tenantId, t.tenantId), eq(productEditTargets.editId, editId))),
    )
  ).length;

/** Undoes the edit through a task (it is over the threshold) and checks every row is back exactly. */
async function undoAsTask(t: TestTenant, editId: string, tag: string, before: Row[]) {
  const res = await s.api("POST", `${P}/UndoProductEdit`, { token: t.token, body: { id: editId } });
  expect(res.status, res.raw).toBe(200);
  const answer = res.body.result as { count: number; taskId?: string };
  expect(answer.taskId).toMatch(/^[0-9a-f-]{36}$/);
  const task = await waitForTask(t.token, answer.taskId!);
  expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Succeeded);
  expect((await stateOf(t, answer.taskId!)).count).toBe((await editRecord(t, editId)).rowCount);
  expect((await rowsOfTag(t, tag)).map(content)).toEqual(before.map(content));
  expect((await editRecord(t, editId)).undoneTime).not.toBeNull();
}

describe("bulk edits over a large selection", () => {
  it("the contract's id lists stay under the threshold: a selection by ids (and the collection list's batch calls) is never a task", () => {
    expect(2 * MAX_PAGE_SIZE).toBeLessThan(BULK_EDIT_TASK_THRESHOLD);
  });

  it("BatchUpdateProductPrice answers a task that changes every row in batches; its undo (a task) restores every row", async () => {
    const tag = await seed(a, N);
    const untouched = await seed(a, 20);
    const before = await rowsOfTag(a, tag);
    const answer = await call(a.token, `${P}/BatchUpdateProductPrice`, { filter: { sku: tag }, rate: 1.1, price: 0 });
    expect(answer.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.count).toBe(0);
    const task = await waitForTask(a.token, answer.taskId!);
    expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Succeeded);
    expect(task.progress).toBe(100);
    expect(task.taskRemark).toContain(`${N} 个商品`);
    const state = await stateOf(a, answer.taskId!);
    expect(state).toMatchObject({ count: N, outcome: "succeeded", editId: answer.editId });
    expect(state).toMatchObject({ batches: Math.ceil(N / BATCH), batchTotal: Math.ceil(N / BATCH) });
    expect((await editRecord(a, answer.editId!)).rowCount).toBe(N);
    expect(await targetsLeft(a, answer.editId!)).toBe(0);

    const after = new Map((await rowsOfTag(a, tag)).map((r) => [r.id, r]));
    // × 1.1 in exact cents, rounded half up as numeric does (the prices are positive).
    const times11 = (v: number | string) => Math.floor((Math.round(Number(v) * 100) * 110 + 50) / 100);
    for (const old of before) {
      const now = after.get(old.id)!;
      expect(now.price, old.id).toBe(old.price === null ? null : (times11(old.price) / 100).toFixed(2));
      const oldVariants = old.variants as { price: number }[];
      expect(now.variants).toEqual(oldVariants.map((v) => ({ ...v, price: times11(v.price) / 100 })));
    }
    expect((await rowsOfTag(a, untouched)).every((r) => r.lastModifierId === null)).toBe(true);

    const last = await s.api("GET", `${P}/GetLastProductEdit`, { token: a.token });
    expect(last.body.result).toMatchObject({ id: answer.editId, rowCount: N, canUndo: true });
    await undoAsTask(a, answer.editId!, tag, before);
  });

  it("ReplaceKeyword answers a task that replaces the word in every matching title; undo restores them exactly", async () => {
    const tag = await seed(a, 3 * N);
    const before = await rowsOfTag(a, tag);
    const holding = before.filter((r) => (r.title as Record<string, string>).zh.includes("耐克"));
    expect(holding.length).toBeGreaterThan(THRESHOLD);
    const answer = await call(a.token, `${P}/ReplaceKeyword`, {
      filter: { sku: tag },
      keyword: "耐克",
      replaceText: "NIKE",
      isReplaceTitle: true,
    });
    expect(answer.taskId).toBeTruthy();
    const task = await waitForTask(a.token, answer.taskId!);
    expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Succeeded);
    expect((await stateOf(a, answer.taskId!)).count).toBe(holding.length);
    const after = new Map((await rowsOfTag(a, tag)).map((r) => [r.id, r]));
    for (const old of before) {
      const title = old.title as Record<string, string>;
      const now = after.get(old.id)!;
      expect(now.title).toEqual({ ...title, zh: title.zh.replaceAll("耐克", "NIKE") });
      if (!title.zh.includes("耐克")) expect(content(now)).toEqual(content(old));
    }
    await undoAsTask(a, answer.editId!, tag, before);
  });

  it("a selection up to the threshold is changed in the call, with no task", async () => {
    const tag = await seed(a, THRESHOLD);
    const changing = (await rowsOfTag(a, tag)).filter((r) => r.status !== 4).length;
    // Exactly THRESHOLD products selected: the edit itself changes fewer (those already at 4 are skipped).
    const answer = await call(a.token, `${P}/BatchUpdateProductStatus`, { filter: { sku: tag }, status: 4 });
    expect(answer.taskId ?? null).toBeNull();
    expect(answer.count).toBe(changing);
    expect((await rowsOfTag(a, tag)).every((r) => r.status === 4)).toBe(true);
    const undone = await s.api("POST", `${P}/UndoProductEdit`, { token: a.token, body: { id: answer.editId } });
    expect(undone.body.result).toEqual({ count: answer.count });
  });

  it("a batch refused midway (the owner's limit) ends the task as partial, saying how many moved; undo puts those back", async () => {
    const sub = await s.createSubUser(a, undefined, { productCount: 100 });
    const tag = await seed(a, N);
    const before = await rowsOfTag(a, tag);
    const answer = await call(a.token, `${P}/AssignProduct`, { filter: { sku: tag }, userId: sub.id });
    const task = await waitForTask(a.token, answer.taskId!);
    expect(task.taskStatus).toBe(TaskStatus.Failed);
    const moved = Math.floor(100 / BATCH) * BATCH;
    expect(task.taskRemark).toContain(`部分完成：已修改 ${moved} 个商品`);
    expect(task.taskRemark).toContain("产品数量将超过上限");
    expect((await rowsOfTag(a, tag)).filter((r) => r.userId === sub.id)).toHaveLength(moved);
    expect((await editRecord(a, answer.editId!)).rowCount).toBe(moved);
    // The selection listed for the batches goes with the task that ended short.
    expect(await targetsLeft(a, answer.editId!)).toBe(0);
    await undoAsTask(a, answer.editId!, tag, before);
  });

  it("another tenant sees nothing of the task, and its products are untouched", async () => {
    const tagA = await seed(a, N);
    const tagB = await seed(b, 10);
    const beforeB = (await rowsOfTag(b, tagB)).map(content);
    const answer = await call(a.token, `${P}/BatchUpdateProductSamePrice`, { filter: { sku: tagA }, fixPrice: 9.9 });
    await waitForTask(a.token, answer.taskId!);
    expect((await listTasks(b.token)).map((t) => t.id)).not.toContain(answer.taskId);
    expect(await listTasks(b.token)).toEqual([]);
    expect((await s.api("GET", `${P}/GetLastProductEdit`, { token: b.token })).body.result).toBeNull();
    const foreign = await s.api("POST", `${P}/UndoProductEdit`, { token: b.token, body: { id: answer.editId } });
    expect(foreign.status).toBe(404);
    expect((await rowsOfTag(b, tagB)).map(content)).toEqual(beforeB);
  });

  it("while a bulk edit task of the tenant runs, its other bulk edits and undos are refused with the reason", async () => {
    const tag = await seed(a, 5);
    const taskId = randomUUID();
    await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
      tx.insert(taskInfos).values({
        tenantId: a.tenantId,
        id: taskId,
        taskType: TaskType.BulkEditProducts,
        taskStatus: TaskStatus.Running,
        content: "x",
        creatorId: a.userId,
        progress: 40,
      }),
    );
    try {
      const res = await s.api("POST", `${P}/BatchUpdateProductStatus`, { token: a.token, body: { filter: { sku: tag }, status: 4 } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("ProductEdit.TaskRunning");
      expect(res.body.error.message).toContain("40%");
      // Another tenant is not held back.
      const tagB = await seed(b, 3);
      expect((await call(b.token, `${P}/BatchUpdateProductStatus`, { filter: { sku: tagB }, status: 4 })).count).toBeGreaterThan(0);
    } finally {
      await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
        tx
          .update(taskInfos)
          .set({ taskStatus: TaskStatus.Cancelled })
          .where(and(eq(taskInfos.tenantId, a.tenantId), eq(taskInfos.id, taskId))),
      );
    }
  });
});
