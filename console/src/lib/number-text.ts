// A number typed into a form as text, read by a zod schema with Chinese messages (bulk edits, the product editor,
// pricing rules).
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
