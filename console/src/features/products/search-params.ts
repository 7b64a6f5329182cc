// The product list's URL schema (useListUrlState: each key is its search param, broken values fall back to the
// defaults) and the contract's product filter it turns into (GetProductsByPage, CountProducts, a bulk edit's "all
// matching").
import { z } from "zod";
import type { ProductFilter } from "#shared/contract/product.ts";
import { MAX_PAGE_SIZE } from "#shared/contract/common.ts";
import { PlatformType, ProductStatus, Site } from "#shared/contract/enums.ts";
import {
  ALL,
  choiceParam,
  dateParam,
  decimalParam,
  idParam,
  infringementParam,
  isDecimal,
  pageParam,
  pageSizeParam,
  textParam,
} from "../../components/list/url-params.ts";
import { parseLocalDate } from "../../lib/format.ts";

/** Page sizes; from VIRTUALIZE_FROM on the table renders only the rows in view. */
export const PRODUCT_PAGE_SIZES = [20, 50, 100, 200, 500, 1000];
export const VIRTUALIZE_FROM = 100;

/** Source item ids as typed: split on spaces, commas and lines, each once, at most a page's worth. */
export function sourceIdsOf(text: string): string[] {
  const ids = text
    .split(/[\s,，;；]+/)
    .map((s) => s.trim())
    .filter((s) => s && s.length <= 128);
  return [...new Set(ids)].slice(0, MAX_PAGE_SIZE);
}

export const productListSchema = z.object({
  /** Part of a title (any language). */
  q: textParam(200),
  /** The product's sku (exact). */
  sku: textParam(128),
  /** Source item ids, kept comma-separated. */
  src: textParam(20_000).transform((s) => sourceIdsOf(s).join(",")),
  status: choiceParam(Object.values(ProductStatus)),
  platform: choiceParam(Object.values(PlatformType)),
  /** A label id. */
  label: idParam(),
  /** An owner's id (main accounts). */
  user: idParam(),
  /** A 3-letter currency code. */
  cur: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/)
    .catch(""),
  /** Price and weight ranges (decimals as text). */
  pmin: decimalParam(),
  pmax: decimalParam(),
  wmin: decimalParam(),
  wmax: decimalParam(),
  site: choiceParam(Object.values(Site)),
  /** A category of the chosen site. */
  cate: textParam(64),
  /** Creation days, yyyy-mm-dd. */
  from: dateParam(),
  to: dateParam(),
  infr: infringementParam(),
  page: pageParam(),
  size: pageSizeParam(PRODUCT_PAGE_SIZES, 50),
});
export type ProductListState = z.output<typeof productListSchema>;

/** The wire form of the product filter (dates as ISO strings). */
export type ProductListFilter = {
  [K in keyof ProductFilter]?: ProductFilter[K] extends Date | null | undefined ? string : ProductFilter[K];
};

/** Local day range → creation time from the first day's midnight (inclusive) to the day after the last (exclusive). */
function dayRange(start: string, end: string): { startTime?: string; endTime?: string } {
  const from = parseLocalDate(start);
  const to = parseLocalDate(end);
  if (to) to.setDate(to.getDate() + 1);
  return { ...(from ? { startTime: from.toISOString() } : {}), ...(to ? { endTime: to.toISOString() } : {}) };
}

/** The product filter of a list state (only what is set). */
export function toProductFilter(s: ProductListState): ProductListFilter {
  const f: ProductListFilter = { ...dayRange(s.from, s.to) };
  const num = (v: string) => (isDecimal(v) ? Number(v.trim()) : undefined);
  if (s.q.trim()) f.title = s.q.trim();
  if (s.sku.trim()) f.sku = s.sku.trim();
  const sourceIds = sourceIdsOf(s.src);
  if (sourceIds.length) f.sourceIds = sourceIds;
  if (s.status !== ALL) f.status = Number(s.status);
  if (s.platform !== ALL) f.platformType = Number(s.platform);
  if (s.label !== ALL) f.labelId = s.label;
  if (s.user !== ALL) f.userId = s.user;
  if (s.cur.trim()) f.currrency = s.cur.trim().toUpperCase();
  if (num(s.pmin) !== undefined) f.minPrice = num(s.pmin);
  if (num(s.pmax) !== undefined) f.maxPrice = num(s.pmax);
  if (num(s.wmin) !== undefined) f.minWeight = num(s.wmin);
  if (num(s.wmax) !== undefined) f.maxWeight = num(s.wmax);
  if (s.site !== ALL) f.site = Number(s.site);
  if (s.cate.trim()) f.cateId = s.cate.trim();
  if (s.infr !== ALL) f.hasInfringement = s.infr === "yes";
  return f;
}

/** GetProductsByPage's body of a list state. */
export function toProductQuery(s: ProductListState) {
  return { ...toProductFilter(s), skipCount: (s.page - 1) * s.size, maxResultCount: s.size, sorting: "creationTime desc" };
}
