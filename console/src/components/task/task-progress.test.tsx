// @vitest-environment happy-dom
// A long task followed from the screen that started it, in its two shapes: the strip above a list (拉取订单, a listing
// batch) and the dialog (an export). The task comes through the real task query (lib/task-queries.ts); a change of
// the task is announced as the event stream does it, by invalidating the task queries.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { TaskInfo } from "#shared/contract/tasks.ts";
import { api } from "../../lib/feature-api.ts";
import { taskKeys } from "../../lib/task-queries.ts";
import { ExportTaskDialog, taskState, TaskProgressStrip, useTaskProgress, type TaskDownload } from "./task-progress.tsx";

const task = (taskStatus: number, progress: number, taskRemark: string | null = null): TaskInfo => ({
  id: "t1",
  taskType: TaskType.BatchUpdateListings,
  taskStatus,
  content: "",
  creationTime: "2026-01-01T00:00:00.000Z",
  creatorId: null,
  creatorName: null,
  lastUpdateTime: "2026-01-01T00:00:00.000Z",
  taskRemark,
  progress,
});

/** What the task centre lists now (null: not yet). */
let current: TaskInfo | null;
let client: QueryClient;

beforeEach(() => {
  current = null;
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  vi.spyOn(api.tasks, "getTaskInfoByPage").mockImplementation((async () => ({
    totalCount: current ? 1 : 0,
    items: current ? [current] : [],
  })) as never);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const wrap = (ui: ReactNode) => render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);

/** The task changes on the server and the stream says so. */
async function announce(t: TaskInfo) {
  current = t;
  await act(() => client.invalidateQueries({ queryKey: taskKeys.all }));
}

function Strip({ onClose }: { onClose: () => void }) {
  const state = useTaskProgress("t1", TaskType.BatchUpdateListings);
  return (
    <TaskProgressStrip
      state={state}
      label="改价"
      pendingText="共 10 条，排队中…"
      testId="listing-task"
      taskId="t1"
      onClose={onClose}
      actions={<a href="/task/list">任务中心</a>}
    />
  );
}

describe("taskState", () => {
  it("puts a succeeded task at 100, keeps the percent within 0..100, and counts a cancelled task as not succeeded", () => {
    expect(taskState(task(TaskStatus.Succeeded, 80)).progress).toBe(100);
    expect(taskState(task(TaskStatus.Running, 140)).progress).toBe(100);
    expect(taskState(task(TaskStatus.Running, -5)).progress).toBe(0);
    expect(taskState(null)).toEqual({ task: null, done: false, succeeded: false, failed: false, progress: 0 });
    expect(taskState(task(TaskStatus.Cancelled, 30))).toMatchObject({ done: true, succeeded: false, failed: true });
    expect(taskState(task(TaskStatus.Running, 30))).toMatchObject({ done: false, failed: false, progress: 30 });
  });
});

describe("TaskProgressStrip", () => {
  it("says it is queued until listed, follows the remark and percent, and a partial end says partial and what is missing", async () => {
    const onClose = vi.fn();
    wrap(<Strip onClose={onClose} />);
    const strip = screen.getByTestId("listing-task");
    const remark = screen.getByTestId("listing-task-remark");
    await waitFor(() => expect(api.tasks.getTaskInfoByPage).toHaveBeenCalled());
    expect(remark.textContent).toBe("共 10 条，排队中…");
    expect(strip.dataset.status).toBe("0");
    expect(strip.dataset.task).toBe("t1");
    expect(screen.getByRole("link", { name: "任务中心" })).toBeTruthy();

    await announce(task(TaskStatus.Running, 40, "改价进行中：成功 4，失败 0，未变化 0，共 10"));
    await waitFor(() => expect(strip.dataset.progress).toBe("40"));
    expect(remark.textContent).toContain("成功 4");
    expect(screen.getByRole("progressbar", { name: "改价进度" }).getAttribute("aria-valuenow")).toBe("40");
    expect(strip.querySelector(".animate-spin")).not.toBeNull();

    // A batch that ended with some listings refused is Failed, its remark saying 部分完成 with the counts.
    await announce(task(TaskStatus.Failed, 100, "改价部分完成：成功 8，失败 2，未变化 0，共 10"));
    await waitFor(() => expect(strip.dataset.status).toBe(String(TaskStatus.Failed)));
    expect(remark.textContent).toBe("改价部分完成：成功 8，失败 2，未变化 0，共 10");
    expect(remark.className).toContain("text-destructive");
    expect(strip.querySelector(".animate-spin")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "关闭进度" }));
    expect(onClose).toHaveBeenCalledOnce();
  });
});

const openExport = (title: string, testId: string, download: TaskDownload, onClose: () => void) =>
  wrap(
    <ExportTaskDialog
      taskId="t1"
      taskType={TaskType.ExportProducts}
      {...{ title, testId, download, onClose }}
      description="导出在后台进行"
    />,
  );

describe("ExportTaskDialog", () => {
  it("runs in the background until done, then offers the file under the name the task gave", async () => {
    const mutate = vi.fn();
    const download: TaskDownload = { isPending: false, mutate };
    const onClose = vi.fn();
    current = task(TaskStatus.Running, 30, "已导出 300 条");
    openExport("正在导出钱包记录", "wallet-export", download, onClose);
    const progress = await screen.findByTestId("wallet-export-progress");
    await waitFor(() => expect(progress.dataset.progress).toBe("30"));
    expect(screen.getByTestId("wallet-export-progress-dialog")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "正在导出钱包记录" })).toBeTruthy();
    expect(screen.getByTestId("wallet-export-progress-status").textContent).toBe("进行中");
    expect(screen.queryByTestId("wallet-export-download")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "后台运行" }));
    expect(onClose).toHaveBeenCalledOnce();

    await announce(task(TaskStatus.Succeeded, 99, "钱包记录.xlsx"));
    await waitFor(() => expect(progress.dataset.progress).toBe("100"));
    expect(screen.getByRole("heading", { name: "导出完成" })).toBeTruthy();
    fireEvent.click(screen.getByTestId("wallet-export-download"));
    expect(mutate).toHaveBeenCalledWith({ taskId: "t1", taskRemark: "钱包记录.xlsx" }, expect.anything());
    // The footer's 后台运行 has become 关闭 (beside the dialog's own close button).
    expect(screen.queryByRole("button", { name: "后台运行" })).toBeNull();
    expect(screen.getAllByRole("button", { name: "关闭" })).toHaveLength(2);
  });

  it("says the export failed, with the task's reason, and offers no file", async () => {
    current = task(TaskStatus.Failed, 60, "导出失败：文件过大");
    openExport("正在导出", "products-export", { isPending: false, mutate: vi.fn() }, () => {});
    expect(await screen.findByRole("heading", { name: "导出失败" })).toBeTruthy();
    const remark = screen.getByTestId("products-export-progress-remark");
    expect(remark.textContent).toBe("导出失败：文件过大");
    expect(remark.className).toContain("text-destructive");
    expect(screen.getByTestId("products-export-progress").dataset.progress).toBe("60");
    expect(screen.queryByTestId("products-export-download")).toBeNull();
  });
});
