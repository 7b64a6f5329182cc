// One edit of one listing on Mercado Libre (`applyEdit`): read the listing in a short transaction; when its value
// already equals the target, nothing is sent (skipped); otherwise one write (local: PUT /items/{id}; cross-border:
// PUT /global/items/{site item} for price, title and status, PUT /global/items/{CBT id} for what every site shares:
// stock, pictures and the package), then a re-read of the item, and what Mercado Libre holds is stored on the listing
// with the calls' log, in another short transaction. Mercado Libre is never called inside a transaction. A refusal
// leaves the marketplace's reason (in Chinese) on the listing. The calls are the adapter's (endpoints/items.ts).
import { and, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import { listings, meliAccountGroups, meliCategories, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { Jobs } from "../../jobs/queue.ts";
import type { MeliClient, MeliExchange } from "../../integrations/mercadolibre/client.ts";
import {
  deleteItem,
  getItemDescription,
  getItemVariations,
  getItem,
  getMarketplaceItem,
  updateItem,
  updateVariationStock,
  writeItemDescription,
  type ListingItem,
} from "../../integrations/mercadolibre/endpoints/items.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { recordListingCalls } from "../meli-logs/service.ts";
import type { PictureFetchOptions } from "../publishing/pictures.ts";
import { ListingStatus } from "../../../shared/contract/enums.ts";
import type { EditOutcome } from "../../../shared/contract/listing-edits.ts";
import { meliPriceOf } from "./meli-price.ts";
import { updateGlobalItem } from "../../integrations/mercadolibre/endpoints/global-items.ts";
import { productsFollowListings } from "../products/listing-status.ts";

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

export type ListingRow = typeof listings.$inferSelect;
export type Target = { listing: ListingRow; isCbt: boolean };
export type Outcome = { outcome: EditOutcome; reason: string | null };

export type ListingEditDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  log: FastifyBaseLogger;
  /** The picture size probe's address guard, as publishing's (CRAWL_ALLOW_PRIVATE). */
  pictures?: PictureFetchOptions;
};

/** Listings an edit can reach: on Mercado Libre (an item id) and not closed. */
export const ON_MARKET: number[] = [ListingStatus.Active, ListingStatus.Paused, ListingStatus.UnderReview];

function statusOf(meliStatus: string | null | undefined): ListingStatus {
  if (meliStatus === "paused") return ListingStatus.Paused;
  if (meliStatus === "closed") return ListingStatus.Closed;
  if (meliStatus === "under_review" || meliStatus === "inactive") return ListingStatus.UnderReview;
  return ListingStatus.Active;
}

type MeliItem = ListingItem;

/** A size as "LxWxH" (lower-case x), or null when it is not three numbers. */
export function sizeText(size: string | null | undefined): string | null {
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

export function createEditApplier(deps: ListingEditDeps) {
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
      // Sites of one global item are edited side by side: every job locks the group's rows in one order first, so
      // two of them never hold one row each and wait on the other (a deadlock on PostgreSQL).
      if (shared && l.cbtId)
        await tx
          .select({ id: listings.id })
          .from(listings)
          .where(and(eq(listings.tenantId, l.tenantId), eq(listings.cbtId, l.cbtId)))
          .orderBy(listings.id)
          .for("update");
      if (Object.keys(set).length) {
        await tx
          .update(listings)
          .set({ ...set, lastModificationTime: new Date(), lastModifierId: creatorId })
          .where(and(eq(listings.tenantId, l.tenantId), eq(listings.id, l.id)));
        // Closed or reactivated: the product follows (已发布 while it has a live listing).
        if (set.status !== undefined) await productsFollowListings(tx, l.tenantId, [l.productId]);
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
      const r = await meliPriceOf(db, t, edit.limitMinPrice);
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
    const read = (id: string) => (t.isCbt ? getMarketplaceItem : getItem)(shop, id, { observe });
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

  return { loadTarget, store, applyEdit, meliPriceOf: (t: Target, limitMinPrice: number | null) => meliPriceOf(db, t, limitMinPrice) };
}
