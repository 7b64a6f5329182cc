// Task centre calls (spec §7 TaskInfo).
import { getTaskInfoByPageQuery, retryTaskInput, retryTaskResult, taskInfoPage } from "../contract/tasks.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const tasksCalls = {
  getTaskInfoByPage: call({
    method: "GET",
    path: "/api/TaskInfo/GetTaskInfoByPage",
    query: getTaskInfoByPageQuery,
    result: taskInfoPage,
  }),
  retryTask: call({
    idempotent: true,
    method: "POST",
    path: "/api/TaskInfo/RetryTask",
    body: retryTaskInput,
    result: retryTaskResult,
  }),
};

export const createTasksApi = (client: ApiClient) => bindCalls(client, tasksCalls);
export type TasksApi = ReturnType<typeof createTasksApi>;
