// Task centre calls (spec §7 TaskInfo; RetryTask is ours), declared in shared/api/tasks.ts.
import type { Registrar } from "../../http/calls.ts";
import { tasksCalls as calls } from "#shared/api/tasks.ts";
import type { TaskService } from "./service.ts";

export function registerTasks(r: Registrar, { tasks }: { tasks: TaskService }) {
  r.handle(calls.getTaskInfoByPage, { handler: (ctx, { query }) => tasks.getTaskInfoByPage(ctx, query) });
  r.handle(calls.retryTask, { handler: (ctx, { body }) => tasks.retryTask(ctx, body.id) });
}
