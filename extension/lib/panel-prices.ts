// The panel's profit preview rows: each site's price, proceeds and margin from the pre-flight of the product, and the
// pre-flight's margin warning (a loss, or under the shop's minimum margin: shared/publish/margin.ts), shown in red
// under the price as the console's pre-flight shows it.
import type { PreflightResultView } from "#shared/contract/publish.ts";
import { marginWarningOf } from "#shared/publish/margin.ts";
import { formatMoney, type PriceBreakdown } from "#shared/publish/price.ts";

export type SitePriceRow = {
  site: number;
  /** "514.99 MXN", or 无法计算 when the price cannot be computed. */
  price: string;
  net: string;
  margin: string;
  /** Red: a loss or a margin under the shop's minimum. */
  red: boolean;
  /** The pre-flight's margin warning, null when the margin is fine. */
  warning: string | null;
};

export function sitePriceRows(preflight: PreflightResultView): SitePriceRow[] {
  return preflight.pairs.map((p) => {
    const b = p.price as PriceBreakdown | null;
    const warning = marginWarningOf(p.problems);
    if (!b) return { site: p.site, price: "无法计算", net: "—", margin: "—", red: false, warning };
    const money = (minor: number) => formatMoney(minor, b.currency);
    return {
      site: p.site,
      price: `${money(b.buyerPrice)} ${b.currency}`,
      net: money(b.netProceeds),
      margin: `${money(b.margin)} (${b.marginPercent}%)`,
      red: b.margin < 0 || warning !== null,
      warning,
    };
  });
}
