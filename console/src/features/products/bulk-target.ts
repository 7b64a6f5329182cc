// Which products a bulk action works on: the rows chosen by hand (any page), or every product matching the list's
// filter. Every bulk edit takes the contract's selection: {productIds} for the first, {filter} for the second.
import { MAX_PAGE_SIZE } from "#shared/contract/common.ts";
import type { ProductListFilter } from "./search-params.ts";

export type BulkTarget = { kind: "ids"; ids: string[] } | { kind: "filter"; filter: ProductListFilter };

export type SelectionBody = { productIds: string[] } | { filter: ProductListFilter };

/** The most rows chosen by hand one edit takes (the calls' id limit); beyond it, "all matching" is the way. */
export const MAX_SELECTED_IDS = MAX_PAGE_SIZE;

/** The selection part of a bulk edit's body. */
export function selectionBody(t: BulkTarget): SelectionBody {
  return t.kind === "ids" ? { productIds: [...t.ids] } : { filter: { ...t.filter } };
}

/** A bulk edit's body: its own fields plus the selection (exactly one way of selecting). */
export function bulkBody<T extends object>(t: BulkTarget, fields: T): T & SelectionBody {
  return { ...fields, ...selectionBody(t) };
}

/** "10,000+" for a capped total, else the number with separators. */
export const countText = (n: number, capped = false) => `${n.toLocaleString("zh-CN")}${capped ? "+" : ""}`;
