// Task centre calls (spec §7 TaskInfo; RetryTask is ours: the spec's task centre lists no retry).
import type { Registrar } from "../../http/calls.ts";
import { getTaskInfoByPageQuery, retryTaskInput, retryTaskResult, taskInfoPage } from "#shared/contract/tasks.ts";
import type { TaskService } from "./service.ts";

export function registerTasks(r: Registrar, { tasks }: { tasks: TaskService }) {
  r.call({
    group: "TaskInfo",
    name: "GetTaskInfoByPage",
    method: "GET",
    access: "user",
    summary: "Background tasks: the tenant's for a main account, its own for a sub-account; newest first",
    query: getTaskInfoByPageQuery,
    result: taskInfoPage,
    handler: (ctx, { query }) => tasks.getTaskInfoByPage(ctx, query),
  });
  r.call({
    group: "TaskInfo",
    name: "RetryTask",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Runs a failed crawl or URL import again (its failed collection tasks); other task types are started again where they began",
    body: retryTaskInput,
    result: retryTaskResult,
    handler: (ctx, { body }) => tasks.retryTask(ctx, body.id),
  });
}
