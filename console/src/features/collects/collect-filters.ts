// The filters of the collection list (spec §3 product filter, the parts a collection has) and of the task list (spec §3
// task filter), declared for the list toolbar. Every change goes back to page 1.
import { ownerFilter, type UserOption } from "../../components/list/owner-filter.ts";
import type { ListFilters } from "../../components/list/list-toolbar.tsx";
import { infringementFilter } from "../../components/list/infringement-filter.ts";
import { platformOptions } from "../../lib/labels.ts";
import { collectStatusOptions, taskStatusOptions } from "./labels.ts";

const skuFilter = (testId: string) =>
  ({
    kind: "search",
    key: "sku",
    label: "商品ID",
    placeholder: "商品ID（精确）",
    plain: true,
    maxLength: 128,
    className: "sm:w-40",
    testId,
  }) as const;

/** Owner choices (main accounts); null leaves the owner filter out. */
export const collectFilters = (users: UserOption[] | null): ListFilters => [
  { kind: "search", key: "q", label: "搜索商品标题", maxLength: 200, className: "sm:w-64", testId: "collects-search" },
  skuFilter("collects-sku"),
  {
    kind: "facet",
    key: "status",
    label: "状态",
    all: "全部状态",
    options: collectStatusOptions,
    className: "w-36",
    testId: "collects-status-filter",
    itemTestId: "collects-status",
  },
  {
    kind: "facet",
    key: "platform",
    label: "来源平台",
    all: "全部平台",
    options: platformOptions,
    className: "w-32",
    testId: "collects-platform-filter",
    itemTestId: "collects-platform",
  },
  infringementFilter("collects-infringement-filter", "w-36"),
  ownerFilter(users, { label: "采集人", all: "全部账号", testId: "collects-user-filter" }),
  { kind: "date-range", from: "from", to: "to", testId: "collects-date" },
];

export const taskFilters = (users: UserOption[] | null): ListFilters => [
  { kind: "search", key: "q", label: "搜索链接或标题", maxLength: 200, className: "sm:w-64", testId: "collect-tasks-search" },
  skuFilter("collect-tasks-sku"),
  {
    kind: "facet",
    key: "status",
    label: "任务状态",
    all: "全部状态",
    options: taskStatusOptions,
    className: "w-40",
    testId: "collect-tasks-status-filter",
    itemTestId: "collect-tasks-status",
  },
  ownerFilter(users, { label: "采集人", all: "全部账号", testId: "collect-tasks-user-filter" }),
  { kind: "date-range", from: "from", to: "to", testId: "collect-tasks-date" },
];
