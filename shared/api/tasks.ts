// Task centre calls (spec §7 TaskInfo; RetryTask is ours: the spec's task centre lists no retry).
import { getTaskInfoByPageQuery, retryTaskInput, retryTaskResult, taskInfoPage } from "../contract/tasks.ts";
import { call } from "./define.ts";

const group = "TaskInfo";

export const tasksCalls = {
  getTaskInfoByPage: call({
    group,
    name: "GetTaskInfoByPage",
    method: "GET",
    access: "user",
    summary: "Background tasks: the tenant's for a main account, its own for a sub-account; newest first",
    query: getTaskInfoByPageQuery,
    result: taskInfoPage,
  }),
  retryTask: call({
    group,
    name: "RetryTask",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Runs a failed crawl or URL import again (its failed collection tasks); other task types are started again where they began",
    body: retryTaskInput,
    result: retryTaskResult,
  }),
};
