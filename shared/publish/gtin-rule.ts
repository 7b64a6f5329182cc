// When a listing's GTIN requirement is met (Mercado Libre's identificadores-de-productos: a category's GTIN attribute
// tagged `required` must always be given; tagged `conditional_required`, a GTIN comes first, and without one the item
// says why in EMPTY_GTIN_REASON). The one rule the pre-flight, the publisher (through the pre-flight's gtinNeeded),
// the console's publish form and the extension's side panel follow.
import type { CategoryAttribute } from "../contract/category.ts";

export const EMPTY_GTIN_REASON = "EMPTY_GTIN_REASON";

/**
 * The documented reasons for an item without GTIN (the value ids of EMPTY_GTIN_REASON, the same on every site), with
 * the Chinese a seller reads; in the order a seller of collected goods most often picks them.
 */
export const EMPTY_GTIN_REASONS: readonly { id: string; zh: string; es: string }[] = [
  { id: "17055160", zh: "商品没有注册条码", es: "No registrado" },
  { id: "17055159", zh: "套装/组合商品", es: "Kit" },
  { id: "17055158", zh: "手工/定制商品", es: "Artesanal" },
  { id: "17055161", zh: "其他原因", es: "Otro" },
];

/** The Chinese name of a reason's value id, or null for another id. */
export const emptyGtinReasonZh = (valueId: string | null | undefined) => EMPTY_GTIN_REASONS.find((r) => r.id === valueId)?.zh ?? null;

/** How a category asks for a GTIN: not at all, always, or unless EMPTY_GTIN_REASON says why there is none. */
export type GtinRule = "none" | "required" | "conditional";

export function gtinRuleOf(attributes: readonly CategoryAttribute[]): GtinRule {
  const gtin = attributes.find((a) => a.id === "GTIN");
  if (!gtin) return "none";
  if (gtin.isRequired || gtin.tags.includes("required")) return "required";
  return gtin.tags.includes("conditional_required") ? "conditional" : "none";
}

/** Whether the category takes EMPTY_GTIN_REASON in place of a GTIN. */
export const takesGtinReason = (attributes: readonly CategoryAttribute[]) =>
  gtinRuleOf(attributes) === "conditional" && attributes.some((a) => a.id === EMPTY_GTIN_REASON);

/**
 * How many codes the GTIN pool gives a listing: one per variant without a GTIN of its own (one for a plain item without
 * a GTIN value), none when the category asks no GTIN or the item says why it has none.
 */
export function gtinCodesNeeded(
  attributes: readonly CategoryAttribute[],
  variants: readonly { gtin?: string | null }[],
  given: ReadonlySet<string>,
): number {
  const rule = gtinRuleOf(attributes);
  if (rule === "none" || (rule === "conditional" && given.has(EMPTY_GTIN_REASON))) return 0;
  if (variants.length > 0) return variants.filter((v) => !v.gtin?.trim()).length;
  return given.has("GTIN") ? 0 : 1;
}

/** The pre-flight's problem when the pool cannot give the codes a listing needs (its field names what else fixes it). */
export const GTIN_SHORTAGE = "gtin.shortage";

/** Whether a pre-flight problem can be fixed by choosing an EMPTY_GTIN_REASON (the side panel's and console's field). */
export const fixedByGtinReason = (problem: { code: string; field: string | null }) =>
  problem.code === GTIN_SHORTAGE && problem.field === `attributes.${EMPTY_GTIN_REASON}`;
