// The shop list's tab, filters, sorting and paging as URL search params (?tab=&q=&site=&status=&user=&sort=&page=&size=),
// so a reload or a shared link shows the same list. Unknown or broken values fall back to the defaults; defaults are
// left out of the URL. The state turns into GetAccounts' query (KeyWord, Site, Status, UserId, Sorting, paging).
import { MeliAccountStatus } from "@shared/contract/enums.ts";
import { SITE_NUMBERS } from "./names.ts";

export type ShopsTab = "list" | "groups";

export const SHOP_PAGE_SIZES = [10, 20, 50, 100];
export const SHOP_DEFAULT_PAGE_SIZE = 20;

const ALL = "all";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The orders the list offers (GetAccounts' sort whitelist); "" is the server's own (sort value, then newest). */
export const sortOptions = [
  { value: "", label: "默认排序" },
  { value: "creationTime desc", label: "绑定时间（新→旧）" },
  { value: "creationTime asc", label: "绑定时间（旧→新）" },
  { value: "lastModificationTime desc", label: "最近修改" },
  { value: "sort asc", label: "排序值（小→大）" },
  { value: "sort desc", label: "排序值（大→小）" },
  { value: "name asc", label: "店铺名称" },
  { value: "alias asc", label: "店铺别名" },
  { value: "site asc", label: "站点" },
  { value: "status asc", label: "状态" },
] as const;

export type ShopListState = {
  /** Part of the alias, name, email or seller id. */
  keyword: string;
  /** A site number or "all". */
  site: string;
  /** A MeliAccountStatus value or "all". */
  status: string;
  /** An owner's user id or "all" (main accounts only). */
  user: string;
  /** One of sortOptions' values. */
  sort: string;
  page: number;
  pageSize: number;
};

const oneOf = (p: URLSearchParams, key: string, values: readonly (string | number)[]) => {
  const v = p.get(key) ?? "";
  return values.map(String).includes(v) ? v : ALL;
};

export function readShopsTab(p: URLSearchParams): ShopsTab {
  return p.get("tab") === "groups" ? "groups" : "list";
}

export function writeShopsTab(p: URLSearchParams, tab: ShopsTab): URLSearchParams {
  const next = new URLSearchParams(p);
  if (tab === "groups") next.set("tab", "groups");
  else next.delete("tab");
  return next;
}

export function readShopListState(p: URLSearchParams): ShopListState {
  const page = Number(p.get("page"));
  const size = Number(p.get("size"));
  const user = p.get("user") ?? "";
  const sort = p.get("sort") ?? "";
  return {
    keyword: (p.get("q") ?? "").slice(0, 100),
    site: oneOf(p, "site", SITE_NUMBERS),
    status: oneOf(p, "status", Object.values(MeliAccountStatus)),
    user: GUID.test(user) ? user.toLowerCase() : ALL,
    sort: sortOptions.some((o) => o.value === sort) ? sort : "",
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: SHOP_PAGE_SIZES.includes(size) ? size : SHOP_DEFAULT_PAGE_SIZE,
  };
}

export function writeShopListState(p: URLSearchParams, s: ShopListState): URLSearchParams {
  const next = new URLSearchParams(p);
  const put = (key: string, value: string | null) => (value === null || value === "" ? next.delete(key) : next.set(key, value));
  const choice = (v: string) => (v === ALL ? null : v);
  put("q", s.keyword.trim());
  put("site", choice(s.site));
  put("status", choice(s.status));
  put("user", choice(s.user));
  put("sort", s.sort);
  put("page", s.page > 1 ? String(s.page) : null);
  put("size", s.pageSize !== SHOP_DEFAULT_PAGE_SIZE ? String(s.pageSize) : null);
  return next;
}

/** The params with no filter, keeping the tab and the page size. */
export function clearShopFilters(p: URLSearchParams): URLSearchParams {
  const current = readShopListState(p);
  return writeShopListState(p, { ...readShopListState(new URLSearchParams()), pageSize: current.pageSize });
}

/** Whether any filter is set (sorting and paging aside). */
export const hasShopFilter = (s: ShopListState) => s.keyword.trim() !== "" || s.site !== ALL || s.status !== ALL || s.user !== ALL;

/** GetAccounts' query of a list state (PascalCase names, only what is set). */
export function toAccountsQuery(s: ShopListState) {
  return {
    ...(s.keyword.trim() ? { KeyWord: s.keyword.trim() } : {}),
    ...(s.site !== ALL ? { Site: Number(s.site) } : {}),
    ...(s.status !== ALL ? { Status: Number(s.status) } : {}),
    ...(s.user !== ALL ? { UserId: s.user } : {}),
    ...(s.sort ? { Sorting: s.sort } : {}),
    SkipCount: (s.page - 1) * s.pageSize,
    MaxResultCount: s.pageSize,
  };
}
export type AccountsQuery = ReturnType<typeof toAccountsQuery>;
