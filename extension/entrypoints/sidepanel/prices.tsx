// The panel's profit preview (loaded after the product's editable core): each site's price, proceeds and profit from
// the pre-flight of the product as stored, for the shop group and sites chosen in the publish section; a loss or a
// margin under the shop's minimum in red, with the pre-flight's warning under the site's row.
import type { PreflightResultView } from "#shared/contract/publish.ts";
import { siteName } from "#shared/publish/sites.ts";
import { sitePriceRows } from "../../lib/panel-prices.ts";
import type { PublishChoice } from "./publish.tsx";

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
        {sitePriceRows(preflight).flatMap((r) => [
          <tr key={r.site} data-testid="panel-site-price" data-site={r.site}>
            <td>{siteName(r.site)}</td>
            <td>{r.price}</td>
            <td>{r.net}</td>
            <td className={r.red ? "neg" : ""} data-testid="panel-site-margin">
              {r.margin}
            </td>
          </tr>,
          r.warning ? (
            <tr key={`${r.site}-warning`}>
              <td colSpan={4} className="neg small" data-testid="panel-margin-warning" data-site={r.site}>
                {r.warning}
              </td>
            </tr>
          ) : null,
        ])}
      </tbody>
    </table>
  );
}
