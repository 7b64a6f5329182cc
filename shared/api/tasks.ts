// Task centre calls (spec §7 TaskInfo).
import { pagedResult } from "../contract/common.ts";
import { getTaskInfoByPageQuery, taskInfo } from "../contract/tasks.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const tasksCalls = {
  getTaskInfoByPage: call({
    method: "GET",
    path: "/api/TaskInfo/GetTaskInfoByPage",
    query: getTaskInfoByPageQuery,
    result: pagedResult(taskInfo),
  }),
};

export const createTasksApi = (client: ApiClient) => bindCalls(client, tasksCalls);
export type TasksApi = ReturnType<typeof createTasksApi>;
