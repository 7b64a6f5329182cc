// Names the screens show for the server's numbers that several areas use: the badge tones, the source platforms and the
// task statuses.
import { PlatformType, TaskStatus } from "#shared/contract/enums.ts";
import { platformNames } from "#shared/contract/names.ts";

export type BadgeTone = "default" | "secondary" | "success" | "warning" | "destructive" | "outline";

export const platformLabel = (type: number) => platformNames[type] ?? `平台 ${type}`;

/** The platforms in menu order. */
export const platformOptions = Object.values(PlatformType).map((value) => ({ value, label: platformLabel(value) }));

/** A task's status (the task centre, and every screen following a task it started). */
export const taskStatusLabels: Record<number, string> = {
  [TaskStatus.Pending]: "排队中",
  [TaskStatus.Running]: "进行中",
  [TaskStatus.Succeeded]: "已完成",
  [TaskStatus.Failed]: "失败",
  [TaskStatus.Cancelled]: "已取消",
};

export const taskStatusLabel = (status: number) => taskStatusLabels[status] ?? `状态 ${status}`;
