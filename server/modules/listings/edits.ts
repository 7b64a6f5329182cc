// Listing edits (issue 16; spec §7 MeliStat / MeliStatNew UpdateMarketPrice, UpdateMarketTitle, UpdateMarketDescription,
// UpOrDownMarket, DeleteMarket, RemoveStat, RemoveStats, BatchDelete, BatchUpdatePriceDirect, BatchUpdateMeliPrice,
// BatchUpdateStock, BatchUp, BatchDown, BatchUpdateTitle, BatchUpdateDescription, BatchUpdateWeight, BatchUpdateImage).
// One edit of one listing is `applyEdit`: read the listing in a short transaction; when its value already equals the
// target, nothing is sent (skipped); otherwise one write to Mercado Libre (local: PUT /items/{id}; cross-border: PUT
// /global/items/{site item} for price, title and status, PUT /global/items/{CBT id} for what every site shares: stock,
// pictures and the package),
// then a re-read of the item, and what Mercado Libre holds is stored on the listing with the calls' log, in another
// short transaction. Mercado Libre is never called inside a transaction. A refusal leaves the marketplace's reason (in
// Chinese) on the listing. Single calls run it before their own transaction (beforeTransaction) and answer what it did;
// batch calls answer a task at once and run it in one job per listing, the task counting each outcome (a job that fails
// for any other reason than the marketplace's is counted refused too, so that no task stays running).
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { currencies, listings, meliAccountGroups, meliAccounts, meliCategories, products, taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, businessError, notFound } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { createTask } from "../../jobs/tasks.ts";
import type { MeliClient, MeliExchange } from "../../integrations/mercadolibre/client.ts";
import {
  deleteItem,
  getItemDescription,
  getItemVariations,
  getListingItem,
  getMarketplaceItem,
  updateGlobalItem,
  updateItem,
  updateVariationStock,
  writeItemDescription,
  type ListingItem,
} from "../../integrations/mercadolibre/endpoints/items.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { loadSessionUser } from "../identity/session-user.ts";
import { emitProgress } from "../events/progress.ts";
import { recordListingCalls } from "../meli-logs/service.ts";
import { cachedFees, feeInput } from "../publishing/fees.ts";
import { imageSizesOf, probeImageSizes, type PictureFetchOptions } from "../publishing/pictures.ts";
import { PREVIEW_PROBE_MS, PUBLISH_CONCURRENCY } from "../publishing/service.ts";
import { listingWhere, rowView, type ListingKind } from "./service.ts";
import { ListingStatus, TaskStatus, TaskType } from "../../../shared/contract/enums.ts";
import {
  BATCH_EDIT_MAX,
  BATCH_REFUSALS_KEPT,
  type BatchEditState,
  type BatchEditTask,
  type EditOutcome,
  type EditResult,
  type MeliPricePreview,
} from "../../../shared/contract/listing-edits.ts";
import type { ListingFilter } from "../../../shared/contract/listings.ts";
import { MELI_SITES, type MeliSiteNumber } from "../../../shared/contract/meli.ts";
import { currencyDecimals, formatMoney, moneyNumber, sitePrice } from "../../../shared/publish/price.ts";
import { MIN_PICTURE_PX, usablePictures } from "../../../shared/publish/preflight.ts";

export const LISTING_EDIT_JOB = "listings.edit";

/** One edit of a listing. */
export type Edit =
  | { op: "price"; price: number }
  | { op: "meliPrice"; limitMinPrice: number | null }
  | { op: "title"; title: string }
  | { op: "description"; description: string }
  | { op: "status"; status: "active" | "paused" }
  | { op: "stock"; stock: number }
  /** Grams; size "LxWxH" (whole cm), null to keep the listing's. */
  | { op: "weight"; weight: number; size: string | null }
  /** Picture URLs in order, those known too small already left out. */
  | { op: "images"; images: string[] }
  | { op: "delete" };

type EditJob = { tenantId: string; taskId: string; listingId: string; creatorId: string | null; edit: Edit; attempt?: number };
/** Times a batch's listing is tried when Mercado Libre limits or fails (each after a longer wait). */
export const EDIT_ATTEMPTS = 6;
type ListingRow = typeof listings.$inferSelect;
type Target = { listing: ListingRow; isCbt: boolean };
type Outcome = { outcome: EditOutcome; reason: string | null };

export type ListingEditDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  log: FastifyBaseLogger;
  /** The picture size probe's address guard, as publishing's (CRAWL_ALLOW_PRIVATE). */
  pictures?: PictureFetchOptions;
};

/** Listings an edit can reach: on Mercado Libre (an item id) and not closed. */
const ON_MARKET: number[] = [ListingStatus.Active, ListingStatus.Paused, ListingStatus.UnderReview];

const opNames: Record<Edit["op"], string> = {
  price: "改价",
  meliPrice: "按店铺规则改价",
  title: "改标题",
  description: "改描述",
  status: "上下架",
  stock: "改库存",
  weight: "改重量",
  images: "改图片",
  delete: "删除",
};

function statusOf(meliStatus: string | null | undefined): ListingStatus {
  if (meliStatus === "paused") return ListingStatus.Paused;
  if (meliStatus === "closed") return ListingStatus.Closed;
  if (meliStatus === "under_review" || meliStatus === "inactive") return ListingStatus.UnderReview;
  return ListingStatus.Active;
}

type MeliItem = ListingItem;

/** A size as "LxWxH" (lower-case x), or null when it is not three numbers. */
function sizeText(size: string | null | undefined): string | null {
  const sides = (size ?? "")
    .trim()
    .split(/\s*[xX*×]\s*/)
    .map(Number);
  return sides.length === 3 && sides.every((n) => Number.isFinite(n) && n > 0) ? sides.join("x") : null;
}

/** The package Mercado Libre holds: a local item's shipping dimensions "LxWxH,g", a global item's PACKAGE_* attributes. */
function packageOfItem(item: MeliItem): { weight: number | null; size: string | null } {
  const dims = /^(\d+x\d+x\d+),(\d+)$/.exec(item.shipping?.dimensions ?? "");
  if (dims) return { weight: Number(dims[2]), size: dims[1] };
  const toG: Record<string, number> = { g: 1, kg: 1000, lb: 453.592 };
  const toCm: Record<string, number> = { cm: 1, in: 2.54, mm: 0.1 };
  const value = (id: string, units: Record<string, number>) => {
    const a = item.attributes?.find((x) => x.id === id);
    const m = /^([\d.]+)\s*([a-z]+)$/i.exec(a?.value_name ?? "");
    const v = a?.value_struct ?? (m ? { number: Number(m[1]), unit: m[2].toLowerCase() } : null);
    return v && units[v.unit] ? Math.round(v.number * units[v.unit] * 100) / 100 : null;
  };
  const sides = ["PACKAGE_LENGTH", "PACKAGE_WIDTH", "PACKAGE_HEIGHT"].map((id) => value(id, toCm));
  return { weight: value("PACKAGE_WEIGHT", toG), size: sides.every((n) => n !== null) ? sides.join("x") : null };
}

/** Outcomes a single call's beforeTransaction leaves for its handler. */
const singleOutcomes = new WeakMap<FastifyRequest, Outcome>();
const previews = new WeakMap<FastifyRequest, MeliPricePreview[]>();

export function createListingEditService(deps: ListingEditDeps) {
  const db = deps.database.db;

  async function loadTarget(tenantId: string, listingId: string): Promise<Target | null> {
    return inScope(db, { tenantId }, async (tx) => {
      const [row] = await tx
        .select({ listing: listings, isCbt: meliAccountGroups.isCbt })
        .from(listings)
        .innerJoin(
          meliAccountGroups,
          and(eq(meliAccountGroups.tenantId, listings.tenantId), eq(meliAccountGroups.id, listings.accountGroupId)),
        )
        .where(and(eq(listings.tenantId, tenantId), eq(listings.id, listingId)));
      return row ?? null;
    });
  }

  /** The size of the listing's product ("LxWxH" in whole cm, as Mercado Envíos takes it), or null. */
  async function productSize(l: ListingRow): Promise<string | null> {
    if (!l.productId) return null;
    const productId = l.productId;
    const [p] = await inScope(db, { tenantId: l.tenantId }, (tx) =>
      tx
        .select({ size: products.size })
        .from(products)
        .where(and(eq(products.tenantId, l.tenantId), eq(products.id, productId))),
    );
    const size = sizeText(p?.size);
    return (
      size &&
      size
        .split("x")
        .map((n) => String(Math.ceil(Number(n))))
        .join("x")
    );
  }

  /** The pictures the listing's category takes at most (as the category sync stored it), or null when unknown. */
  async function maxPicturesOf(t: Target): Promise<number | null> {
    const l = t.listing;
    if (!l.cateId) return null;
    const cateId = l.cateId;
    const [c] = await inScope(db, { tenantId: l.tenantId }, (tx) =>
      tx
        .select({ max: meliCategories.maxPictures })
        .from(meliCategories)
        .where(and(eq(meliCategories.site, t.isCbt ? 5 : l.site), eq(meliCategories.cateId, cateId))),
    );
    return c?.max ?? null;
  }

  /**
   * BatchUpdateMeliPrice: the listing's price by the publish formula from its product and shop as they are now. A
   * cross-border listing is priced as publishing prices its site (net proceeds in USD, the shop's limits in USD); the
   * site item's price is what a buyer pays for those net proceeds (the site's fee on top), in the site's currency at
   * the exchange rates, rounded up; limitMinPrice (the listing's currency) then holds it up.
   */
  async function meliPriceOf(
    t: Target,
    limitMinPrice: number | null,
  ): Promise<{ ok: true; price: number; content: unknown } | { ok: false; reason: string }> {
    const l = t.listing;
    if (!l.productId) return { ok: false, reason: "该刊登未关联商品（从美客多导入且SKU未匹配），无法按规则计算售价" };
    const productId = l.productId;
    return inScope(db, { tenantId: l.tenantId }, async (tx) => {
      const [p] = await tx
        .select({ price: products.price, currency: products.currency })
        .from(products)
        .where(and(eq(products.tenantId, l.tenantId), eq(products.id, productId)));
      if (!p) return { ok: false as const, reason: "商品已不存在，无法按规则计算售价" };
      const [shop] = await tx
        .select()
        .from(meliAccounts)
        .where(and(eq(meliAccounts.tenantId, l.tenantId), eq(meliAccounts.id, l.accountId)));
      if (!shop) return { ok: false as const, reason: "店铺不存在" };
      const rates = await tx.select({ code: currencies.code, rate: currencies.rate }).from(currencies);
      const cateSite = t.isCbt ? 5 : l.site;
      const [cat] = l.cateId
        ? await tx
            .select({ classicFee: meliCategories.classicFee, premiumFee: meliCategories.premiumFee })
            .from(meliCategories)
            .where(and(eq(meliCategories.site, cateSite), eq(meliCategories.cateId, l.cateId)))
        : [];
      const listingType = (l.listingType ?? "gold_special") as "gold_special" | "gold_pro" | "free";
      const fees = l.cateId ? await cachedFees(tx, [{ site: cateSite, cateId: l.cateId }], listingType) : new Map();
      // The freight the listing's price included when published stays included (its breakdown kept it).
      const before = (l.priceContent ?? null) as { freight?: number; currency?: string } | null;
      const freight = before?.freight && before.currency ? formatMoney(before.freight, before.currency) : null;
      const priced = sitePrice({
        site: l.site as MeliSiteNumber,
        isCbt: t.isCbt,
        price: p.price,
        currency: p.currency,
        rates,
        shop: {
          adjustRate: shop.adjustRate,
          tinyPrice: shop.tinyPrice,
          limitMinPrice: t.isCbt ? shop.limitMinPrice : (limitMinPrice ?? shop.limitMinPrice),
          limitMaxPrice: shop.limitMaxPrice,
          overPrice: shop.overPrice,
        },
        category: { classicFee: cat?.classicFee ?? null, premiumFee: cat?.premiumFee ?? null },
        listingType,
        ...feeInput(l.cateId ? fees.get(`${cateSite}|${l.cateId}`) : undefined, listingType),
        isContainsFreight: !!freight,
        freight,
      });
      if (!priced.ok) return { ok: false as const, reason: priced.message };
      if (priced.price.limit === "overMax") return { ok: false as const, reason: "售价超过店铺最高限价" };
      if (!t.isCbt) return { ok: true as const, price: moneyNumber(priced.price.price, priced.price.currency), content: priced.price };
      const currency = MELI_SITES[l.site as MeliSiteNumber]?.currency;
      const rateOf = (code: string) => Number(rates.find((r) => r.code.toUpperCase() === code)?.rate);
      if (!currency || !(rateOf("USD") > 0) || !(rateOf(currency) > 0))
        return { ok: false as const, reason: `没有${currency ?? "站点币种"}的汇率，请在币种汇率中添加` };
      const unit = 10 ** currencyDecimals(currency);
      const buyer = (moneyNumber(priced.price.buyerPrice, "USD") * rateOf("USD")) / rateOf(currency);
      // Rounded up (a tolerance for floating point): the seller keeps at least the net proceeds.
      let price = Math.ceil(buyer * unit - 1e-6) / unit;
      if (limitMinPrice !== null && price < limitMinPrice) price = limitMinPrice;
      return { ok: true as const, price, content: { ...priced.price, sitePrice: price, siteCurrency: currency } };
    });
  }

  /** Writes what the edit found and logs its calls, in one short transaction. */
  async function store(
    t: Target,
    exchanges: MeliExchange[],
    creatorId: string | null,
    set: Partial<typeof listings.$inferInsert>,
    shared?: Partial<typeof listings.$inferInsert>,
  ) {
    const l = t.listing;
    await inScope(db, { tenantId: l.tenantId }, async (tx) => {
      if (Object.keys(set).length) {
        await tx
          .update(listings)
          .set({ ...set, lastModificationTime: new Date(), lastModifierId: creatorId })
          .where(and(eq(listings.tenantId, l.tenantId), eq(listings.id, l.id)));
      }
      // A global item's stock and package are every site's: its other site listings hold them too.
      if (shared && l.cbtId) {
        await tx
          .update(listings)
          .set({ ...shared, syncTime: new Date() })
          .where(and(eq(listings.tenantId, l.tenantId), eq(listings.cbtId, l.cbtId)));
      }
      await recordListingCalls(tx, l, exchanges, creatorId);
    });
  }

  /**
   * One edit of one listing (see the file's head). Answers done, refused (the reason is on the listing) or skipped;
   * throws a retryable MeliApiError (rate limit, outage) after logging the calls made, for the job to run again.
   */
  async function applyEdit(t: Target, edit: Edit, creatorId: string | null): Promise<Outcome> {
    const l = t.listing;
    if (!l.itemId || !(ON_MARKET.includes(l.status) || (edit.op === "delete" && l.status === ListingStatus.Closed)))
      return { outcome: "skipped", reason: "刊登不在美客多上（未刊登或已关闭）" };
    const refuse = async (reason: string): Promise<Outcome> => {
      await store(t, [], creatorId, { reason });
      return { outcome: "refused", reason };
    };
    let meliPrice: { price: number; content: unknown } | null = null;
    if (edit.op === "meliPrice") {
      const r = await meliPriceOf(t, edit.limitMinPrice);
      if (!r.ok) return refuse(r.reason);
      meliPrice = r;
    }
    const targetPrice = edit.op === "price" ? edit.price : (meliPrice?.price ?? null);
    const unchanged =
      (targetPrice !== null && l.price !== null && Number(l.price) === targetPrice) ||
      (edit.op === "title" && l.title === edit.title) ||
      (edit.op === "status" && l.status === (edit.status === "active" ? ListingStatus.Active : ListingStatus.Paused)) ||
      (edit.op === "stock" && l.stock === edit.stock) ||
      (edit.op === "weight" &&
        l.weight !== null &&
        Number(l.weight) === edit.weight &&
        (edit.size === null || sizeText(l.size) === edit.size));
    if (unchanged) return { outcome: "skipped", reason: "值未变化" };
    // A global item's pictures and package are the global item's.
    if ((edit.op === "weight" || edit.op === "images") && t.isCbt && !l.cbtId) return refuse("跨境刊登缺少全球商品编号");
    // A local item's dimensions need the size with the weight: the edit's, the listing's, else its product's.
    const size = edit.op === "weight" ? (edit.size ?? sizeText(l.size) ?? (t.isCbt ? null : await productSize(l))) : null;
    if (edit.op === "weight" && !t.isCbt && !size) return refuse("修改重量需要包装尺寸：请同时填写尺寸（长x宽x高，厘米）");
    // As publishing: no more pictures than the category takes.
    const images = edit.op === "images" ? edit.images.slice(0, (await maxPicturesOf(t)) ?? edit.images.length) : [];

    const exchanges: MeliExchange[] = [];
    const observe = (x: MeliExchange) => exchanges.push(x);
    const shop = deps.meli.shop({ tenantId: l.tenantId, groupId: l.accountGroupId });
    const itemId = l.itemId;
    // A cross-border listing's site item and its global item change through /global/items, and are read through
    // /marketplace/items (Global Selling "Publish items"); a local item through /items.
    const put = (id: string, body: Record<string, unknown>) => (t.isCbt ? updateGlobalItem : updateItem)(shop, id, body, { observe });
    const read = (id: string) => (t.isCbt ? getMarketplaceItem : getListingItem)(shop, id, { observe });
    try {
      switch (edit.op) {
        case "price":
        case "meliPrice":
          await put(itemId, { price: targetPrice });
          break;
        case "title":
          await put(itemId, { title: edit.title });
          break;
        case "status":
          await put(itemId, { status: edit.status });
          break;
        case "description": {
          // The description lives on the item (a global item's on the global item); read first: an equal one is not sent.
          const owner = t.isCbt && l.cbtId ? l.cbtId : l.itemId;
          const now = await getItemDescription(shop, owner, { observe }).catch((e: unknown) =>
            e instanceof MeliApiError && e.kind === "not-found" ? null : Promise.reject(e),
          );
          if (now && now.plain_text === edit.description) {
            await store(t, exchanges, creatorId, { syncTime: new Date() });
            return { outcome: "skipped", reason: "值未变化" };
          }
          await writeItemDescription(shop, owner, edit.description, { exists: !!now }, { observe });
          break;
        }
        case "weight": {
          if (t.isCbt) {
            const sides = size?.split("x") ?? [];
            const cm = ["PACKAGE_LENGTH", "PACKAGE_WIDTH", "PACKAGE_HEIGHT"].map((id, i) => ({ id, value_name: `${sides[i]} cm` }));
            await put(l.cbtId!, {
              attributes: [{ id: "PACKAGE_WEIGHT", value_name: `${edit.weight} g` }, ...(size ? cm : [])],
            });
          } else {
            await put(itemId, { shipping: { dimensions: `${size},${edit.weight}` } });
          }
          break;
        }
        case "images": {
          // Mercado Libre does not tell the URL a picture came from: pictures already on the item are known by their
          // own URLs (kept by id, not fetched again); the same pictures in the same order are not sent.
          const now = await read(itemId);
          const current = now.pictures ?? [];
          const onItem = (url: string) => current.find((p) => p.url === url || p.secure_url === url);
          if (current.length === images.length && images.every((url, i) => onItem(url) === current[i])) {
            await store(t, exchanges, creatorId, { syncTime: new Date() });
            return { outcome: "skipped", reason: "值未变化" };
          }
          const pictures = images.map((url) => (onItem(url) ? { id: onItem(url)!.id } : { source: url }));
          await put(t.isCbt ? l.cbtId! : itemId, { pictures });
          break;
        }
        case "stock": {
          if (t.isCbt) {
            if (!l.cbtId) return { outcome: "skipped", reason: "跨境刊登缺少全球商品编号" };
            await put(l.cbtId, { available_quantity: edit.stock });
          } else {
            // An item with variations takes its stock per variation (variaciones.md "Modificar el stock"): each
            // variation, every one named so that none is removed, gets the stock.
            const variations = await getItemVariations(shop, itemId, { observe });
            if (variations.length)
              await updateVariationStock(
                shop,
                itemId,
                variations.map((v) => ({ id: v.id, available_quantity: edit.stock })),
                { observe },
              );
            else await put(itemId, { available_quantity: edit.stock });
          }
          break;
        }
        case "delete": {
          // Closed first (a live item cannot be deleted), then deleted; the record stays, Closed.
          const closed = l.status === ListingStatus.Closed;
          if (!t.isCbt) await deleteItem(shop, itemId, { closed }, { observe });
          else {
            if (!closed) await put(itemId, { status: "closed" });
            await put(itemId, { deleted: "true" });
          }
          break;
        }
      }
      // Writes are eventually consistent: what is stored is what Mercado Libre answers now.
      const item = await read(itemId);
      const set: Partial<typeof listings.$inferInsert> = {
        status: edit.op === "delete" ? ListingStatus.Closed : statusOf(item.status),
        price: typeof item.price === "number" ? item.price.toFixed(2) : l.price,
        currency: item.currency_id ?? l.currency,
        title: item.title ?? l.title,
        permalink: item.permalink ?? l.permalink,
        reason: null,
        problems: [],
        syncTime: new Date(),
      };
      let shared: Partial<typeof listings.$inferInsert> | undefined;
      if (typeof item.available_quantity === "number") {
        set.stock = item.available_quantity;
        if (t.isCbt && edit.op === "stock") shared = { stock: item.available_quantity };
      }
      if (meliPrice) set.priceContent = meliPrice.content;
      if (edit.op === "images") set.image = item.pictures?.[0]?.secure_url ?? item.pictures?.[0]?.url ?? l.image;
      if (edit.op === "weight") {
        // The package as Mercado Libre holds it now (a global item's: every site listing of it).
        const owner = t.isCbt ? await getMarketplaceItem(shop, l.cbtId!, { observe }) : item;
        const pack = packageOfItem(owner);
        const stored = { weight: pack.weight === null ? null : pack.weight.toFixed(2), size: pack.size };
        if (t.isCbt) shared = { ...shared, ...stored };
        else Object.assign(set, stored);
      }
      await store(t, exchanges, creatorId, set, shared);
      return { outcome: "done", reason: null };
    } catch (err) {
      if (!(err instanceof MeliApiError)) {
        // Not the marketplace's answer: the calls made are still logged; the caller reports the failure.
        await store(t, exchanges, creatorId, {});
        throw err;
      }
      if (err.retryable) {
        await store(t, exchanges, creatorId, {});
        throw err;
      }
      const problems = (err.validationErrors ?? []).map((v) => ({
        code: "meli",
        field: v.members[0] ?? null,
        message: v.message,
        severity: "error" as const,
      }));
      await store(t, exchanges, creatorId, { reason: err.message, problems });
      return { outcome: "refused", reason: err.message };
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Single calls.

  /** A single call's listing, visible to the caller in this list, or a 404. */
  async function visibleListing(ctx: CallContext, kind: ListingKind, id: string): Promise<ListingRow> {
    const [row] = await ctx.tx
      .select()
      .from(listings)
      .where(and(listingWhere(ctx, kind, {}), eq(listings.id, id)));
    if (!row) throw notFound("刊登不存在");
    return row;
  }

  /** Runs the edit before the call's transaction; the handler answers it (`answerSingle`). */
  async function runSingle(call: Omit<CallContext, "tx" | "user">, kind: ListingKind, id: string, edit: Edit): Promise<void> {
    const principal = call.principal;
    if (!principal) return;
    const found = await inScope(db, { tenantId: call.tenantId }, async (tx) => {
      const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
      return visibleListing(ctx, kind, id);
    }).catch((err: unknown) => {
      if (err instanceof AppError) return null; // the call's transaction answers it
      throw err;
    });
    if (!found) return;
    const target = await loadTarget(call.tenantId, found.id);
    if (!target) return;
    singleOutcomes.set(call.req, await applyEdit(target, edit, principal.userId));
  }

  async function answerSingle(ctx: CallContext, kind: ListingKind, id: string): Promise<EditResult> {
    const row = await visibleListing(ctx, kind, id);
    const outcome = singleOutcomes.get(ctx.req);
    if (!outcome) throw notFound("刊登不存在");
    if (outcome.outcome === "refused") throw businessError(outcome.reason ?? "美客多拒绝了修改", "Listing.Refused");
    return { ...outcome, listing: rowView(row, null) };
  }

  /** RemoveStat / RemoveStats / BatchDelete: the records only; the listings stay on Mercado Libre. */
  async function removeRecords(ctx: CallContext, kind: ListingKind, ids: string[]): Promise<{ removed: number }> {
    const gone = await ctx.tx
      .delete(listings)
      .where(and(listingWhere(ctx, kind, {}), inArray(listings.id, ids)))
      .returning({ id: listings.id });
    return { removed: gone.length };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Batch calls.

  /**
   * Starts a batch: the selected listings on Mercado Libre (ids or the list's filter, only those the caller sees in this
   * list: another tenant's or another shop's ids are not selected), a task, one job per listing, in the call's
   * transaction. Nothing selected is a 4xx.
   */
  async function startBatch(
    ctx: CallContext,
    kind: ListingKind,
    selection: { ids?: string[] | null; filter?: ListingFilter | null },
    edits: Edit | ((listingId: string) => Edit),
  ): Promise<BatchEditTask> {
    const where = and(
      listingWhere(ctx, kind, selection.filter ?? {}),
      selection.ids?.length ? inArray(listings.id, selection.ids) : undefined,
      isNotNull(listings.itemId),
    );
    const rows = await ctx.tx
      .select({ id: listings.id, status: listings.status, price: listings.price, title: listings.title, stock: listings.stock })
      .from(listings)
      .where(where)
      .orderBy(listings.id)
      .limit(BATCH_EDIT_MAX + 1);
    if (!rows.length) throw businessError("没有可修改的刊登（所选刊登不存在或未在美客多上）", "Listing.NothingSelected");
    if (rows.length > BATCH_EDIT_MAX) throw businessError(`一次最多修改${BATCH_EDIT_MAX}条刊登，请缩小筛选范围`, "Listing.TooMany");
    const editOf = typeof edits === "function" ? edits : () => edits;
    const first = editOf(rows[0].id);
    // A listing whose record already holds the target is counted unchanged now, without a job (the job would skip it
    // too, but 10,000 of them queued would keep the task running for minutes for nothing).
    const toEdit = rows.filter((r) => !alreadyHolds(r, editOf(r.id)));
    const state: BatchEditState = {
      kind: "listingEdit",
      op: first.op,
      total: rows.length,
      done: 0,
      refused: 0,
      skipped: rows.length - toEdit.length,
      outcome: "running",
      refusals: [],
    };
    const view = taskProgress(state);
    const taskId = await createTask(ctx.tx, {
      tenantId: ctx.tenantId,
      taskType: TaskType.BatchUpdateListings,
      content: JSON.stringify(state),
      creatorId: ctx.user!.id,
    });
    await ctx.tx
      .update(taskInfos)
      .set({
        progress: view.progress,
        taskRemark: toEdit.length ? `${opNames[first.op]}：共 ${rows.length} 条刊登` : view.remark,
        ...(toEdit.length ? {} : { taskStatus: view.taskStatus }),
      })
      .where(and(eq(taskInfos.tenantId, ctx.tenantId), eq(taskInfos.id, taskId)));
    await deps.jobs.sendMany<EditJob>(
      LISTING_EDIT_JOB,
      toEdit.map((r) => ({
        tenantId: ctx.tenantId,
        taskId,
        listingId: r.id,
        creatorId: ctx.user!.id,
        edit: editOf(r.id),
      })),
      { tx: ctx.tx },
    );
    return { taskId, total: rows.length };
  }

  /** Before BatchUpdateImage's transaction: pictures the size cache cannot answer are probed (≤ 3 s), as PreflightPublish does. */
  async function probeImages(images: string[]): Promise<void> {
    await probeImageSizes(db, images, { budgetMs: PREVIEW_PROBE_MS, fetch: deps.pictures });
  }

  /**
   * BatchUpdateImage: the pictures not known to be too small, in order (an unknown size is not refused, as in
   * publishing); the call is refused when every picture is known too small.
   */
  async function startImageBatch(
    ctx: CallContext,
    kind: ListingKind,
    body: { ids?: string[] | null; filter?: ListingFilter | null; images: string[] },
  ): Promise<BatchEditTask> {
    const usable = usablePictures(body.images, await imageSizesOf(ctx.tx, body.images));
    if (!usable.length)
      throw businessError(
        `图片尺寸均小于${MIN_PICTURE_PX}像素（美客多要求至少一边${MIN_PICTURE_PX}像素），请换用更大的图片`,
        "Listing.PicturesTooSmall",
      );
    return startBatch(ctx, kind, body, { op: "images", images: usable });
  }

  /** Counts one listing's outcome on the task (row-locked: jobs finish side by side) and announces the progress. */
  async function count(job: EditJob, itemId: string | null, o: Outcome) {
    await inScope(db, { tenantId: job.tenantId }, async (tx) => {
      const [t] = await tx
        .select({ content: taskInfos.content, creatorId: taskInfos.creatorId })
        .from(taskInfos)
        .where(and(eq(taskInfos.tenantId, job.tenantId), eq(taskInfos.id, job.taskId)))
        .for("update");
      if (!t) return;
      const s = JSON.parse(t.content) as BatchEditState;
      if (s.done + s.refused + s.skipped >= s.total) return; // a finished task is not counted twice
      s[o.outcome === "done" ? "done" : o.outcome === "refused" ? "refused" : "skipped"] += 1;
      if (o.outcome === "refused" && s.refusals.length < BATCH_REFUSALS_KEPT)
        s.refusals.push({ listingId: job.listingId, itemId, reason: o.reason ?? "" });
      const { progress, taskStatus, remark } = taskProgress(s);
      await tx
        .update(taskInfos)
        .set({ content: JSON.stringify(s), progress, taskStatus, taskRemark: remark, lastUpdateTime: new Date() })
        .where(and(eq(taskInfos.tenantId, job.tenantId), eq(taskInfos.id, job.taskId)));
      await emitProgress(tx, {
        tenantId: job.tenantId,
        creatorId: t.creatorId,
        kind: "task",
        id: job.taskId,
        taskType: TaskType.BatchUpdateListings,
        status: taskStatus,
        progress,
        total: s.total,
        success: s.done,
        fail: s.refused,
      });
    });
  }

  /**
   * One listing of a batch. A rate limit or an outage (after the client's own retries) sends the job again later, up to
   * EDIT_ATTEMPTS times, honouring Retry-After; then the listing is counted refused with the reason, so the task ends.
   * Any other failure (a bug, data the edit cannot handle, an answer it cannot read) would fail the same way again:
   * it is logged and the listing counted refused at once, rather than left to the queue's retries with the task
   * running.
   */
  async function runEditJob(job: EditJob): Promise<void> {
    let target: Target | null = null;
    let o: Outcome = { outcome: "skipped", reason: "刊登已不存在" };
    try {
      target = await loadTarget(job.tenantId, job.listingId);
      if (target) o = await applyEdit(target, job.edit, job.creatorId);
    } catch (err) {
      // An answer that does not read as documented (bad-response) would read the same way again: refused at once.
      if (err instanceof MeliApiError && err.retryable && err.kind !== "bad-response") {
        const attempt = (job.attempt ?? 0) + 1;
        if (attempt < EDIT_ATTEMPTS) {
          await deps.jobs.send<EditJob>(
            LISTING_EDIT_JOB,
            { ...job, attempt },
            { startAfterSeconds: err.retryAfterSeconds ?? 2 ** attempt },
          );
          return;
        }
        o = { outcome: "refused", reason: err.message };
      } else {
        deps.log.error({ err, taskId: job.taskId, listingId: job.listingId, op: job.edit.op }, "listing edit job failed");
        o = { outcome: "refused", reason: "系统处理出错，修改结果未确认，请同步该刊登后重试或联系管理员" };
      }
      const failed = target;
      if (failed)
        await store(failed, [], job.creatorId, { reason: o.reason }).catch((e: unknown) =>
          deps.log.error({ err: e }, "listing edit: reason not stored"),
        );
    }
    await count(job, target?.listing.itemId ?? null, o);
  }

  // As publishing's jobs: the shared per-seller rate bucket keeps them under the seller's limit.
  deps.jobs.handle<EditJob>(LISTING_EDIT_JOB, runEditJob, {
    concurrency: PUBLISH_CONCURRENCY,
    heartbeatSeconds: 10,
    // Counting itself failed on every attempt (the database away): a last try, so the task can still end.
    onLastFailure: (job, err) =>
      count(job, null, { outcome: "refused", reason: `多次重试后仍未完成：${err instanceof Error ? err.message : String(err)}` }),
  });

  /**
   * PreviewMeliPrice, before the call's transaction (the formula reads in transactions of its own): the price
   * BatchUpdateMeliPrice would set on each listing the caller sees, in its order. Nothing is sent to Mercado Libre.
   */
  async function previewMeliPrices(
    call: Omit<CallContext, "tx" | "user">,
    kind: ListingKind,
    input: { ids: string[]; limitMinPrice?: number | null },
  ): Promise<void> {
    const principal = call.principal;
    if (!principal) return;
    const visible = await inScope(db, { tenantId: call.tenantId }, async (tx) => {
      const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
      const rows = await tx
        .select({ id: listings.id })
        .from(listings)
        .where(and(listingWhere(ctx, kind, {}), inArray(listings.id, input.ids)));
      return new Set(rows.map((r) => r.id));
    });
    const out: MeliPricePreview[] = [];
    for (const id of input.ids.filter((x) => visible.has(x))) {
      const t = await loadTarget(call.tenantId, id);
      if (!t) continue;
      const l = t.listing;
      const priced = await meliPriceOf(t, input.limitMinPrice ?? null);
      out.push({
        id,
        itemId: l.itemId,
        site: l.site,
        price: l.price === null ? null : Number(l.price),
        currency: l.currency,
        next: priced.ok ? priced.price : null,
        reason: priced.ok ? null : priced.reason,
      });
    }
    previews.set(call.req, out);
  }

  /** The previews computed before the transaction (none found: another tenant's or unknown ids answer an empty list). */
  const answerPreview = async (ctx: CallContext): Promise<MeliPricePreview[]> => previews.get(ctx.req) ?? [];

  return {
    applyEdit,
    runSingle,
    answerSingle,
    removeRecords,
    startBatch,
    probeImages,
    startImageBatch,
    runEditJob,
    previewMeliPrices,
    answerPreview,
  };
}

export type ListingEditService = ReturnType<typeof createListingEditService>;

/** Whether a listing's record already holds what the edit sets (as applyEdit's check, on the record alone). */
function alreadyHolds(l: { status: number; price: string | null; title: string | null; stock: number | null }, edit: Edit): boolean {
  if (!ON_MARKET.includes(l.status)) return false;
  if (edit.op === "price") return l.price !== null && Number(l.price) === edit.price;
  if (edit.op === "title") return l.title === edit.title;
  if (edit.op === "stock") return l.stock === edit.stock;
  if (edit.op === "status") return l.status === (edit.status === "active" ? ListingStatus.Active : ListingStatus.Paused);
  return false;
}

/** A batch task's progress, status and remark from its counts; the outcome is set once every listing is counted. */
function taskProgress(s: BatchEditState): { progress: number; taskStatus: number; remark: string } {
  const finished = s.done + s.refused + s.skipped;
  const end = finished >= s.total;
  if (end) s.outcome = s.refused === 0 ? "succeeded" : s.done > 0 ? "partial" : "failed";
  const progress = Math.floor((finished * 100) / s.total);
  // A partial task is not a success: Failed with a remark saying how far it got (TaskStatus has no partial value).
  const taskStatus = !end ? TaskStatus.Running : s.outcome === "succeeded" ? TaskStatus.Succeeded : TaskStatus.Failed;
  const head = !end ? "进行中" : s.outcome === "succeeded" ? "已完成" : s.outcome === "partial" ? "部分完成" : "失败";
  const remark = `${opNames[s.op as Edit["op"]] ?? s.op}${head}：成功 ${s.done}，失败 ${s.refused}，未变化 ${s.skipped}，共 ${s.total}`;
  return { progress, taskStatus, remark };
}

/** The batch task's state (task_infos.content of a listing edit task). */
export async function batchEditState(tx: Tx, tenantId: string, taskId: string): Promise<BatchEditState | null> {
  const [r] = rowsOf<{ content: string }>(
    await tx.execute(sql`select content from task_infos where tenant_id = ${tenantId} and id = ${taskId}`),
  );
  return r ? (JSON.parse(r.content) as BatchEditState) : null;
}
