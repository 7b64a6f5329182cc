// What the collection screens call the server's numbers (shared/contract/enums.ts; the source platforms: lib/labels.ts):
// the status of a collected product, of a collection task and of a queued URL; and the crawler's messages in Chinese.
import { CollectStatus, InfringementRuleType, TaskStatus } from "#shared/contract/enums.ts";
import type { BadgeTone } from "../../lib/labels.ts";

const collectStatusLabels: Record<number, string> = {
  [CollectStatus.Collected]: "待处理",
  [CollectStatus.Migrated]: "已导入产品库",
  [CollectStatus.Ignored]: "已忽略",
};

export const collectStatusTones: Record<number, BadgeTone> = {
  [CollectStatus.Collected]: "default",
  [CollectStatus.Migrated]: "success",
  [CollectStatus.Ignored]: "secondary",
};

export const collectStatusLabel = (status: number) => collectStatusLabels[status] ?? `状态 ${status}`;
export const collectStatusOptions = Object.values(CollectStatus).map((value) => ({ value, label: collectStatusLabel(value) }));

/**
 * A collection task's state as shown: the server's TaskStatus, except that a failed task whose page was a login or
 * captcha page ("blocked: …") is shown as 已拦截 (a final state; trying again soon will not help).
 */
export type TaskView = "pending" | "running" | "succeeded" | "failed" | "blocked" | "cancelled" | "unknown";

export function taskView(taskStatus: number, message: string | null | undefined): TaskView {
  switch (taskStatus) {
    case TaskStatus.Pending:
      return "pending";
    case TaskStatus.Running:
      return "running";
    case TaskStatus.Succeeded:
      return "succeeded";
    case TaskStatus.Failed:
      return isBlockedMessage(message) ? "blocked" : "failed";
    case TaskStatus.Cancelled:
      return "cancelled";
    default:
      return "unknown";
  }
}

export const taskViewLabels: Record<TaskView, string> = {
  pending: "等待中",
  running: "采集中",
  succeeded: "成功",
  failed: "失败",
  blocked: "已拦截",
  cancelled: "已取消",
  unknown: "未知",
};

export const taskViewTones: Record<TaskView, BadgeTone> = {
  pending: "secondary",
  running: "default",
  succeeded: "success",
  failed: "destructive",
  blocked: "warning",
  cancelled: "outline",
  unknown: "outline",
};

/** Still on its way: the lists showing it refresh themselves until it has finished. */
export const isUnfinished = (status: number) => status === TaskStatus.Pending || status === TaskStatus.Running;

/** The task status filter (the server's TaskStatus values). */
export const taskStatusOptions = [
  { value: TaskStatus.Pending, label: "等待中" },
  { value: TaskStatus.Running, label: "采集中" },
  { value: TaskStatus.Succeeded, label: "成功" },
  { value: TaskStatus.Failed, label: "失败（含已拦截）" },
  { value: TaskStatus.Cancelled, label: "已取消" },
];

/** A queued URL's status (AquiredUrl: 1-4, the TaskStatus values). */
export const urlStatusOptions = [
  { value: TaskStatus.Pending, label: "等待中" },
  { value: TaskStatus.Running, label: "采集中" },
  { value: TaskStatus.Succeeded, label: "成功" },
  { value: TaskStatus.Failed, label: "失败" },
];

export const infringementRuleLabels: Record<number, string> = {
  [InfringementRuleType.Contains]: "包含匹配（标题中出现即命中，不区分大小写）",
  [InfringementRuleType.WholeWord]: "整词匹配（英文按完整单词匹配，不区分大小写）",
};

// ---------------------------------------------------------------------------------------------------------------
// The crawler's messages. Most are Chinese already; the fetch errors inside "采集失败：…" and the blocked states are
// technical English, put into words here (the original stays available as the cell's tooltip).

const isBlockedMessage = (message: string | null | undefined) => !!message && /^blocked\b/i.test(message.trim());

const blockedTexts: Record<string, string> = {
  captcha: "已拦截：来源网站要求验证码（滑块验证），请稍后重试或使用浏览器插件采集",
  login: "已拦截：来源网站要求登录，请在已登录的浏览器中使用插件采集",
};

const fetchErrors: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^refused: (.*)$/i, () => "目标地址不允许访问（内网或受限地址）"],
  [/^(timeout|no complete answer within (\d+) ms)$/i, () => "请求超时"],
  [/^host (.+) not found$/i, (m) => `域名 ${m[1]} 无法解析`],
  [/^HTTP (\d{3})$/i, (m) => `来源网站返回 HTTP ${m[1]}`],
  [/^(network error|connection error|bad response body)(: .*)?$/i, () => "网络错误，无法连接来源网站"],
  [/^response larger than (\d+) bytes$/i, () => "页面过大"],
  [/^not a web page \((.*)\)$/i, (m) => `链接不是网页（${m[1]}）`],
  [/^more than (\d+) redirects$/i, (m) => `重定向次数过多（超过 ${m[1]} 次）`],
  [/^redirect to an invalid URL$/i, () => "重定向到无效地址"],
];

/** A task or queue message in Chinese; unknown text is shown as it is. */
export function taskMessageText(message: string | null | undefined): string {
  if (!message) return "";
  const text = message.trim();
  const blocked = /^blocked:\s*(\w+)/i.exec(text);
  if (blocked) return blockedTexts[blocked[1].toLowerCase()] ?? `已拦截：${blocked[1]}`;
  const failed = /^采集失败：(.*?)(，(\d+) 秒后重试.*)?$/.exec(text);
  if (failed) {
    const reason = translateFetchError(failed[1]);
    return `采集失败：${reason}${failed[2] ?? ""}`;
  }
  return text;
}

function translateFetchError(reason: string): string {
  for (const [re, to] of fetchErrors) {
    const m = re.exec(reason.trim());
    if (m) return to(m);
  }
  return reason;
}
