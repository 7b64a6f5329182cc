// The task list's filters for the list toolbar: type, status, creator (main accounts) and creation days.
import type { ListFilters } from "../../components/list/list-toolbar.tsx";
import { ownerFilter, type UserOption } from "../../components/list/owner-filter.ts";
import { taskStatusOptions, taskTypeOptions } from "./labels.ts";

/** Creator choices (main accounts); null leaves the creator filter out. */
export const taskFilters = (users: UserOption[] | null): ListFilters => [
  {
    kind: "facet",
    key: "type",
    label: "任务类型",
    all: "全部类型",
    options: taskTypeOptions,
    className: "w-40",
    testId: "tasks-type-filter",
    itemTestId: "tasks-type",
  },
  {
    kind: "facet",
    key: "status",
    label: "任务状态",
    all: "全部状态",
    options: taskStatusOptions,
    className: "w-36",
    testId: "tasks-status-filter",
    itemTestId: "tasks-status",
  },
  ownerFilter(users, { label: "创建人", all: "全部账号", testId: "tasks-user-filter" }),
  { kind: "date-range", from: "from", to: "to", testId: "tasks-date" },
];
