// Recorded bulk edits of products and their undo (spec §3 Bulk edits). A bulk edit is one set-based UPDATE; the
// statement trigger products_edit_backup copies the columns it changed into product_edit_backups ({column: previous
// value} per row) from the statement's old rows, and product_edits keeps what the edit was. The user's last edit can
// be undone for UNDO_WINDOW_HOURS by one update restoring every recorded column from its backup. A bulk edit task
// (bulk-tasks.ts) lists its selection once (listEditTargets) and runs the same update over the listed rows in batches
// under one edit id (updateRecorded), and undoes in batches.
// Anything that changes many products for a user (the bulk calls, the translation job) goes through recordBulkEdit
// or, past the task threshold, bulk-tasks.ts.
import { randomUUID } from "node:crypto";
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { businessError, notFound } from "../../http/errors.ts";
import { UNDO_WINDOW_HOURS, type BulkEditResult, type ProductEditInfo } from "#shared/contract/product.ts";
import { ProductStatus, TaskStatus, TaskType } from "#shared/contract/enums.ts";

/**
 * A product's status after a change of its content (title, description, price, weight, size, attributes, category,
 * translation): an unedited product becomes Ready (待发布, edited); any status the user chose stays. `status` is the
 * row's status column as the statement names it. A recorded bulk edit setting it lists "status" in its columns, so
 * its undo restores the status too.
 */
export const editedStatus = (status: SQL) =>
  sql`case when ${status} = ${ProductStatus.Unedited}::int then ${ProductStatus.Ready}::int else ${status} end`;

/** What a bulk edit needs of its caller: the transaction (scoped to the tenant), the tenant and who edits. */
export type EditContext = { tx: Tx; tenantId: string; user: { id: string } | null };

export type BulkEdit = {
  /** The call's name, e.g. BatchUpdateProductPrice; shown by GetLastProductEdit. */
  kind: string;
  /** The products columns (database names) the edit changes: exactly the ones backed up and restored by undo. */
  columns: readonly string[];
  /**
   * The rows to change, over the table `products` (not aliased), e.g. selectionWhere(ctx, body) plus conditions that
   * skip rows the edit would not change. Only these rows are changed and recorded.
   */
  where: SQL;
  /**
   * The update's SET list for those columns, e.g. sql`price = round(${products.price} * 2, 2)`; the current row is
   * `products` (drizzle's columns render as "products"."col"). The audit columns are added here.
   */
  set: SQL;
  /** The edit's input, kept with the record. */
  input: unknown;
};

/** products columns by database name: their SQL type (for casting a backup back) and whether they take null. */
const productColumns = new Map(
  Object.values(getTableColumns(products)).map((c) => [c.name, { type: c.getSQLType(), notNull: c.notNull }] as const),
);
const windowInterval = sql.raw(`interval '${UNDO_WINDOW_HOURS} hours'`);

function columnInfo(name: string) {
  const info = productColumns.get(name);
  if (!info) throw new Error(`products has no column ${name}`);
  return info;
}

/** The undo's SET list: every recorded column from `b.before`, cast back to its type. */
function restoreList(columns: readonly string[]): SQL {
  return sql.join(
    columns.map((name) => {
      const { type, notNull } = columnInfo(name);
      const target = sql.identifier(name);
      if (type === "jsonb") return notNull ? sql`${target} = b.before -> ${name}::text` : sql`${target} = (b.before -> ${name}::text) -> 0`;
      return sql`${target} = (b.before ->> ${name}::text)::${sql.raw(type)}`;
    }),
    sql`, `,
  );
}

/**
 * Takes the tenant's bulk-edit lock until the transaction ends. Bulk edits, undos and the translation job of one
 * tenant run one after another: two set-based updates over overlapping rows lock them in whatever order their plans
 * visit them and can deadlock, and two edits of one user race on the record of the latest edit. Calls marked `bulk`
 * already wait their turn in the process (server/http/admission.ts); this lock covers other processes and the jobs.
 */
export async function lockTenantBulkEdits(tx: Tx, tenantId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${BULK_EDIT_LOCK}::int, hashtext(${tenantId}::text))`);
}
/** The first key of the bulk-edit advisory lock (the second is the tenant's hash). */
const BULK_EDIT_LOCK = 0x0e_d1_7001;

/**
 * While a bulk edit task (or the undo of one) of the tenant runs, its other bulk edits and undos wait for it: its
 * batches commit one after another, and an edit slipped in between would change rows the task has yet to reach (its
 * backups would then hold that edit's values) or undo under it. A task not heard from for EDIT_TASK_STALE_MINUTES
 * (its process gone and no worker took it up) no longer holds the tenant back.
 */
export async function refuseWhileEditTaskRuns(tx: Tx, tenantId: string): Promise<void> {
  const [running] = rowsOf<{ progress: number }>(
    await tx.execute(sql`select progress from task_infos
      where tenant_id = ${tenantId} and task_type = ${TaskType.BulkEditProducts}::int
        and task_status in (${TaskStatus.Pending}::int, ${TaskStatus.Running}::int)
        and last_update_time > now() - ${staleInterval}
      limit 1`),
  );
  if (running) throw businessError(`有批量修改任务正在进行（${running.progress}%），请等它完成后再修改或撤销`, "ProductEdit.TaskRunning");
}
const EDIT_TASK_STALE_MINUTES = 15;
const staleInterval = sql.raw(`interval '${EDIT_TASK_STALE_MINUTES} minutes'`);

/**
 * Drops the backups of the user's edits past the undo window: one delete, bounded to edits not cleaned yet (every
 * earlier edit's record ran this too, so only edits from the window before the user's latest edit on can still have
 * backups to drop).
 */
export async function dropExpiredBackups(tx: Tx, tenantId: string, userId: string): Promise<void> {
  await tx.execute(sql`delete from product_edit_backups b using product_edits e
    where e.tenant_id = ${tenantId} and e.user_id = ${userId}
      and e.creation_time < now() - ${windowInterval}
      and e.creation_time >= coalesce((select max(l.creation_time) from product_edits l
        where l.tenant_id = ${tenantId} and l.user_id = ${userId}), '-infinity'::timestamptz) - ${windowInterval}
      and b.tenant_id = e.tenant_id and b.edit_id = e.id`);
}

/** The record of an edit (product_edits), with the rows it changed so far. */
export async function insertEditRecord(
  tx: Tx,
  tenantId: string,
  userId: string,
  editId: string,
  edit: Pick<BulkEdit, "kind" | "columns" | "input">,
  count: number,
) {
  edit.columns.forEach(columnInfo);
  await tx.execute(sql`insert into product_edits (tenant_id, id, user_id, kind, columns, input, row_count, creator_id)
    values (${tenantId}, ${editId}::uuid, ${userId}, ${edit.kind}, ${JSON.stringify(edit.columns)}::jsonb,
      ${JSON.stringify(edit.input ?? {})}::jsonb, ${count}, ${userId})`);
}

/** A bulk edit task's batch: the targets numbered (from, to] of the edit's listed selection (listEditTargets). */
export type TargetBatch = { tenantId: string; from: number; to: number };

/**
 * The one update of a recorded edit, backed up by the statement trigger products_edit_backup (migration 0006) into the
 * edit's backups: every matching row, or (a task's batch) the batch's targets that still match, taking them off the
 * list in the same statement. Answers the rows changed.
 */
export async function updateRecorded(
  tx: Tx,
  editId: string,
  edit: BulkEdit,
  userId: string,
  batch: TargetBatch | null = null,
): Promise<number> {
  // A batch reaches its rows by their key from the listed targets, not by walking the selection's index again.
  const targets = batch
    ? sql`erp_targets as (
        delete from product_edit_targets where tenant_id = ${batch.tenantId} and edit_id = ${editId}::uuid
          and n > ${batch.from}::int and n <= ${batch.to}::int
        returning product_id
      ), `
    : sql``;
  const join = batch ? sql` from erp_targets t` : sql``;
  const byTarget = batch ? sql` and products.tenant_id = ${batch.tenantId} and products.id = t.product_id` : sql``;
  return recordedUpdate(tx, editId, edit.columns, () =>
    tx.execute(sql`with ${targets}erp_updated as (
      update products set ${edit.set}, last_modification_time = now(), last_modifier_id = ${userId}::uuid,
        concurrency_stamp = gen_random_uuid()::text${join}
      where ${edit.where}${byTarget}
      returning 1
    )
    select count(*)::int as n from erp_updated`),
  );
}

/**
 * Runs one update of products (answering `n`, the rows it changed) with the edit's backup on: the statement trigger
 * copies the previous values of `columns` of exactly the rows it changed into the edit's backups. Answers n.
 */
export async function recordedUpdate(tx: Tx, editId: string, columns: readonly string[], update: () => Promise<unknown>): Promise<number> {
  if (!columns.length) throw new Error("a bulk edit changes at least one column");
  columns.forEach(columnInfo);
  await tx.execute(sql`select set_config('erp.edit_id', ${editId}, true), set_config('erp.edit_columns', ${columns.join(",")}, true)`);
  const result = await update();
  await tx.execute(sql`select set_config('erp.edit_id', '', true)`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/**
 * Lists a task's selection once as the edit's targets, numbered 1… in id order (`after`: only ids past it); answers
 * how many. Each batch then takes its numbers (updateRecorded) and the task's end drops any left (dropEditTargets).
 */
export async function listEditTargets(tx: Tx, tenantId: string, editId: string, where: SQL, after: string | null): Promise<number> {
  const past = after ? sql` and products.id > ${after}::uuid` : sql``;
  const [row] = rowsOf<{ n: number }>(
    await tx.execute(sql`with listed as (
        insert into product_edit_targets (tenant_id, edit_id, n, product_id)
        select ${tenantId}::uuid, ${editId}::uuid, row_number() over (order by products.id), products.id
        from products where ${where}${past}
        returning 1
      )
      select count(*)::int as n from listed`),
  );
  return Number(row?.n ?? 0);
}

/** Drops what is left of a task's targets (it ended short, or its last batch had fewer rows than listed). */
export async function dropEditTargets(tx: Tx, tenantId: string, editId: string): Promise<void> {
  await tx.execute(sql`delete from product_edit_targets where tenant_id = ${tenantId} and edit_id = ${editId}::uuid`);
}

/**
 * Runs a bulk edit and records it for undo: (1) drops the backups of the user's edits past the undo window, (2) one
 * update of the matching rows (backed up by the trigger), (3) the product_edits row. Nothing matched: nothing
 * recorded, {count: 0, editId: null}.
 */
export async function recordBulkEdit(ctx: EditContext, edit: BulkEdit): Promise<BulkEditResult> {
  if (!edit.columns.length) throw new Error("a bulk edit changes at least one column");
  edit.columns.forEach(columnInfo);
  const userId = ctx.user!.id;
  const { tx, tenantId } = ctx;
  await lockTenantBulkEdits(tx, tenantId);
  await refuseWhileEditTaskRuns(tx, tenantId);
  await dropExpiredBackups(tx, tenantId, userId);
  const editId = randomUUID();
  const count = await updateRecorded(tx, editId, edit, userId);
  if (!count) return { count: 0, editId: null };
  await insertEditRecord(tx, tenantId, userId, editId, edit, count);
  return { count, editId };
}

type EditRow = {
  id: string;
  kind: string;
  columns: string[];
  rowCount: number;
  creationTime: Date;
  undoneTime: Date | null;
  inWindow: boolean;
};

/** The user's latest edit (any state), locked when asked. */
async function latestEdit(ctx: EditContext, lock: boolean): Promise<EditRow | null> {
  const rows = rowsOf<EditRow>(
    await ctx.tx.execute(sql`select id, kind, columns, row_count as "rowCount", creation_time as "creationTime",
        undone_time as "undoneTime", creation_time > now() - ${windowInterval} as "inWindow"
      from product_edits where tenant_id = ${ctx.tenantId} and user_id = ${ctx.user!.id}
      order by creation_time desc, id desc limit 1${lock ? sql` for update` : sql``}`),
  );
  return rows[0] ?? null;
}

const asDate = (d: Date | string) => (d instanceof Date ? d : new Date(d));

/** GetLastProductEdit: the caller's latest bulk edit and whether it can still be undone, or null. */
export async function getLastProductEdit(ctx: EditContext): Promise<ProductEditInfo | null> {
  const e = await latestEdit(ctx, false);
  if (!e) return null;
  const created = asDate(e.creationTime);
  return {
    id: e.id,
    kind: e.kind,
    rowCount: e.rowCount,
    creationTime: created.toISOString(),
    undoneTime: e.undoneTime ? asDate(e.undoneTime).toISOString() : null,
    canUndo: !e.undoneTime && e.inWindow,
    undoUntil: new Date(created.getTime() + UNDO_WINDOW_HOURS * 3_600_000).toISOString(),
  };
}

export type UndoableEdit = { id: string; columns: string[]; rowCount: number };

/**
 * The caller's latest edit, checked to be undoable now (it is `id`, not undone, within the window, no task running),
 * with the tenant's bulk-edit lock taken.
 */
export async function undoableEdit(ctx: EditContext, id: string): Promise<UndoableEdit> {
  await lockTenantBulkEdits(ctx.tx, ctx.tenantId);
  await refuseWhileEditTaskRuns(ctx.tx, ctx.tenantId);
  const latest = await latestEdit(ctx, true);
  if (!latest || latest.id !== id) {
    const [mine] = rowsOf(
      await ctx.tx.execute(sql`select 1 from product_edits where tenant_id = ${ctx.tenantId} and id = ${id} and user_id = ${ctx.user!.id}`),
    );
    if (!mine) throw notFound("批量修改不存在");
    throw businessError("只能撤销最近一次批量修改", "ProductEdit.NotLatest");
  }
  if (latest.undoneTime) throw businessError("该批量修改已撤销", "ProductEdit.Undone");
  if (!latest.inWindow) throw businessError(`批量修改已超过 ${UNDO_WINDOW_HOURS} 小时，无法撤销`, "ProductEdit.Expired");
  return { id: latest.id, columns: latest.columns, rowCount: latest.rowCount };
}

/**
 * Restores rows of an edit to the values it recorded (also rows changed again since: the recorded values win), in
 * one statement that also drops their backups: every row, or (an undo task's batch) the next `batchSize` by id.
 * Answers how many rows were restored and how many backups were taken (fewer than `batchSize`: the undo is complete).
 */
export async function restoreEdit(
  ctx: EditContext,
  edit: UndoableEdit,
  batchSize: number | null = null,
): Promise<{ restored: number; taken: number }> {
  // A batch ends at the batchSize-th backup by product id (none: it takes the rest): a range of the backups' key.
  const [bound] = batchSize
    ? rowsOf<{ id: string }>(
        await ctx.tx.execute(sql`select product_id::text as id from product_edit_backups
          where tenant_id = ${ctx.tenantId} and edit_id = ${edit.id} order by product_id offset ${batchSize - 1} limit 1`),
      )
    : [];
  const which = bound ? sql` and product_id <= ${bound.id}::uuid` : sql``;
  const result = await ctx.tx.execute(sql`with b as (
      delete from product_edit_backups where tenant_id = ${ctx.tenantId} and edit_id = ${edit.id}${which}
      returning product_id, before
    ), erp_restored as (
      update products set ${restoreList(edit.columns)}, last_modification_time = now(),
        last_modifier_id = ${ctx.user!.id}::uuid, concurrency_stamp = gen_random_uuid()::text
      from b where products.tenant_id = ${ctx.tenantId} and products.id = b.product_id
      returning 1
    )
    select (select count(*)::int from erp_restored) as restored, (select count(*)::int from b) as taken`);
  const [row] = rowsOf<{ restored: number; taken: number }>(result);
  return { restored: Number(row?.restored ?? 0), taken: Number(row?.taken ?? 0) };
}

/** Marks the edit undone (GetLastProductEdit says so; it cannot be undone again). */
export async function markUndone(ctx: EditContext, id: string): Promise<void> {
  await ctx.tx.execute(sql`update product_edits set undone_time = now() where tenant_id = ${ctx.tenantId} and id = ${id}`);
}

/**
 * Takes edits off the user's undo: their records and backups go, so GetLastProductEdit answers the user's own
 * latest edit before them (or null). For edits the product made in the user's name (the demo content's labelling),
 * which the user never made and must not be offered to undo.
 */
export async function forgetProductEdits(ctx: EditContext, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await lockTenantBulkEdits(ctx.tx, ctx.tenantId);
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await ctx.tx.execute(sql`delete from product_edit_backups where tenant_id = ${ctx.tenantId} and edit_id in (${list})`);
  await ctx.tx.execute(sql`delete from product_edits where tenant_id = ${ctx.tenantId} and user_id = ${ctx.user!.id} and id in (${list})`);
}
