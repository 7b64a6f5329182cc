// Recorded bulk edits of products and their undo (spec §3 Bulk edits). A bulk edit is one set-based UPDATE; the
// statement trigger products_edit_backup copies the columns it changed into product_edit_backups ({column: previous
// value} per row) from the statement's old rows, and product_edits keeps what the edit was. The user's last edit can
// be undone for UNDO_WINDOW_HOURS by one update restoring every recorded column from its backup.
// Anything that changes many products for a user (the bulk calls, the translation job) goes through recordBulkEdit.
import { randomUUID } from "node:crypto";
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { businessError, notFound } from "../../http/errors.ts";
import { UNDO_WINDOW_HOURS, type BulkEditResult, type ProductEditInfo } from "../../../shared/contract/product.ts";
import { ProductStatus } from "../../../shared/contract/enums.ts";

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
 * Runs a bulk edit and records it for undo: (1) drops the backups of the user's edits past the undo window (one
 * delete, bounded to edits not cleaned yet), (2) one update of the matching rows (backed up by the trigger),
 * (3) the product_edits row. Nothing matched: nothing recorded, {count: 0, editId: null}.
 */
export async function recordBulkEdit(ctx: EditContext, edit: BulkEdit): Promise<BulkEditResult> {
  if (!edit.columns.length) throw new Error("a bulk edit changes at least one column");
  edit.columns.forEach(columnInfo);
  const userId = ctx.user!.id;
  const { tx, tenantId } = ctx;
  await lockTenantBulkEdits(tx, tenantId);
  // Every earlier edit's record ran this too, so only edits from the window before the user's latest edit on can
  // still have backups to drop.
  await tx.execute(sql`delete from product_edit_backups b using product_edits e
    where e.tenant_id = ${tenantId} and e.user_id = ${userId}
      and e.creation_time < now() - ${windowInterval}
      and e.creation_time >= coalesce((select max(l.creation_time) from product_edits l
        where l.tenant_id = ${tenantId} and l.user_id = ${userId}), '-infinity'::timestamptz) - ${windowInterval}
      and b.tenant_id = e.tenant_id and b.edit_id = e.id`);
  const editId = randomUUID();
  // The statement trigger products_edit_backup copies the changed rows' previous values of these columns into
  // product_edit_backups (migration 0006), so the update is the only pass over the rows.
  await tx.execute(sql`select set_config('erp.edit_id', ${editId}, true), set_config('erp.edit_columns', ${edit.columns.join(",")}, true)`);
  const result = await tx.execute(sql`with erp_updated as (
      update products set ${edit.set}, last_modification_time = now(), last_modifier_id = ${userId}::uuid,
        concurrency_stamp = gen_random_uuid()::text
      where ${edit.where}
      returning 1
    )
    select count(*)::int as n from erp_updated`);
  await tx.execute(sql`select set_config('erp.edit_id', '', true)`);
  const count = Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
  if (!count) return { count: 0, editId: null };
  await tx.execute(sql`insert into product_edits (tenant_id, id, user_id, kind, columns, input, row_count, creator_id)
    values (${tenantId}, ${editId}::uuid, ${userId}, ${edit.kind}, ${JSON.stringify(edit.columns)}::jsonb,
      ${JSON.stringify(edit.input ?? {})}::jsonb, ${count}, ${userId})`);
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

/**
 * UndoProductEdit: restores every row the caller's latest edit touched to the values it recorded (also rows changed
 * again since: the recorded values win), in one statement that also drops the backups; the edit is marked undone.
 */
export async function undoProductEdit(ctx: EditContext, id: string): Promise<{ count: number }> {
  await lockTenantBulkEdits(ctx.tx, ctx.tenantId);
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
  const result = await ctx.tx.execute(sql`with b as (
      delete from product_edit_backups where tenant_id = ${ctx.tenantId} and edit_id = ${id}
      returning product_id, before
    ), erp_restored as (
      update products set ${restoreList(latest.columns)}, last_modification_time = now(),
        last_modifier_id = ${ctx.user!.id}::uuid, concurrency_stamp = gen_random_uuid()::text
      from b where products.tenant_id = ${ctx.tenantId} and products.id = b.product_id
      returning 1
    )
    select count(*)::int as n from erp_restored`);
  await ctx.tx.execute(sql`update product_edits set undone_time = now() where tenant_id = ${ctx.tenantId} and id = ${id}`);
  return { count: Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0) };
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
