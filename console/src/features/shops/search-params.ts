// The shop list's URL schema (useListUrlState: ?q=&site=&status=&user=&sort=&page=&size=, broken values fall back to
// the defaults), the page's tab (?tab=) and GetAccounts' query (KeyWord, Site, Status, UserId, Sorting, paging).
import { z } from "zod";
import { MeliAccountStatus } from "#shared/contract/enums.ts";
import { ALL, choiceParam, idParam, pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";
import { SITE_NUMBERS } from "./names.ts";

export type ShopsTab = "list" | "groups";

export const SHOP_PAGE_SIZES = [10, 20, 50, 100];

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

export const shopListSchema = z.object({
  /** Part of the alias, name, email or seller id. */
  q: textParam(100),
  site: choiceParam(SITE_NUMBERS),
  status: choiceParam(Object.values(MeliAccountStatus)),
  /** An owner's id (main accounts). */
  user: idParam(),
  sort: choiceParam(
    sortOptions.map((o) => o.value),
    "",
  ),
  page: pageParam(),
  size: pageSizeParam(SHOP_PAGE_SIZES, 20),
});
export type ShopListState = z.output<typeof shopListSchema>;

export function readShopsTab(p: URLSearchParams): ShopsTab {
  return p.get("tab") === "groups" ? "groups" : "list";
}

export function writeShopsTab(p: URLSearchParams, tab: ShopsTab): URLSearchParams {
  const next = new URLSearchParams(p);
  if (tab === "groups") next.set("tab", "groups");
  else next.delete("tab");
  return next;
}

/** GetAccounts' query of a list state (PascalCase names, only what is set). */
export function toAccountsQuery(s: ShopListState) {
  return {
    ...(s.q.trim() ? { KeyWord: s.q.trim() } : {}),
    ...(s.site !== ALL ? { Site: Number(s.site) } : {}),
    ...(s.status !== ALL ? { Status: Number(s.status) } : {}),
    ...(s.user !== ALL ? { UserId: s.user } : {}),
    ...(s.sort ? { Sorting: s.sort } : {}),
    SkipCount: (s.page - 1) * s.size,
    MaxResultCount: s.size,
  };
}
