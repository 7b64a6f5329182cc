// The steps of each maintenance task (tasks.ts runs them): every step one statement over one table of the tenant.
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db/client.ts";
import { CLEARED_TABLES } from "./tenant-tables.ts";
import { countOf, type AdminTaskState, type TaskPlan } from "./tasks.ts";

export type RestoreParams = { userId: string | null; startTime: string; endTime: string; hostUserId: string };
export type PurgeParams = { cutoff: string };
export type ClearLogParams = { beforeTime: string | null };

/**
 * ReturnDelProduct: the products deleted in the range come back as they were. What depends on their being live
 * follows by itself: the live counts per owner (product_counts, which the product limit and the list totals read) by
 * their trigger; a label deleted meanwhile was taken off deleted products too (DeleteProductLabel); the owner is
 * never deleted (a cleared sub-account's products are deleted for good, not soft).
 */
function restorePlan(s: AdminTaskState<RestoreParams>): TaskPlan {
  const p = s.params;
  const owner = p.userId ? sql` and user_id = ${p.userId}::uuid` : sql``;
  return {
    steps: [
      {
        label: "商品",
        run: (tx) =>
          countOf(
            tx,
            sql`update products set is_deleted = false, deleter_id = null, deletion_time = null, last_modification_time = now(),
              last_modifier_id = ${p.hostUserId}::uuid, concurrency_stamp = gen_random_uuid()::text
              where tenant_id = ${s.tenantId}::uuid and is_deleted = true
                and deletion_time >= ${p.startTime}::timestamptz and deletion_time < ${p.endTime}::timestamptz${owner}`,
          ),
      },
    ],
    done: ([n]) => `已恢复 ${n ?? 0} 个商品`,
  };
}

/** The tenant's products deleted up to the task's start (a product deleted while the task runs waits for the next). */
const purgedProducts = (s: AdminTaskState<PurgeParams>) =>
  sql`select id from products where tenant_id = ${s.tenantId}::uuid and is_deleted = true
    and (deletion_time is null or deletion_time <= ${s.params.cutoff}::timestamptz)`;

/**
 * RemoveAllDelProduct: the undo backups and queued bulk-edit targets of the deleted products first, then the products
 * themselves in one statement that also unlinks the listings and order lines that named them (the listing stays on
 * Mercado Libre and in the listing centre; the order keeps its line), so no row points at a product that is gone.
 */
function purgePlan(s: AdminTaskState<PurgeParams>): TaskPlan {
  const t = sql`${s.tenantId}::uuid`;
  return {
    steps: [
      {
        label: "批量修改备份",
        run: (tx) => countOf(tx, sql`delete from product_edit_backups where tenant_id = ${t} and product_id in (${purgedProducts(s)})`),
      },
      {
        label: "批量修改队列",
        run: (tx) => countOf(tx, sql`delete from product_edit_targets where tenant_id = ${t} and product_id in (${purgedProducts(s)})`),
      },
      {
        label: "商品",
        run: async (tx) => {
          const [r] = rowsOf<{ n: number }>(
            await tx.execute(sql`with gone as (
                delete from products where tenant_id = ${t} and id in (${purgedProducts(s)}) returning id
              ), unlinked_listings as (
                update listings l set product_id = null from gone where l.tenant_id = ${t} and l.product_id = gone.id returning 1
              ), unlinked_lines as (
                update order_items i set product_id = null from gone where i.tenant_id = ${t} and i.product_id = gone.id returning 1
              )
              select (select count(*) from gone)::int as n, (select count(*) from unlinked_listings) as l,
                (select count(*) from unlinked_lines) as i`),
          );
          return Number(r?.n ?? 0);
        },
      },
    ],
    done: (counts) => `已彻底删除 ${counts[2] ?? 0} 个已删除的商品`,
  };
}

/** ClearMeliStat: the tenant's marketplace call log (MeliStatLog), or the part of it before beforeTime. */
function clearLogPlan(s: AdminTaskState<ClearLogParams>): TaskPlan {
  const before = s.params.beforeTime ? sql` and creation_time < ${s.params.beforeTime}::timestamptz` : sql``;
  return {
    steps: [
      {
        label: "美客多调用日志",
        run: (tx) => countOf(tx, sql`delete from meli_call_logs where tenant_id = ${s.tenantId}::uuid${before}`),
      },
    ],
    done: ([n]) => `已清除 ${n ?? 0} 条美客多调用日志`,
  };
}

/** ClearTenantInfo: each cleared table in turn (tenant-tables.ts). */
function clearTenantPlan(s: AdminTaskState): TaskPlan {
  return {
    steps: CLEARED_TABLES.map(({ table, label }) => ({
      label,
      run: (tx) => countOf(tx, sql`delete from ${sql.identifier(table)} where tenant_id = ${s.tenantId}::uuid`),
    })),
    done: (counts) => {
      const cleared = CLEARED_TABLES.map((c, i) => ({ label: c.label, n: counts[i] ?? 0 })).filter((c) => c.n > 0);
      return cleared.length ? `已清空：${cleared.map((c) => `${c.label} ${c.n}`).join("，")}` : "已清空：没有需要清除的数据";
    },
  };
}

export const taskPlans = {
  restore: restorePlan,
  purge: purgePlan,
  clearMeliStat: clearLogPlan,
  clearTenant: clearTenantPlan,
};
