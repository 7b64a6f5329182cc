// Pure helpers of the task centre: every task type and status named, the list's URL state and its query, and which
// row offers 重试 or 下载.
import { describe, expect, it } from "vitest";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { canRetryTask, type TaskInfo } from "#shared/contract/tasks.ts";
import { readListState, writeListState } from "../../components/list/use-list-url-state.ts";
import { isTaskRunning, taskStatusLabel, taskTypeLabel } from "./labels.ts";
import { taskListSchema, toTaskQuery } from "./search-params.ts";
import { canDownload } from "./task-columns.tsx";

const ME = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
const OTHER = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

const task = (taskType: number, taskStatus: number, creatorId: string | null = ME): TaskInfo => ({
  id: "t1",
  taskType,
  taskStatus,
  content: "",
  creationTime: "2026-01-01T00:00:00.000Z",
  creatorId,
  creatorName: null,
  lastUpdateTime: "2026-01-01T00:00:00.000Z",
  taskRemark: null,
  progress: 0,
});

describe("labels", () => {
  it("names every task type and status in Chinese", () => {
    for (const type of Object.values(TaskType)) expect(taskTypeLabel(type)).not.toMatch(/^类型/);
    for (const status of Object.values(TaskStatus)) expect(taskStatusLabel(status)).not.toMatch(/^状态/);
    expect(taskTypeLabel(TaskType.ExportProducts)).toBe("导出商品");
    expect(taskTypeLabel(77)).toBe("类型 77");
    expect([TaskStatus.Pending, TaskStatus.Running, TaskStatus.Succeeded, TaskStatus.Failed].map(isTaskRunning)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe("URL state and query", () => {
  it("reads the filters, falls back on broken values and turns them into GetTaskInfoByPage's query", () => {
    const params = new URLSearchParams({ type: "7", status: "4", user: ME.toUpperCase(), from: "2026-03-01", to: "2026-03-02", page: "3" });
    const state = readListState(taskListSchema, params);
    expect(state).toMatchObject({ type: "7", status: "4", user: ME, page: 3, size: 20 });
    const q = toTaskQuery(state);
    expect(q).toMatchObject({ TaskType: 7, TaskStatus: 4, UserId: ME, Sorting: "creationTime desc", SkipCount: 40, MaxResultCount: 20 });
    expect(new Date(q.StartDate!).getTime()).toBe(new Date(2026, 2, 1).getTime());
    expect(new Date(q.EndDate!).getTime()).toBeGreaterThan(new Date(2026, 2, 2, 23, 59).getTime());

    const broken = readListState(
      taskListSchema,
      new URLSearchParams({ type: "99", status: "x", user: "me", from: "yesterday", size: "7" }),
    );
    expect(toTaskQuery(broken)).toEqual({ Sorting: "creationTime desc", SkipCount: 0, MaxResultCount: 20 });
    expect(writeListState(taskListSchema, new URLSearchParams(), broken).toString()).toBe("");
  });
});

describe("row actions", () => {
  it("offers 重试 only on a failed crawl or URL import", () => {
    expect(canRetryTask(task(TaskType.Collect, TaskStatus.Failed))).toBe(true);
    expect(canRetryTask(task(TaskType.ImportUrls, TaskStatus.Failed))).toBe(true);
    expect(canRetryTask(task(TaskType.Collect, TaskStatus.Succeeded))).toBe(false);
    expect(canRetryTask(task(TaskType.ExportProducts, TaskStatus.Failed))).toBe(false);
  });

  it("offers 下载 only on a finished export or 批量打单 the viewer started", () => {
    expect(canDownload(task(TaskType.ExportProducts, TaskStatus.Succeeded), ME)).toBe(true);
    expect(canDownload(task(TaskType.PrintLabels, TaskStatus.Succeeded), ME)).toBe(true);
    expect(canDownload(task(TaskType.PrintLabels, TaskStatus.Failed), ME)).toBe(false);
    expect(canDownload(task(TaskType.ExportProducts, TaskStatus.Succeeded, OTHER), ME)).toBe(false);
    expect(canDownload(task(TaskType.ExportProducts, TaskStatus.Running), ME)).toBe(false);
    expect(canDownload(task(TaskType.TranslateProducts, TaskStatus.Succeeded), ME)).toBe(false);
    expect(canDownload(task(TaskType.ExportProducts, TaskStatus.Succeeded), null)).toBe(false);
  });
});
