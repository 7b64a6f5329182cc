// The selection library (host only; spec §3 Competitor listing, §7 Selection: MeliSelectionSku GetMeliSelectionSku,
// CreawlUrl): marketplace listings the host watches, read on a schedule with their price and sold history.
import { z } from "zod";
import { isoDate, pagedQuery, queryInt, queryList } from "./common.ts";

const selectionPoint = z.object({
  time: z.string(),
  price: z.number().nullable(),
  originalPrice: z.number().nullable(),
  sold: z.number().int().nullable(),
});
export type SelectionPoint = z.infer<typeof selectionPoint>;

/** A competitor listing (spec §3) with what the library adds: the id watched, the URL given, the read state, the trend. */
const competitorListing = z.object({
  id: z.string(),
  sku: z.string(),
  url: z.string(),
  site: z.number().int().nullable(),
  status: z.string().nullable(),
  lastModificationTime: z.string().nullable(),
  sellerId: z.string().nullable(),
  sellerCountry: z.string().nullable(),
  title: z.string().nullable(),
  permalink: z.string().nullable(),
  image: z.string().nullable(),
  price: z.number().nullable(),
  originalPrice: z.number().nullable(),
  currencyId: z.string().nullable(),
  sold: z.number().int().nullable(),
  isCbt: z.boolean(),
  skuCreateDate: z.string().nullable(),
  creationTime: z.string(),
  lastReadTime: z.string().nullable(),
  nextReadTime: z.string(),
  /** Why the last read failed, in Chinese. */
  error: z.string().nullable(),
  /** The reads within StartDate..EndDate (default the last 30 days), oldest first. */
  history: z.array(selectionPoint),
});
export type CompetitorListing = z.infer<typeof competitorListing>;

export const getMeliSelectionSkuQuery = pagedQuery(["creationTime", "price", "sold", "lastReadTime", "title"]).extend({
  /** Item ids or listing URLs. */
  Skus: queryList(z.string().trim().min(1).max(2000)).pipe(z.array(z.string()).max(100)).optional(),
  StartDate: isoDate.optional(),
  EndDate: isoDate.optional(),
  Site: queryInt(1, 5).optional(),
  SellerId: z.string().trim().min(1).max(40).optional(),
});
export const competitorListingPage = z.object({ items: z.array(competitorListing), totalCount: z.number().int() });
export type CompetitorListingPage = z.infer<typeof competitorListingPage>;

/** Listing URLs or item ids (MLM123…, MLM-123…), one per entry. */
export const creawlUrlBody = z.object({ urls: z.array(z.string().trim().min(1).max(2000)).min(1).max(200) });
export const creawlUrlResult = z.object({
  /** Newly watched. */
  added: z.number().int(),
  /** Already watched: read again now. */
  existing: z.number().int(),
  /** Entries that name no Mercado Libre listing. */
  invalid: z.array(z.string()),
});
export type CreawlUrlResult = z.infer<typeof creawlUrlResult>;

const SITE_PREFIXES = ["MLM", "MLB", "MLC", "MCO", "CBT"] as const;

/**
 * The Mercado Libre item id an entry names: an id (MLM123456789, MLM-123456789) or a listing URL whose path holds one
 * (articulo.mercadolibre.com.mx/MLM-123456789-titulo-_JM, or ?item_id= / #…wid=). Null when it names none.
 */
export function itemIdOf(entry: string): string | null {
  const s = entry.trim();
  const direct = /^(MLM|MLB|MLC|MCO|CBT)-?(\d{6,15})$/i.exec(s);
  if (direct) return `${direct[1].toUpperCase()}${direct[2]}`;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(url.protocol) || !/(^|\.)mercado(libre|livre)\.[a-z.]+$/i.test(url.hostname)) return null;
  const wid = /(?:^|[?&#])(?:wid|item_id)=((?:MLM|MLB|MLC|MCO|CBT)\d{6,15})/i.exec(url.search + url.hash);
  if (wid) return wid[1].toUpperCase();
  // A catalog page (/p/MLM123) names a product, not a listing.
  const path = url.pathname;
  if (/\/p\/(MLM|MLB|MLC|MCO)\d+/i.test(path)) return null;
  const m = new RegExp(`(?:^|/)(${SITE_PREFIXES.join("|")})-?(\\d{6,15})(?:[-_/]|$)`, "i").exec(path);
  return m ? `${m[1].toUpperCase()}${m[2]}` : null;
}
