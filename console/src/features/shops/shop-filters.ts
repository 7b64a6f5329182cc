// The shop list's filters (GetAccounts: KeyWord, Site, Status, UserId for main accounts) and its order, declared for
// the list toolbar. Every change goes back to page 1.
import type { ListFilters } from "../../components/list/list-toolbar.tsx";
import { ownerFilter, type UserOption } from "../../components/list/owner-filter.ts";
import { accountStatusOptions, siteOptions } from "./names.ts";
import { sortOptions } from "./search-params.ts";

/** Owner choices (main accounts); null leaves the owner filter out. */
export const shopFilters = (users: UserOption[] | null): ListFilters => [
  {
    kind: "search",
    key: "q",
    label: "搜索店铺",
    placeholder: "搜索店铺别名、昵称、邮箱、卖家ID",
    maxLength: 100,
    className: "sm:w-72",
    testId: "shops-search",
  },
  { kind: "facet", key: "site", label: "站点", all: "全部站点", options: siteOptions, className: "w-40", testId: "shops-filter-site" },
  {
    kind: "facet",
    key: "status",
    label: "状态",
    all: "全部状态",
    options: accountStatusOptions,
    className: "w-32",
    testId: "shops-filter-status",
  },
  ownerFilter(users, { label: "所属业务员", all: "全部业务员", testId: "shops-filter-user" }),
  { kind: "facet", key: "sort", label: "排序", options: sortOptions, className: "w-44", testId: "shops-sort" },
];
