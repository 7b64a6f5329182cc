// Numbers and sizes typed into a form as text, read by zod schemas with Chinese messages: the console's editor and bulk
// edits and the extension's side panel check a product's fields the same way.
import { z } from "zod";

export type NumberRule = { min: number; max: number; decimals?: number; required?: boolean; negative?: boolean; below?: number };

/** A number typed as text: blank is null (or "请输入…" when required); otherwise within the rule. */
export function numberText(label: string, r: NumberRule) {
  const decimals = r.decimals ?? 2;
  const fraction = decimals > 0 ? `(\\.\\d{1,${decimals}})?` : "";
  const pattern = new RegExp(`^${r.negative ? "-?" : ""}\\d+${fraction}$`);
  const kind = decimals > 0 ? `数字，最多${decimals}位小数` : "整数";
  return z
    .string()
    .trim()
    .refine((s) => !r.required || s !== "", `请输入${label}`)
    .refine((s) => s === "" || pattern.test(s), `${label}请输入${r.negative ? "" : "不小于0的"}${kind}`)
    .refine((s) => s === "" || !pattern.test(s) || (Number(s) >= r.min && Number(s) <= r.max), `${label}应在 ${r.min} 到 ${r.max} 之间`)
    .refine((s) => s === "" || r.below === undefined || Number(s) < r.below, `${label}应小于 ${r.below}`)
    .transform((s) => (s === "" ? null : Number(s)));
}

const SIZE = /^\d+(\.\d+)?\s*[xX*×]\s*\d+(\.\d+)?\s*[xX*×]\s*\d+(\.\d+)?$/;

/** Length x width x height in centimetres as typed; blank is null. */
export const sizeText = z
  .string()
  .trim()
  .refine((s) => s === "" || SIZE.test(s), "尺寸格式为 长x宽x高（厘米），如 30x20x10")
  .refine((s) => s === "" || s.split(/\s*[xX*×]\s*/).every((n) => Number(n) <= 10_000), "每边最多 10000 厘米")
  .transform((s) => (s === "" ? null : s.replace(/\s*[xX*×]\s*/g, "x")));
