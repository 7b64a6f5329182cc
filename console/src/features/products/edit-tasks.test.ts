// The product list's bulk edit task strips (edit-tasks.ts): which tasks show, and for which the list refreshes.
import { describe, expect, it } from "vitest";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { TaskInfo } from "#shared/contract/tasks.ts";
import { editTaskStrips, tasksToRefreshFor } from "./edit-tasks.ts";

const opened = Date.parse("2026-11-29T02:00:00Z");
const task = (id: string, taskStatus: number, lastUpdate: string): TaskInfo => ({
  id,
  taskType: TaskType.BulkEditProducts,
  taskStatus,
  content: "调整价格：超过 5000 个商品，分批修改",
  creationTime: "2026-11-29T01:00:00Z",
  creatorId: "u",
  creatorName: "admin",
  lastUpdateTime: lastUpdate,
  taskRemark: null,
  progress: 40,
});

const running = task("running", TaskStatus.Running, "2026-11-29T01:59:00Z");
const queued = task("queued", TaskStatus.Pending, "2026-11-29T01:30:00Z");
const endedNow = task("ended-now", TaskStatus.Succeeded, "2026-11-29T02:00:05Z");
const partialNow = task("partial-now", TaskStatus.Failed, "2026-11-29T02:01:00Z");
const endedBefore = task("ended-before", TaskStatus.Succeeded, "2026-11-29T01:10:00Z");
const all = [running, queued, endedNow, partialNow, endedBefore];

describe("editTaskStrips", () => {
  it("shows the running and queued tasks, and those ended while the page was open, newest first as listed", () => {
    expect(editTaskStrips(all, opened, new Set()).map((t) => t.id)).toEqual(["running", "queued", "ended-now", "partial-now"]);
  });
  it("leaves out a task the seller closed, running or not", () => {
    expect(editTaskStrips(all, opened, new Set(["running", "partial-now"])).map((t) => t.id)).toEqual(["queued", "ended-now"]);
  });
  it("shows nothing when no task runs and none ended since the page opened (coming back later)", () => {
    expect(editTaskStrips([endedBefore], opened, new Set())).toEqual([]);
  });
});

describe("tasksToRefreshFor", () => {
  it("names each task that ended since the page opened, once", () => {
    expect(tasksToRefreshFor(all, opened, new Set())).toEqual(["ended-now", "partial-now"]);
    expect(tasksToRefreshFor(all, opened, new Set(["ended-now"]))).toEqual(["partial-now"]);
    expect(tasksToRefreshFor([running, queued, endedBefore], opened, new Set())).toEqual([]);
  });
});
