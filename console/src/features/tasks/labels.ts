// The task centre's words: each task type and status in Chinese, and which statuses are still moving.
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { taskStatusLabels, type BadgeTone } from "../../lib/labels.ts";

export { taskStatusLabel } from "../../lib/labels.ts";

const taskTypeLabels: Record<number, string> = {
  [TaskType.Collect]: "商品采集",
  [TaskType.ImportUrls]: "导入链接",
  [TaskType.Publish]: "发布商品",
  [TaskType.SyncListings]: "同步在线商品",
  [TaskType.BatchUpdateListings]: "批量修改在线商品",
  [TaskType.TranslateProducts]: "翻译商品",
  [TaskType.ExportProducts]: "导出商品",
  [TaskType.ScreenInfringement]: "侵权词筛查",
  [TaskType.SyncCategories]: "同步类目",
  [TaskType.SyncOrders]: "同步订单",
  [TaskType.PullFreight]: "拉取运费",
  [TaskType.ClearSubAccountInfo]: "清除子账号数据",
  [TaskType.CopyBetweenTenants]: "跨账号复制",
  [TaskType.ExportWalletLogs]: "导出钱包记录",
  [TaskType.BulkEditProducts]: "批量修改商品",
  [TaskType.PrintLabels]: "批量打单",
  [TaskType.ExportPurchaseList]: "导出采购单",
  [TaskType.MigrateAccount]: "账号迁移",
  [TaskType.PurgeDeletedProducts]: "清理已删除商品",
  [TaskType.Maintenance]: "系统维护",
};

export const taskTypeLabel = (type: number) => taskTypeLabels[type] ?? `类型 ${type}`;

export const taskStatusTones: Record<number, BadgeTone> = {
  [TaskStatus.Pending]: "secondary",
  [TaskStatus.Running]: "default",
  [TaskStatus.Succeeded]: "success",
  [TaskStatus.Failed]: "destructive",
  [TaskStatus.Cancelled]: "outline",
};

/** Waiting or running: the list asks again until none on the page is. */
export const isTaskRunning = (status: number) => status === TaskStatus.Pending || status === TaskStatus.Running;

const options = (labels: Record<number, string>) => Object.entries(labels).map(([value, label]) => ({ value: Number(value), label }));
export const taskTypeOptions = options(taskTypeLabels);
export const taskStatusOptions = options(taskStatusLabels);
