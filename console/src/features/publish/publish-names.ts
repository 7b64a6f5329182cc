// What the publish screens call things: batch and listing states with their badge tones, sites, and the pre-flight
// result as table rows (the problems with where to fix them, the money of the price breakdown in its currency).
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import { listingStatusNames, publishBatchStatusNames } from "#shared/contract/names.ts";
import type { PreflightPairView } from "#shared/contract/publish.ts";
import { marginWarningOf } from "#shared/publish/margin.ts";
import { formatMoney, type PriceBreakdown } from "#shared/publish/price.ts";
import type { BadgeTone } from "../../lib/labels.ts";

export { siteName } from "#shared/publish/sites.ts";

export const batchStatusLabel = (s: number) => publishBatchStatusNames[s] ?? `状态 ${s}`;
export const batchStatusTones: Record<number, BadgeTone> = {
  [PublishBatchStatus.Queued]: "secondary",
  [PublishBatchStatus.Running]: "default",
  [PublishBatchStatus.Succeeded]: "success",
  [PublishBatchStatus.PartlySucceeded]: "warning",
  [PublishBatchStatus.Failed]: "destructive",
};
export const batchStatusOptions = Object.values(PublishBatchStatus).map((value) => ({ value, label: batchStatusLabel(value) }));

export const listingStatusLabel = (s: number) => listingStatusNames[s] ?? `状态 ${s}`;
export const listingStatusTones: Record<number, BadgeTone> = {
  [ListingStatus.Pending]: "secondary",
  [ListingStatus.Publishing]: "default",
  [ListingStatus.Active]: "success",
  [ListingStatus.Paused]: "outline",
  [ListingStatus.Closed]: "outline",
  [ListingStatus.UnderReview]: "warning",
  [ListingStatus.Refused]: "destructive",
  [ListingStatus.Failed]: "destructive",
  [ListingStatus.Skipped]: "warning",
};

/** Where a problem is repaired (the pre-flight's `fix`): the product, one attribute of the form, the GTIN pool, … */
export type FixTarget =
  | { kind: "product" }
  | { kind: "attribute"; id: string }
  | { kind: "gtin" }
  | { kind: "shop" }
  | { kind: "category" }
  | { kind: "settings" }
  | { kind: "request" }
  | null;

export function fixTarget(fix: string | null | undefined): FixTarget {
  if (!fix) return null;
  if (fix.startsWith("attribute:")) return { kind: "attribute", id: fix.slice("attribute:".length) };
  if (fix === "product" || fix === "gtin" || fix === "shop" || fix === "category" || fix === "settings" || fix === "request")
    return { kind: fix };
  return null;
}

/** The hint shown with a problem: what the seller does to repair it. */
export const fixHints: Record<Exclude<FixTarget, null>["kind"], string> = {
  product: "编辑商品",
  attribute: "填写属性",
  gtin: "在GTIN码池中添加编码",
  shop: "在店铺列表修改定价规则",
  category: "更换类目",
  settings: "在汇率设置中补充汇率",
  request: "修改刊登设置",
};

export type PreviewMoney = {
  currency: string;
  price: string;
  buyerPrice: string;
  cost: string;
  fees: string;
  freight: string;
  net: string;
  margin: string;
  marginPercent: string;
  negative: boolean;
  limit: PriceBreakdown["limit"];
};

/** The breakdown's money as the preview shows it (formatMoney of shared/publish/price.ts: the same rounding). */
export function previewMoney(price: unknown): PreviewMoney | null {
  if (!price || typeof price !== "object") return null;
  const p = price as PriceBreakdown;
  const m = (minor: number) => formatMoney(minor, p.currency);
  return {
    currency: p.currency,
    price: m(p.price),
    buyerPrice: m(p.buyerPrice),
    cost: m(p.cost),
    fees: m(p.saleFee + p.fixedFee + p.listingFee),
    freight: m(p.freight),
    net: m(p.netProceeds),
    margin: m(p.margin),
    marginPercent: `${p.marginPercent}%`,
    negative: p.margin < 0,
    limit: p.limit,
  };
}

export type PreviewRow = PreflightPairView & {
  key: string;
  errors: PreflightPairView["problems"];
  warnings: PreflightPairView["problems"];
  money: PreviewMoney | null;
  /** The pre-flight's margin warning (a loss, or under the shop's minimum; shared/publish/margin.ts), shown in red. */
  marginWarning: string | null;
};

/** The pre-flight's pairs as rows: refused first (what needs the seller), then by product and site as answered. */
export function previewRows(pairs: PreflightPairView[]): PreviewRow[] {
  return pairs
    .map((p, i) => ({
      ...p,
      key: `${p.productId}:${p.site}`,
      errors: p.problems.filter((x) => x.severity === "error"),
      warnings: p.problems.filter((x) => x.severity === "warning"),
      money: previewMoney(p.price),
      marginWarning: marginWarningOf(p.problems),
      order: i,
    }))
    .sort((a, b) => Number(a.ok) - Number(b.ok) || a.order - b.order)
    .map(({ order: _order, ...row }) => row);
}

/** The attributes a refused pair lacks, per site: the form marks them. */
export function missingAttributes(pairs: PreflightPairView[]): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const p of pairs)
    for (const x of p.problems) {
      const t = fixTarget(x.fix);
      if (t?.kind !== "attribute" || x.severity !== "error") continue;
      const set = out.get(p.site) ?? new Set<string>();
      set.add(t.id);
      out.set(p.site, set);
    }
  return out;
}
