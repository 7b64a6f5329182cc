// Margin that follows the rate (issue 32; MeliStatNew / MeliStat GetMarginDrift, Reprice, UndoReprice). A listing's cost
// basis when priced is its stored breakdown (price_content: source price and currency, rate, cost, freight, fees, the
// shop's markup, margin); its margin now is the same publish formula (meli-price.ts priceByFormula, shared/publish
// sitePrice with atPrice) at today's rates, fees and shop rule for the price it has; the suggested price is the
// formula's price today. Reprice applies that price through the batch-edit path (edit-batch.ts startBatch: a task, one
// rate-limited job per listing, every marketplace call in the listing's call log), keeping on each listing the price
// and breakdown it replaced, the batch and the reason, for UndoReprice. The 利润率 filter reads the stored margin
// (margin-sql.ts: the same formula set-based, kept by the recompute job and refreshed here for changed listings).
import { and, desc, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import { listings } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError } from "../../http/errors.ts";
import type { BatchEditTask } from "#shared/contract/listing-edits.ts";
import type { ListingFilter } from "#shared/contract/listings.ts";
import {
  REPRICE_PREVIEW_MAX,
  type GetMarginDriftInput,
  type MarginDriftPage,
  type MarginDriftRow,
  type RepriceChange,
  type RepriceResult,
} from "#shared/contract/margin-drift.ts";
import { LISTING_COUNT_CAP } from "#shared/contract/listings.ts";
import { BATCH_EDIT_MAX } from "#shared/contract/listing-edits.ts";
import { marginStatus, minMarginText } from "#shared/publish/margin.ts";
import { formatMoney, toMinor, type PriceBreakdown } from "#shared/publish/price.ts";
import type { Edit, Target } from "./edit-types.ts";
import { listingWhere, type ListingKind } from "./list.ts";
import { refreshStaleMargins } from "./margin-sql.ts";
import { loadFormula, priceByFormula } from "./meli-price.ts";

type MarginFilter = "low" | "negative" | null | undefined;
/** What the margin calls read of a call: its transaction, tenant and user (the recompute job's is the main account). */
export type MarginContext = Pick<CallContext, "tx" | "tenantId" | "user">;
/** edit-batch.ts startBatch, as the margin calls use it. */
export type StartBatch = (
  ctx: MarginContext,
  kind: ListingKind,
  selection: { ids?: string[] | null },
  edits: (listingId: string) => Edit,
) => Promise<BatchEditTask>;

/** A listing's drift and what Reprice would store with its new price. */
type Drift = { row: MarginDriftRow; content: unknown };

/** The stored breakdown, when it is one (listings imported from Mercado Libre have none). */
function breakdownOf(content: unknown): PriceBreakdown | null {
  const b = content as Partial<PriceBreakdown> | null;
  return b && typeof b.margin === "number" && typeof b.currency === "string" && typeof b.price === "number" ? (b as PriceBreakdown) : null;
}

/** The drift of each listing, by the formula, from what `loadFormula` read once for all of them. */
export async function driftsOf(ctx: MarginContext, targets: Target[]): Promise<Drift[]> {
  if (!targets.length) return [];
  const f = await loadFormula(ctx.tx, ctx.tenantId, targets);
  return targets.map((t) => {
    const l = t.listing;
    const before = breakdownOf(l.priceContent);
    // What is sent now: the listing's price; on global selling the net proceeds it was priced with.
    const sent = t.isCbt ? (before ? formatMoney(before.price, before.currency) : null) : l.price;
    const now = sent !== null ? priceByFormula(f, t, null, sent) : null;
    const next = priceByFormula(f, t, null);
    const shop = f.shops.get(l.accountId);
    const minMargin = shop?.minMargin ?? null;
    const listingCurrency = l.currency;
    const nowB = now?.ok ? now.breakdown : null;
    const nextB = next.ok ? next.breakdown : null;
    const row: MarginDriftRow = {
      id: l.id,
      itemId: l.itemId,
      title: l.title,
      site: l.site,
      accountGroupId: l.accountGroupId,
      listingCurrency,
      listingPrice: l.price !== null && listingCurrency ? toMinor(l.price, listingCurrency) : null,
      currency: nextB?.currency ?? nowB?.currency ?? before?.currency ?? null,
      price: nowB ? nowB.price : null,
      priced: before
        ? { margin: before.margin, marginPercent: before.marginPercent, rate: before.rate, productCurrency: before.productCurrency }
        : null,
      now: nowB
        ? {
            margin: nowB.margin,
            marginPercent: nowB.marginPercent,
            rate: nowB.rate,
            status: marginStatus(nowB.margin, nowB.buyerPrice, minMargin),
          }
        : null,
      suggested:
        next.ok && listingCurrency
          ? {
              price: next.breakdown.price,
              margin: next.breakdown.margin,
              marginPercent: next.breakdown.marginPercent,
              nextListingPrice: toMinor(next.price, listingCurrency) ?? 0,
            }
          : null,
      minMargin: minMarginText(minMargin),
      reason: !next.ok ? next.reason : now && !now.ok ? now.reason : null,
    };
    return { row, content: next.ok ? next.content : null };
  });
}

/** Whether the margin now passes the margin filter. */
const passes = (r: MarginDriftRow, margin: MarginFilter) =>
  !margin || (r.now !== null && (margin === "negative" ? r.now.status === "negative" : r.now.status !== "ok"));

/**
 * The stored margin's condition for a margin filter: written as the partial index's predicate implies it (literals), so
 * the filter pages listings_tenant_margin_creation_idx.
 */
export const marginCondition = (margin: MarginFilter) =>
  margin === "negative" ? sql`${listings.marginLevel} = 2` : margin === "low" ? sql`${listings.marginLevel} > 0` : undefined;

/** The condition of the filter's listings the caller sees (with a margin filter: by their stored margin). */
async function whereOf(ctx: MarginContext, kind: ListingKind, filter: Partial<ListingFilter>, ids: string[] | null, margin: MarginFilter) {
  // Listings new or changed since their margin was stored get it first (a few, found by the partial index).
  if (margin) await refreshStaleMargins(ctx.tx, ctx.tenantId);
  return and(listingWhere(ctx, kind, filter), ids ? inArray(listings.id, ids) : undefined, marginCondition(margin));
}

/** The listings of the filter the caller sees, newest first. */
async function targetsOf(ctx: MarginContext, kind: ListingKind, where: SQL | undefined, limit: number, offset = 0): Promise<Target[]> {
  const rows = await ctx.tx
    .select()
    .from(listings)
    .where(where)
    .orderBy(desc(listings.creationTime), desc(listings.id))
    .limit(limit)
    .offset(offset);
  return rows.map((listing) => ({ listing, isCbt: kind === "cbt" }));
}

/**
 * GetMarginDrift: the page of the filter's listings with their drift, computed for the page. A margin filter chooses
 * the listings by their stored margin over all of them (the count capped as the list's).
 */
export async function getMarginDrift(ctx: CallContext, kind: ListingKind, body: GetMarginDriftInput): Promise<MarginDriftPage> {
  const { skipCount, maxResultCount, sorting: _sorting, margin, ids: named, ...filter } = body;
  const where = await whereOf(ctx, kind, filter, named?.length ? named : null, margin);
  const page = await driftsOf(ctx, await targetsOf(ctx, kind, where, maxResultCount, skipCount));
  const [c] = await ctx.tx.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(
    ctx.tx
      .select({ one: sql`1` })
      .from(listings)
      .where(where)
      .limit(LISTING_COUNT_CAP + 1)
      .as("capped"),
  );
  return { items: page.map((d) => d.row), totalCount: Math.min(c.n, LISTING_COUNT_CAP), totalCountCapped: c.n > LISTING_COUNT_CAP };
}

const percent = (m: { marginPercent: string } | null) => (m ? `${m.marginPercent}%` : "未知");

const UNDO_REASON = "撤销重新定价（恢复原价）";

/** The reason kept with a repriced listing (the listing's log of why its price moved). */
const reasonOf = (r: MarginDriftRow) =>
  `重新定价：利润率 定价时${percent(r.priced)} → 当前${percent(r.now)}，按当前汇率、费率和店铺规则改为${percent(r.suggested)}`;

/**
 * Reprice: the formula's price today on the selection's listings on Mercado Libre. A dry run answers the changes; an
 * application starts the batch (startBatch) with each listing's price and breakdown, and keeps on each listing the price
 * and breakdown it replaces, the batch and the reason. Nothing to change is a 4xx when applying.
 */
export async function reprice(
  ctx: MarginContext,
  kind: ListingKind,
  body: { ids?: string[] | null; filter?: (Partial<ListingFilter> & { margin?: MarginFilter }) | null; dryRun: boolean },
  startBatch: StartBatch,
): Promise<RepriceResult> {
  const { margin, ...filter } = body.filter ?? {};
  const where = await whereOf(ctx, kind, filter, body.ids?.length ? body.ids : null, margin);
  const targets = (await targetsOf(ctx, kind, where, BATCH_EDIT_MAX + 1)).filter((t) => t.listing.itemId !== null);
  if (targets.length > BATCH_EDIT_MAX) throw businessError(`一次最多修改${BATCH_EDIT_MAX}条刊登，请缩小筛选范围`, "Listing.TooMany");
  const drifts = (await driftsOf(ctx, targets)).filter((d) => passes(d.row, margin));
  const changing = drifts.filter((d) => d.row.suggested && d.row.suggested.nextListingPrice !== d.row.listingPrice);
  const unpriced = drifts.filter((d) => !d.row.suggested);
  const changes: RepriceChange[] = changing.slice(0, REPRICE_PREVIEW_MAX).map(({ row: r }) => ({
    id: r.id,
    itemId: r.itemId,
    title: r.title,
    listingCurrency: r.listingCurrency,
    listingPrice: r.listingPrice,
    nextListingPrice: r.suggested!.nextListingPrice,
    currency: r.currency!,
    marginNow: r.now ? { margin: r.now.margin, marginPercent: r.now.marginPercent } : null,
    marginNext: { margin: r.suggested!.margin, marginPercent: r.suggested!.marginPercent },
  }));
  const answer = {
    total: drifts.length,
    changed: changing.length,
    unpriced: unpriced.length,
    changes,
    reasons: unpriced.slice(0, REPRICE_PREVIEW_MAX).map((d) => ({ id: d.row.id, reason: d.row.reason ?? "" })),
  };
  if (body.dryRun) return { dryRun: true, taskId: null, ...answer };
  if (!changing.length) throw businessError("所选刊登的售价已是按当前汇率和规则计算的价格，无需重新定价", "Listing.NothingToReprice");
  const byId = new Map(changing.map((d) => [d.row.id, d]));
  const task = await startBatch(ctx, kind, { ids: [...byId.keys()] }, (id) => {
    const d = byId.get(id)!;
    const price = Number(formatMoney(d.row.suggested!.nextListingPrice, d.row.listingCurrency!));
    return { op: "price", price, content: d.content, reason: reasonOf(d.row) };
  });
  await keepPrevious(
    ctx,
    task.taskId,
    changing.map((d) => ({ id: d.row.id, reason: reasonOf(d.row) })),
  );
  return { dryRun: false, taskId: task.taskId, ...answer };
}

/** One statement: each listing keeps the price and breakdown it has now, the batch and why. */
export async function keepPrevious(ctx: MarginContext, taskId: string, rows: { id: string; reason: string }[]) {
  await ctx.tx.execute(sql`update listings l set previous_price = l.price, previous_price_content = l.price_content,
      reprice_task_id = ${taskId}::uuid, reprice_reason = k.reason
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as k(id uuid, reason text)
    where l.tenant_id = ${ctx.tenantId} and l.id = k.id`);
}

/**
 * UndoReprice: the listings the caller sees that the batch repriced get back the price and breakdown it replaced, as a
 * batch of their own; they no longer belong to the batch (a second undo finds nothing: a 4xx).
 */
export async function undoReprice(ctx: CallContext, kind: ListingKind, taskId: string, startBatch: StartBatch): Promise<BatchEditTask> {
  const rows = await ctx.tx
    .select({ id: listings.id, price: listings.previousPrice, content: listings.previousPriceContent })
    .from(listings)
    .where(and(listingWhere(ctx, kind, {}), eq(listings.repriceTaskId, taskId), isNotNull(listings.previousPrice)));
  if (!rows.length) throw businessError("没有可撤销的重新定价（批次不存在或已撤销）", "Listing.NothingToUndo");
  const byId = new Map(rows.map((r) => [r.id, r]));
  const task = await startBatch(ctx, kind, { ids: [...byId.keys()] }, (id) => {
    const r = byId.get(id)!;
    return { op: "price", price: Number(r.price), content: r.content ?? null, reason: UNDO_REASON };
  });
  await ctx.tx
    .update(listings)
    .set({ repriceTaskId: null, repriceReason: UNDO_REASON })
    .where(and(eq(listings.tenantId, ctx.tenantId), inArray(listings.id, [...byId.keys()])));
  return task;
}
