// The listing centre's URL schema (useListUrlState: each key is its search param; broken values fall back to the
// defaults) and the contract's listing filter it turns into (GetMeliStatsByPage, GetMeliStatGroupInfo, a batch edit's
// "all matching"). The status tab is a filter like the others, so a link keeps the tab.
import { z } from "zod";
import { MAX_PAGE_SIZE } from "#shared/contract/common.ts";
import { ListingStatus, Site } from "#shared/contract/enums.ts";
import type { ListingFilter } from "#shared/contract/listings.ts";
import {
  ALL,
  choiceParam,
  dateParam,
  decimalParam,
  idParam,
  isDecimal,
  pageParam,
  pageSizeParam,
  textParam,
} from "../../components/list/url-params.ts";
import { localDayRange } from "../../lib/format.ts";

/** Page sizes; from LISTING_VIRTUALIZE_FROM on the table renders only the rows in view. */
export const LISTING_PAGE_SIZES = [20, 50, 100, 200, 500];
export const LISTING_VIRTUALIZE_FROM = 100;

export const LISTING_SORTS = {
  "creationTime desc": "最新刊登",
  "lastModificationTime desc": "最近更新",
  "price desc": "价格从高到低",
  "price asc": "价格从低到高",
  "stock asc": "库存从少到多",
  "orders desc": "销量最多",
  "views desc": "浏览最多",
} as const;

/** Item ids as typed: split on spaces, commas and lines, upper case, each once, at most a page's worth. */
export function itemIdsOf(text: string): string[] {
  const ids = text
    .split(/[\s,，;；]+/)
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s && s.length <= 40);
  return [...new Set(ids)].slice(0, MAX_PAGE_SIZE);
}

const yesNo = () => z.enum([ALL, "yes", "no"]).catch(ALL);

export const listingListSchema = z.object({
  /** local: MeliStat (local shops); cbt: MeliStatNew (global selling). */
  kind: z.enum(["local", "cbt"]).catch("local"),
  status: choiceParam(Object.values(ListingStatus)),
  shop: idParam(),
  site: choiceParam(Object.values(Site)),
  /** Part of the title. */
  q: textParam(200),
  sku: textParam(128),
  /** Item ids (MLM…), kept comma-separated. */
  items: textParam(20_000).transform((s) => itemIdsOf(s).join(",")),
  cbt: textParam(40),
  reason: textParam(200),
  pmin: decimalParam(),
  pmax: decimalParam(),
  smin: z
    .string()
    .trim()
    .regex(/^\d{1,9}$/)
    .catch(""),
  smax: z
    .string()
    .trim()
    .regex(/^\d{1,9}$/)
    .catch(""),
  from: dateParam(),
  to: dateParam(),
  sold: yesNo(),
  viewed: yesNo(),
  warn: yesNo(),
  /** Margin now (issue 32): under the shop's minimum, or a loss (GetMarginDrift's margin filter). */
  margin: z.enum([ALL, "low", "negative"]).catch(ALL),
  sort: z.enum(Object.keys(LISTING_SORTS) as [keyof typeof LISTING_SORTS]).catch("creationTime desc"),
  page: pageParam(),
  size: pageSizeParam(LISTING_PAGE_SIZES, 50),
});
export type ListingListState = z.output<typeof listingListSchema>;

/** The wire form of the listing filter (dates as ISO strings). */
export type ListingListFilter = {
  [K in keyof ListingFilter]?: ListingFilter[K] extends Date | null | undefined ? string : ListingFilter[K];
};

const flag = (v: string) => (v === ALL ? undefined : v === "yes");

/** The listing filter of a list state (only what is set); the tab counts take it whole (they ignore its status). */
export function toListingFilter(s: ListingListState): ListingListFilter {
  const { from, to } = localDayRange(s.from, s.to);
  const f: ListingListFilter = {};
  if (from) f.startTime = from;
  if (to) f.endTime = to;
  const num = (v: string) => (isDecimal(v) ? Number(v.trim()) : undefined);
  if (s.status !== ALL) f.status = Number(s.status);
  if (s.shop !== ALL) f.accountGroupId = s.shop;
  if (s.site !== ALL) f.site = Number(s.site);
  if (s.q.trim()) f.title = s.q.trim();
  if (s.sku.trim()) f.sku = s.sku.trim();
  const itemIds = itemIdsOf(s.items);
  if (itemIds.length) f.itemIds = itemIds;
  if (s.cbt.trim()) f.cbtId = s.cbt.trim().toUpperCase();
  if (s.reason.trim()) f.reason = s.reason.trim();
  if (num(s.pmin) !== undefined) f.minPrice = num(s.pmin);
  if (num(s.pmax) !== undefined) f.maxPrice = num(s.pmax);
  if (s.smin) f.minStock = Number(s.smin);
  if (s.smax) f.maxStock = Number(s.smax);
  if (flag(s.sold) !== undefined) f.hasSold = flag(s.sold);
  if (flag(s.viewed) !== undefined) f.hasView = flag(s.viewed);
  if (flag(s.warn) !== undefined) f.warning = flag(s.warn);
  return f;
}

/** GetMeliStatsByPage's body of a list state. */
export function toListingQuery(s: ListingListState) {
  return { ...toListingFilter(s), skipCount: (s.page - 1) * s.size, maxResultCount: s.size, sorting: s.sort };
}

/** The margin filter of a list state, null when not set. */
export const marginFilterOf = (s: ListingListState) => (s.margin === ALL ? null : s.margin);
