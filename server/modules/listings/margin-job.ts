// The margin recompute job (issue 32): when a currency rate (the host's 汇率), a category's fees or a shop's pricing
// rule changes, the saving call queues a job in its transaction (so it exists once the change commits); the job
// stores the margin of the affected listings again, set-based (margin-sql.ts storeMargins), one tenant at a time in
// ranges of the primary key, each range its own short transaction. Then, for the shops that turned automatic
// repricing on, the listings left under the shop's minimum margin get the formula's price within the day's bounds
// through the batch-edit path (startBatch: a task, rate-limited jobs, the calls in the listing's log with the reason).
import { and, desc, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { rowsOf, type Database, type Tx } from "../../db/client.ts";
import { listings, meliAccounts, tenants, users } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { BATCH_EDIT_MAX } from "#shared/contract/listing-edits.ts";
import { AUTO_REPRICE_DEFAULT_MAX_PERCENT, marginStatus } from "#shared/publish/margin.ts";
import { formatMoney, toMinor, type PriceBreakdown } from "#shared/publish/price.ts";
import { ON_MARKET, type Target } from "./edit-types.ts";
import { listingWhere, type ListingKind } from "./list.ts";
import { driftsOf, keepPrevious, marginCondition, type MarginContext, type StartBatch } from "./margin-drift.ts";
import { refreshStaleMargins, storeMargins } from "./margin-sql.ts";
import { loadFormula, priceByFormula } from "./meli-price.ts";

export const MARGIN_JOB = "listings.margins";

/** What changed: a rate (all tenants' listings whose cost or price is in that currency), fees of categories, shops' rules. */
export type MarginChange =
  | { reason: "rate"; currency: string }
  | { reason: "fee"; categories: { site: number; cateId: string }[] }
  | { reason: "rule"; tenantId: string; accountIds: string[] };

/** Listings computed per transaction (one UPDATE each). */
export const MARGIN_CHUNK = 20_000;

/** The listings a change can move, as a condition over margin-sql.ts's joined inputs (l, k, kc, cs). */
function affected(change: MarginChange): SQL {
  if (change.reason === "rate") {
    const code = change.currency.trim().toUpperCase();
    return sql`(k.pcur = ${code} or kc.cur = ${code} or upper(cs.code) = ${code})`;
  }
  if (change.reason === "fee")
    return sql`(k.cate_site, l.cate_id) in (select site, "cateId" from jsonb_to_recordset(${JSON.stringify(change.categories)}::jsonb)
      as c(site int, "cateId" text))`;
  return sql`l.account_id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(change.accountIds)}::jsonb))`;
}

/**
 * Stores the margin again of a tenant's listings that `where` selects, a primary-key range of MARGIN_CHUNK listings
 * per transaction; answers how many moved.
 */
async function recomputeTenant(db: Database["db"], tenantId: string, where: SQL): Promise<number> {
  let after: string | null = null;
  let moved = 0;
  for (;;) {
    const from: string | null = after;
    const next: string | null = await inScope(db, { tenantId }, async (tx): Promise<string | null> => {
      const [edge]: { id: string }[] = rowsOf<{ id: string }>(
        await tx.execute(sql`select id from listings where tenant_id = ${tenantId} ${from ? sql`and id > ${from}::uuid` : sql``}
          order by id offset ${MARGIN_CHUNK - 1} limit 1`),
      );
      moved += await storeMargins(
        tx,
        sql`l.tenant_id = ${tenantId} ${from ? sql`and l.id > ${from}::uuid` : sql``} ${edge ? sql`and l.id <= ${edge.id}::uuid` : sql``}
          and ${where}`,
      );
      return edge?.id ?? null;
    });
    if (!next) return moved;
    after = next;
  }
}

const today = () => new Date().toISOString().slice(0, 10);

/** The reason an automatic change keeps (the listing's log shows it). */
const autoReason = (from: string, to: string, marginNow: string, minMargin: string, next: string, maxPercent: number) =>
  `自动调价：利润率${marginNow}%低于店铺最低利润率${minMargin}%（汇率、费率或店铺规则变动后），售价 ${from} → ${to}，` +
  `调价后利润率${next}%（每日调价不超过±${maxPercent}%）`;

/** A price moved at most `percent` % from the day's first price, in minor units: [floor of the low, ceiling of the high]. */
function dayBounds(dayPrice: number, percent: number): { low: number; high: number } {
  const bp = Math.round(percent * 100);
  return { low: Math.ceil((dayPrice * (10_000 - bp)) / 10_000), high: Math.floor((dayPrice * (10_000 + bp)) / 10_000) };
}

/** A tenant's main account: whom an automatic batch is made for (its task is the main account's). */
async function mainAccountOf(tx: Tx, tenantId: string): Promise<MarginContext["user"]> {
  const [u] = await tx
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.isMainAccount, true)))
    .limit(1);
  return u ? { ...u, tenantName: null, tenant: null } : null;
}

type AutoChange = { id: string; price: number; content: unknown; reason: string };

/**
 * The automatic changes of one list's listings under their shop's minimum: the formula's price, held within ±N % of the
 * day's first price; a lower price only when its margin stays at the shop's minimum. A global-selling listing whose
 * formula price is outside the bounds is left (its breakdown is the net proceeds', not the site price's).
 */
async function autoChanges(ctx: MarginContext, kind: ListingKind, shops: Map<string, number>): Promise<AutoChange[]> {
  const rows = await ctx.tx
    .select()
    .from(listings)
    .where(
      and(
        listingWhere(ctx, kind, {}),
        inArray(listings.accountId, [...shops.keys()]),
        marginCondition("low"),
        isNotNull(listings.itemId),
        inArray(listings.status, ON_MARKET),
      ),
    )
    .orderBy(desc(listings.creationTime), desc(listings.id))
    .limit(BATCH_EDIT_MAX);
  if (!rows.length) return [];
  const targets: Target[] = rows.map((listing) => ({ listing, isCbt: kind === "cbt" }));
  const byId = new Map(rows.map((l) => [l.id, l]));
  const f = await loadFormula(ctx.tx, ctx.tenantId, targets);
  const day = today();
  const changes: AutoChange[] = [];
  for (const d of await driftsOf(ctx, targets)) {
    const r = d.row;
    const l = byId.get(r.id)!;
    const cur = r.listingCurrency;
    if (!r.suggested || !r.now || r.listingPrice === null || !cur || !d.content) continue;
    const percent = shops.get(l.accountId)!;
    const dayPrice = l.autoRepriceDay === day && l.autoRepriceDayPrice !== null ? toMinor(l.autoRepriceDayPrice, cur)! : r.listingPrice;
    const { low, high } = dayBounds(dayPrice, percent);
    const next = Math.min(Math.max(r.suggested.nextListingPrice, low), high);
    if (next === r.listingPrice) continue;
    let content: unknown = d.content;
    if (next !== r.suggested.nextListingPrice) {
      if (kind === "cbt") continue;
      const at = priceByFormula(f, { listing: l, isCbt: false }, null, formatMoney(next, cur));
      if (!at.ok) continue;
      content = at.content;
    }
    const b = content as PriceBreakdown;
    // Never lowered under the shop's minimum margin.
    if (next < r.listingPrice && marginStatus(b.margin, b.buyerPrice, f.shops.get(l.accountId)?.minMargin) !== "ok") continue;
    changes.push({
      id: r.id,
      price: Number(formatMoney(next, cur)),
      content,
      reason: autoReason(
        formatMoney(r.listingPrice, cur),
        formatMoney(next, cur),
        r.now.marginPercent,
        r.minMargin,
        b.marginPercent,
        percent,
      ),
    });
  }
  return changes;
}

/**
 * A tenant's automatic repricing: for each list (local, global selling) the batch of its shops' listings under the
 * minimum, as 重新定价's (the replaced prices kept for UndoReprice), and each listing's day and first price of the day.
 */
async function autoReprice(db: Database["db"], tenantId: string, startBatch: StartBatch): Promise<string[]> {
  return inScope(db, { tenantId }, async (tx) => {
    const shops = await tx
      .select({ id: meliAccounts.id, percent: meliAccounts.autoRepriceMaxPercent })
      .from(meliAccounts)
      .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.autoReprice, true), eq(meliAccounts.isEnabled, true)));
    if (!shops.length) return [];
    const user = await mainAccountOf(tx, tenantId);
    if (!user) return [];
    const ctx: MarginContext = { tx, tenantId, user };
    await refreshStaleMargins(tx, tenantId);
    const percents = new Map(shops.map((s) => [s.id, s.percent === null ? AUTO_REPRICE_DEFAULT_MAX_PERCENT : Number(s.percent)]));
    const tasks: string[] = [];
    for (const kind of ["local", "cbt"] as const) {
      const changes = await autoChanges(ctx, kind, percents);
      if (!changes.length) continue;
      const byId = new Map(changes.map((c) => [c.id, c]));
      const task = await startBatch(ctx, kind, { ids: [...byId.keys()] }, (id) => {
        const c = byId.get(id)!;
        return { op: "price", price: c.price, content: c.content, reason: c.reason };
      });
      await keepPrevious(
        ctx,
        task.taskId,
        changes.map((c) => ({ id: c.id, reason: c.reason })),
      );
      const day = today();
      await tx.execute(sql`update listings set auto_reprice_day_price = case when auto_reprice_day = ${day}::date
            then auto_reprice_day_price else price end, auto_reprice_day = ${day}::date
          where tenant_id = ${tenantId} and id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify([...byId.keys()])}::jsonb))`);
      tasks.push(task.taskId);
    }
    return tasks;
  });
}

export function createMarginService(deps: { database: Database; jobs: Jobs; log: FastifyBaseLogger; startBatch: StartBatch }) {
  const db = deps.database.db;

  /** Queues the recompute in the saving call's transaction: it runs once the change is committed. */
  const changed = (tx: Tx, change: MarginChange) => deps.jobs.send<MarginChange>(MARGIN_JOB, change, { tx });

  /** The job: the affected listings' margin stored again in every tenant concerned, then their automatic repricing. */
  async function runMarginJob(change: MarginChange): Promise<void> {
    const ids =
      change.reason === "rule"
        ? [change.tenantId]
        : (await inScope(db, hostAllScope, (tx) => tx.select({ id: tenants.id }).from(tenants))).map((t) => t.id);
    for (const tenantId of ids) {
      const moved = await recomputeTenant(db, tenantId, affected(change));
      const tasks = await autoReprice(db, tenantId, deps.startBatch);
      if (moved || tasks.length) deps.log.info({ tenantId, change: change.reason, moved, tasks }, "listing margins recomputed");
    }
  }

  return { changed, runMarginJob, workers: [worker<MarginChange>(MARGIN_JOB, runMarginJob, { heartbeatSeconds: 30 })] };
}
