// Task centre calls (spec §7 TaskInfo).
import type { Registrar } from "../../http/calls.ts";
import { pagedResult } from "../../../shared/contract/common.ts";
import { getTaskInfoByPageQuery, taskInfo } from "../../../shared/contract/tasks.ts";
import type { TaskService } from "./service.ts";

export function registerTasks(r: Registrar, { tasks }: { tasks: TaskService }) {
  r.call({
    group: "TaskInfo",
    name: "GetTaskInfoByPage",
    method: "GET",
    access: "user",
    summary: "Background tasks: the tenant's for a main account, its own for a sub-account; newest first",
    query: getTaskInfoByPageQuery,
    result: pagedResult(taskInfo),
    handler: (ctx, { query }) => tasks.getTaskInfoByPage(ctx, query),
  });
}
