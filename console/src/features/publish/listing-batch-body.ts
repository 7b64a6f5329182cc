// The listing centre's batch actions as call bodies: which listings (the rows ticked by hand, or the list's filter) and
// the dialog's fields, checked here so a wrong value is said in the dialog, never sent. An answer that is a string is
// the message to show.
import { BATCH_IMAGES_MAX } from "#shared/contract/listing-edits.ts";
import type { BatchEdit } from "./api/listings.ts";
import type { ListingTableRow } from "./listing-columns.tsx";
import type { ListingListFilter } from "./listing-search-params.ts";

export type ListingBatchAction = "price" | "meliPrice" | "stock" | "title" | "description" | "weight" | "image" | "up" | "down" | "sync";

/** The listings an action reaches: rows ticked by hand, or the filter's; `rows` are those of them known on screen. */
export type ListingTarget =
  | { kind: "ids"; ids: string[]; rows: ListingTableRow[] }
  | { kind: "filter"; filter: ListingListFilter; count: number; capped: boolean; rows: ListingTableRow[] };

/** What the dialog holds: the price mode, the number typed, the text (title, description, picture links) and a size. */
export type BatchFields = { mode: "fixed" | "ratio"; value: string; text: string; size: string };

export function countOf(t: ListingTarget) {
  return t.kind === "ids" ? { count: t.ids.length, capped: false } : { count: t.count, capped: t.capped };
}

/** A price changed by a percentage, to cents. */
export const byPercent = (price: number, percent: number) => Math.round(price * (1 + percent / 100) * 100) / 100;

const selectionOf = (t: ListingTarget) => (t.kind === "ids" ? { ids: [...t.ids] } : { filter: { ...t.filter } });

export function batchEditOf(action: ListingBatchAction, target: ListingTarget, f: BatchFields): BatchEdit | string {
  const sel = selectionOf(target);
  const number = Number(f.value.trim());
  const validNumber = f.value.trim() !== "" && Number.isFinite(number);
  switch (action) {
    case "price": {
      if (f.mode === "fixed") return validNumber && number > 0 ? { edit: "price", body: { ...sel, price: number } } : "请输入大于0的价格";
      if (!validNumber || number <= -100) return "请输入调整比例（大于 -100%）";
      // Each ticked row gets its own price from its current one (sent as `prices`): every row must be known, with a price.
      if (target.kind !== "ids") return "按比例调价需勾选刊登";
      const byId = new Map(target.rows.map((r) => [r.id, r]));
      const prices = target.ids.map((id) => ({ id, current: byId.get(id)?.price ?? null }));
      if (prices.some((x) => x.current === null)) return "按比例调价需要所选刊登都有价格";
      const next = prices.map((x) => ({ id: x.id, price: byPercent(x.current!, number) }));
      if (next.some((x) => x.price <= 0)) return "调整后的价格须大于0";
      return { edit: "price", body: { ids: next.map((x) => x.id), price: next[0].price, prices: next } };
    }
    case "meliPrice":
      if (f.value.trim() && (!validNumber || number < 0)) return "最低价格式不正确";
      return { edit: "meliPrice", body: { ...sel, limitMinPrice: f.value.trim() ? number : null } };
    case "stock":
      return validNumber && Number.isInteger(number) && number >= 0 && number <= 99_999
        ? { edit: "stock", body: { ...sel, stock: number } }
        : "库存须为 0–99999 的整数";
    case "title":
      return f.text.trim() ? { edit: "title", body: { ...sel, title: f.text.trim() } } : "请输入标题";
    case "description":
      return f.text.trim() ? { edit: "description", body: { ...sel, description: f.text } } : "请输入描述";
    case "weight": {
      if (!validNumber || !Number.isInteger(number) || number <= 0) return "重量须为大于0的整数（克）";
      const dims = f.size.trim().toLowerCase().replace(/[×*]/g, "x");
      if (dims && !/^\d+x\d+x\d+$/.test(dims)) return "尺寸格式为 长x宽x高（整数厘米），如 20x15x10";
      return { edit: "weight", body: { ...sel, weight: number, size: dims || null } };
    }
    case "image": {
      const images = [...new Set(f.text.split(/\s+/).filter(Boolean))];
      if (!images.length) return "请输入图片链接，每行一个";
      if (images.length > BATCH_IMAGES_MAX) return `最多 ${BATCH_IMAGES_MAX} 张图片`;
      if (images.some((u) => !/^https?:\/\//i.test(u))) return "图片链接须以 http:// 或 https:// 开头";
      return { edit: "image", body: { ...sel, images } };
    }
    case "up":
    case "down":
    case "sync":
      return { edit: action, body: sel };
  }
}
