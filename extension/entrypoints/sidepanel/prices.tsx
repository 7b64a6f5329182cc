// The panel's profit preview (loaded after the product's editable core): each site's price, proceeds and profit from
// the pre-flight of the product as stored, for the shop group and sites chosen in the publish section.
import type { PreflightResultView } from "../../../shared/contract/publish.ts";
import { formatMoney, type PriceBreakdown } from "../../../shared/publish/price.ts";
import { siteName, type PublishChoice } from "./publish.tsx";

export function SitePrices({
  preflight,
  choice,
  dirty,
}: {
  preflight: PreflightResultView | null;
  choice: PublishChoice | null;
  dirty: boolean;
}) {
  if (!choice) return <p className="muted small">选择下方的店铺后，显示各站点的定价与利润。</p>;
  if (dirty) return <p className="muted small">保存后按店铺定价规则重新计算各站点价格。</p>;
  if (!preflight) return <p className="muted small">计算各站点价格…</p>;
  return (
    <table className="prices" data-testid="panel-site-prices">
      <thead>
        <tr>
          <th>站点</th>
          <th>售价</th>
          <th>到手</th>
          <th>利润</th>
        </tr>
      </thead>
      <tbody>
        {preflight.pairs.map((p) => {
          const b = p.price as PriceBreakdown | null;
          const money = (minor: number) => (b ? `${formatMoney(minor, b.currency)}` : "—");
          return (
            <tr key={p.site} data-testid="panel-site-price" data-site={p.site}>
              <td>{siteName(p.site)}</td>
              <td>{b ? `${money(b.buyerPrice)} ${b.currency}` : "无法计算"}</td>
              <td>{b ? money(b.netProceeds) : "—"}</td>
              <td className={b && b.margin < 0 ? "neg" : ""} data-testid="panel-site-margin">
                {b ? `${money(b.margin)} (${b.marginPercent}%)` : "—"}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
