// @vitest-environment happy-dom
// Following a task from the screen that started it: found by id among the newest tasks of its type, null while the
// task centre does not list it yet, asked again while it runs and no more once it has ended.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { TaskInfo } from "#shared/contract/tasks.ts";
import { api } from "./feature-api.ts";
import { isTaskDone, useTask } from "./task-queries.ts";

const task = (id: string, taskStatus: number): TaskInfo => ({
  id,
  taskType: TaskType.ExportProducts,
  taskStatus,
  content: "",
  creationTime: "2026-01-01T00:00:00.000Z",
  creatorId: null,
  creatorName: null,
  lastUpdateTime: "2026-01-01T00:00:00.000Z",
  taskRemark: null,
  progress: taskStatus === TaskStatus.Succeeded ? 100 : 40,
});

let listed: TaskInfo[][];
let queries: unknown[];

beforeEach(() => {
  queries = [];
  vi.spyOn(api.tasks, "getTaskInfoByPage").mockImplementation((async (q: unknown) => {
    queries.push(q);
    const items = listed.length > 1 ? listed.shift()! : listed[0];
    return { totalCount: items.length, items };
  }) as never);
});
afterEach(() => vi.restoreAllMocks());

function renderTask(taskId: string | null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => useTask(TaskType.ExportProducts, taskId), { wrapper });
}

describe("isTaskDone", () => {
  it("is true for a succeeded, failed or cancelled task only", () => {
    expect([TaskStatus.Succeeded, TaskStatus.Failed, TaskStatus.Cancelled].map((s) => isTaskDone(task("t", s)))).toEqual([
      true,
      true,
      true,
    ]);
    expect([TaskStatus.Pending, TaskStatus.Running].map((s) => isTaskDone(task("t", s)))).toEqual([false, false]);
    expect(isTaskDone(null)).toBe(false);
  });
});

describe("useTask", () => {
  it("asks nothing without an id", () => {
    listed = [[]];
    const { result } = renderTask(null);
    expect(result.current.fetchStatus).toBe("idle");
    expect(queries).toEqual([]);
  });

  it("follows the task from not listed yet to its end, then stops asking", async () => {
    listed = [[task("other", TaskStatus.Running)], [task("t1", TaskStatus.Succeeded)]];
    const { result } = renderTask("t1");
    await waitFor(() => expect(queries).toHaveLength(1));
    expect(queries[0]).toMatchObject({ TaskType: TaskType.ExportProducts, Sorting: "creationTime desc" });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBeNull();
    await waitFor(() => expect(result.current.data?.taskStatus).toBe(TaskStatus.Succeeded), { timeout: 3000 });
    const asked = queries.length;
    await new Promise((r) => setTimeout(r, 1700));
    expect(queries).toHaveLength(asked);
  });
});
