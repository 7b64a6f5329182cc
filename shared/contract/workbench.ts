// The workbench's figures (spec §2 /dashboard/wrokbench; the spec lists no call for them, see docs/decisions.md): KPI
// cards and daily trends over the last `Days` UTC days, each area contributing what it owns.
import { z } from "zod";
import { queryInt } from "./common.ts";

const WORKBENCH_MIN_DAYS = 7;
const WORKBENCH_MAX_DAYS = 90;
const WORKBENCH_DEFAULT_DAYS = 14;

export const getWorkbenchInfoQuery = z.object({
  /** How many UTC days the trends cover, today included (7 to 90, default 14). */
  Days: queryInt(WORKBENCH_MIN_DAYS, WORKBENCH_MAX_DAYS).default(WORKBENCH_DEFAULT_DAYS),
});

const workbenchCard = z.object({
  /** Stable per figure (e.g. "subAccounts", "tasks"), for tests and the console's icons. */
  key: z.string(),
  title: z.string(),
  value: z.number(),
  /** A line under the value, e.g. "启用 3 · 停用 1". */
  hint: z.string().nullable().optional(),
});
export type WorkbenchCard = z.infer<typeof workbenchCard>;

const workbenchPoint = z.object({
  /** A UTC day, YYYY-MM-DD. */
  date: z.string(),
  value: z.number(),
});
export type WorkbenchPoint = z.infer<typeof workbenchPoint>;

const workbenchTrend = z.object({
  key: z.string(),
  title: z.string(),
  /** One point per day of the window, oldest first; days without events are 0. */
  points: z.array(workbenchPoint),
});
export type WorkbenchTrend = z.infer<typeof workbenchTrend>;

export const workbenchInfo = z.object({ cards: z.array(workbenchCard), trends: z.array(workbenchTrend) });
export type WorkbenchInfo = z.infer<typeof workbenchInfo>;
