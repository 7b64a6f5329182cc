// The product list's filters and paging as URL search params (a reload or a shared link shows the same page). Unknown
// or broken values fall back to the defaults; defaults are left out of the URL. The state turns into the contract's
// product filter (GetProductsByPage, CountProducts, and a bulk edit's "all matching").
import type { ProductFilter } from "@shared/contract/product.ts";
import { MAX_PAGE_SIZE } from "@shared/contract/common.ts";
import { platformOptions } from "../collects/labels.ts";
import { parseLocalDate } from "../../lib/format.ts";
import { productStatusOptions, siteOptions } from "./product-names.ts";

/** Page sizes; from VIRTUALIZE_FROM on the table renders only the rows in view. */
export const PRODUCT_PAGE_SIZES = [20, 50, 100, 200, 500, 1000];
export const PRODUCT_DEFAULT_PAGE_SIZE = 50;
export const VIRTUALIZE_FROM = 100;

const ALL = "all";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^\d+(\.\d+)?$/;

export type ProductListState = {
  /** Part of a title (any language). */
  title: string;
  /** The product's sku (exact). */
  sku: string;
  /** Source item ids, as typed (separated by spaces, commas or lines). */
  sourceIds: string;
  /** A ProductStatus value or "all". */
  status: string;
  /** A PlatformType value or "all". */
  platform: string;
  /** A label id or "all". */
  label: string;
  /** An owner's user id or "all" (main accounts only). */
  user: string;
  /** A 3-letter currency code or "". */
  currency: string;
  /** Decimals as text, or "". */
  minPrice: string;
  maxPrice: string;
  minWeight: string;
  maxWeight: string;
  /** A Site value or "all". */
  site: string;
  cateId: string;
  /** yyyy-mm-dd (local days) or "". */
  start: string;
  end: string;
  infringement: "all" | "yes" | "no";
  page: number;
  pageSize: number;
};

const text = (p: URLSearchParams, key: string, max: number) => (p.get(key) ?? "").slice(0, max);
const oneOf = (p: URLSearchParams, key: string, values: readonly (string | number)[]) => {
  const v = p.get(key) ?? "";
  return values.map(String).includes(v) ? v : ALL;
};
const guid = (p: URLSearchParams, key: string) => {
  const v = p.get(key) ?? "";
  return GUID.test(v) ? v.toLowerCase() : ALL;
};
const decimal = (p: URLSearchParams, key: string) => {
  const v = (p.get(key) ?? "").trim();
  return DECIMAL.test(v) ? v : "";
};
const date = (p: URLSearchParams, key: string) => {
  const v = p.get(key) ?? "";
  return parseLocalDate(v) ? v : "";
};

export function readProductListState(p: URLSearchParams): ProductListState {
  const infr = p.get("infr");
  const page = Number(p.get("page"));
  const size = Number(p.get("size"));
  const currency = (p.get("cur") ?? "").trim().toUpperCase();
  return {
    title: text(p, "q", 200),
    sku: text(p, "sku", 128),
    sourceIds: text(p, "src", 20_000),
    status: oneOf(
      p,
      "status",
      productStatusOptions.map((o) => o.value),
    ),
    platform: oneOf(
      p,
      "platform",
      platformOptions.map((o) => o.value),
    ),
    label: guid(p, "label"),
    user: guid(p, "user"),
    currency: /^[A-Z]{3}$/.test(currency) ? currency : "",
    minPrice: decimal(p, "pmin"),
    maxPrice: decimal(p, "pmax"),
    minWeight: decimal(p, "wmin"),
    maxWeight: decimal(p, "wmax"),
    site: oneOf(
      p,
      "site",
      siteOptions.map((o) => o.value),
    ),
    cateId: text(p, "cate", 64),
    start: date(p, "from"),
    end: date(p, "to"),
    infringement: infr === "yes" || infr === "no" ? infr : ALL,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: PRODUCT_PAGE_SIZES.includes(size) ? size : PRODUCT_DEFAULT_PAGE_SIZE,
  };
}

export function writeProductListState(params: URLSearchParams, s: ProductListState): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (key: string, value: string | null) => (value === null || value === "" ? next.delete(key) : next.set(key, value));
  const choice = (v: string) => (v === ALL ? null : v);
  put("q", s.title.trim());
  put("sku", s.sku.trim());
  put("src", sourceIdsOf(s.sourceIds).join(","));
  put("status", choice(s.status));
  put("platform", choice(s.platform));
  put("label", choice(s.label));
  put("user", choice(s.user));
  put("cur", s.currency.trim().toUpperCase());
  put("pmin", s.minPrice.trim());
  put("pmax", s.maxPrice.trim());
  put("wmin", s.minWeight.trim());
  put("wmax", s.maxWeight.trim());
  put("site", choice(s.site));
  put("cate", s.cateId.trim());
  put("from", s.start);
  put("to", s.end);
  put("infr", choice(s.infringement));
  put("page", s.page > 1 ? String(s.page) : null);
  put("size", s.pageSize !== PRODUCT_DEFAULT_PAGE_SIZE ? String(s.pageSize) : null);
  return next;
}

/** The state with no filter (keeping the page size). */
export const emptyProductListState = (pageSize: number): ProductListState => ({
  ...readProductListState(new URLSearchParams()),
  pageSize,
});

/** Source item ids as typed: split on spaces, commas and lines, each once, at most a page's worth. */
export function sourceIdsOf(text: string): string[] {
  const ids = text
    .split(/[\s,，;；]+/)
    .map((s) => s.trim())
    .filter((s) => s && s.length <= 128);
  return [...new Set(ids)].slice(0, MAX_PAGE_SIZE);
}

/** Whether any filter is set (paging aside). */
export function hasProductFilter(s: ProductListState): boolean {
  const texts = [s.title, s.sku, s.sourceIds, s.currency, s.minPrice, s.maxPrice, s.minWeight, s.maxWeight, s.cateId, s.start, s.end];
  const choices = [s.status, s.platform, s.label, s.user, s.site, s.infringement];
  return texts.some((t) => t.trim() !== "") || choices.some((c) => c !== ALL);
}

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
  const f: ProductListFilter = { ...dayRange(s.start, s.end) };
  const num = (v: string) => (DECIMAL.test(v.trim()) ? Number(v.trim()) : undefined);
  if (s.title.trim()) f.title = s.title.trim();
  if (s.sku.trim()) f.sku = s.sku.trim();
  const sourceIds = sourceIdsOf(s.sourceIds);
  if (sourceIds.length) f.sourceIds = sourceIds;
  if (s.status !== ALL) f.status = Number(s.status);
  if (s.platform !== ALL) f.platformType = Number(s.platform);
  if (s.label !== ALL) f.labelId = s.label;
  if (s.user !== ALL) f.userId = s.user;
  if (s.currency.trim()) f.currrency = s.currency.trim().toUpperCase();
  if (num(s.minPrice) !== undefined) f.minPrice = num(s.minPrice);
  if (num(s.maxPrice) !== undefined) f.maxPrice = num(s.maxPrice);
  if (num(s.minWeight) !== undefined) f.minWeight = num(s.minWeight);
  if (num(s.maxWeight) !== undefined) f.maxWeight = num(s.maxWeight);
  if (s.site !== ALL) f.site = Number(s.site);
  if (s.cateId.trim()) f.cateId = s.cateId.trim();
  if (s.infringement !== ALL) f.hasInfringement = s.infringement === "yes";
  return f;
}

/** GetProductsByPage's body of a list state. */
export function toProductQuery(s: ProductListState) {
  return { ...toProductFilter(s), skipCount: (s.page - 1) * s.pageSize, maxResultCount: s.pageSize, sorting: "creationTime desc" };
}
export type ProductQuery = ReturnType<typeof toProductQuery>;
