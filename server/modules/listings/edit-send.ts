// One edit's calls to Mercado Libre (the adapter's, endpoints/items.ts): one write (local: PUT /items/{id};
// cross-border: PUT /global/items/{site item} for price, title and status, PUT /global/items/{CBT id} for what every
// site shares: stock, pictures and the package), and what the item then holds, as the listing stores it. A
// cross-border listing's site item and its global item are read through /marketplace/items (Global Selling "Publish
// items"), a local item through /items.
import type { listings } from "../../db/schema.ts";
import type { MeliExchange, MeliSession } from "../../integrations/mercadolibre/client.ts";
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
import { updateGlobalItem } from "../../integrations/mercadolibre/endpoints/global-items.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import type { Edit, Outcome, Target } from "./edit-types.ts";

type Stored = Partial<typeof listings.$inferInsert>;

/** One edit on its way: the shop's session, the listing, and what applyEdit settled before sending. */
export type Sending = {
  shop: MeliSession;
  t: Target;
  edit: Edit;
  /** The price to set (price and meliPrice edits). */
  targetPrice: number | null;
  /** The package size to send with a weight ("LxWxH"). */
  size: string | null;
  /** The pictures to set, cut to what the category takes. */
  images: string[];
  observe: (x: MeliExchange) => void;
  /** Answers the edit as skipped when Mercado Libre already holds its value (after storing what was read). */
  unchanged: () => Promise<Outcome>;
};

const writeOf = (s: Sending) => (id: string, body: Record<string, unknown>) =>
  (s.t.isCbt ? updateGlobalItem : updateItem)(s.shop, id, body, { observe: s.observe });
const readOf = (s: Sending) => (id: string) => (s.t.isCbt ? getMarketplaceItem : getItem)(s.shop, id, { observe: s.observe });

/** Sends the edit; answers an outcome when nothing was to be sent after all, else null (read the item back). */
export async function sendEdit(s: Sending): Promise<Outcome | null> {
  const { shop, t, edit, observe } = s;
  const l = t.listing;
  const itemId = l.itemId!;
  const put = writeOf(s);
  switch (edit.op) {
    case "price":
    case "meliPrice":
      await put(itemId, { price: s.targetPrice });
      break;
    case "title":
      await put(itemId, { title: edit.title });
      break;
    case "status":
      await put(itemId, { status: edit.status });
      break;
    case "description": {
      // The description lives on the item (a global item's on the global item); read first: an equal one is not sent.
      const owner = t.isCbt && l.cbtId ? l.cbtId : itemId;
      const now = await getItemDescription(shop, owner, { observe }).catch((e: unknown) =>
        e instanceof MeliApiError && e.kind === "not-found" ? null : Promise.reject(e),
      );
      if (now && now.plain_text === edit.description) return s.unchanged();
      await writeItemDescription(shop, owner, edit.description, { exists: !!now }, { observe });
      break;
    }
    case "weight": {
      if (t.isCbt) {
        const sides = s.size?.split("x") ?? [];
        const cm = ["PACKAGE_LENGTH", "PACKAGE_WIDTH", "PACKAGE_HEIGHT"].map((id, i) => ({ id, value_name: `${sides[i]} cm` }));
        await put(l.cbtId!, {
          attributes: [{ id: "PACKAGE_WEIGHT", value_name: `${edit.weight} g` }, ...(s.size ? cm : [])],
        });
      } else {
        await put(itemId, { shipping: { dimensions: `${s.size},${edit.weight}` } });
      }
      break;
    }
    case "images": {
      // Mercado Libre does not tell the URL a picture came from: pictures already on the item are known by their
      // own URLs (kept by id, not fetched again); the same pictures in the same order are not sent.
      const images = s.images;
      const current = (await readOf(s)(itemId)).pictures ?? [];
      const onItem = (url: string) => current.find((p) => p.url === url || p.secure_url === url);
      if (current.length === images.length && images.every((url, i) => onItem(url) === current[i])) return s.unchanged();
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
  return null;
}

/**
 * What the listing stores after the edit: what Mercado Libre answers now (writes are eventually consistent), and for a
 * global item's stock or package, what its other site listings hold too (`shared`).
 */
export async function storedAfter(s: Sending, meliPrice: { content: unknown } | null): Promise<{ set: Stored; shared?: Stored }> {
  const { t, edit } = s;
  const l = t.listing;
  const item = await readOf(s)(l.itemId!);
  const set: Stored = {
    status: edit.op === "delete" ? ListingStatus.Closed : statusOf(item.status),
    price: typeof item.price === "number" ? item.price.toFixed(2) : l.price,
    currency: item.currency_id ?? l.currency,
    title: item.title ?? l.title,
    permalink: item.permalink ?? l.permalink,
    reason: null,
    problems: [],
    syncTime: new Date(),
  };
  let shared: Stored | undefined;
  if (typeof item.available_quantity === "number") {
    set.stock = item.available_quantity;
    if (t.isCbt && edit.op === "stock") shared = { stock: item.available_quantity };
  }
  if (meliPrice) set.priceContent = meliPrice.content;
  if (edit.op === "images") set.image = item.pictures?.[0]?.secure_url ?? item.pictures?.[0]?.url ?? l.image;
  if (edit.op === "weight") {
    // The package as Mercado Libre holds it now (a global item's: every site listing of it).
    const owner = t.isCbt ? await getMarketplaceItem(s.shop, l.cbtId!, { observe: s.observe }) : item;
    const pack = packageOfItem(owner);
    const stored = { weight: pack.weight === null ? null : pack.weight.toFixed(2), size: pack.size };
    if (t.isCbt) shared = { ...shared, ...stored };
    else Object.assign(set, stored);
  }
  return { set, shared };
}

function statusOf(meliStatus: string | null | undefined): ListingStatus {
  if (meliStatus === "paused") return ListingStatus.Paused;
  if (meliStatus === "closed") return ListingStatus.Closed;
  if (meliStatus === "under_review" || meliStatus === "inactive") return ListingStatus.UnderReview;
  return ListingStatus.Active;
}

/** The package Mercado Libre holds: a local item's shipping dimensions "LxWxH,g", a global item's PACKAGE_* attributes. */
function packageOfItem(item: ListingItem): { weight: number | null; size: string | null } {
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
