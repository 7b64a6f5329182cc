import { parseLocalDate } from "../../lib/format.ts";

// 清空数据 is confirmed by typing the tenant's name: exactly, after trimming (as the server compares it), so a
// near miss (another tenant's name, a different case) never clears anything.
export const confirmsTenantName = (typed: string, tenantName: string) => typed.trim() !== "" && typed.trim() === tenantName;

/** 恢复已删除商品 over whole local days: from the first day's start to the end of the last (the call's end is exclusive). */
export function deletionRange(firstDay: string, lastDay: string): { startTime: string; endTime: string } | null {
  const start = parseLocalDate(firstDay);
  const end = parseLocalDate(lastDay);
  if (!start || !end || end < start) return null;
  end.setDate(end.getDate() + 1);
  return { startTime: start.toISOString(), endTime: end.toISOString() };
}
