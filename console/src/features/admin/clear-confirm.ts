import { parseLocalDate } from "../../lib/format.ts";

// What the host types in the tenants screen's dialogs. 清空数据 is confirmed by typing the tenant's name: exactly, after trimming (as the server compares it), so a
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

/** What the host pasted as a list (products' ids, sellers' ids): split on spaces, commas, semicolons and new lines, each once. */
export type TypedList = { items: string[]; problem: string | null };

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CUST_ID = /^[0-9A-Za-z_-]{1,40}$/;

function typedList(text: string, valid: (item: string) => boolean, max: number, what: string): TypedList {
  const items = [...new Set(text.split(/[\s,，;；、]+/).filter(Boolean))];
  const bad = items.find((i) => !valid(i));
  if (bad) return { items, problem: `${what}格式不正确：${bad.length > 40 ? `${bad.slice(0, 40)}…` : bad}` };
  if (items.length > max) return { items, problem: `${what}最多 ${max} 个，已填 ${items.length} 个` };
  return { items, problem: null };
}

/** Products' ids (GUIDs, read in lower case), at most 1,000 (MigrateToProduct / MigrateFromProduct). */
export const productIdList = (text: string) => typedList(text.toLowerCase(), (i) => GUID.test(i), 1000, "商品ID");

/** Sellers' ids (custId) a shop migration leaves alone, at most 500 (MigrateAccount / RemoveMeliAccount protectedCustIds). */
export const custIdList = (text: string) => typedList(text, (i) => CUST_ID.test(i), 500, "卖家ID");
