// The size chart of a local site's fashion category (its attributes have SIZE_GRID_ID), as the console's publish screen
// asks it (console size-chart-field.tsx): one of the shop group's charts of the site, read through the worker
// (同步尺码表 pulls the group's charts of the category from Mercado Libre first), its rows matched to the variants'
// sizes by the pre-flight's rule (each size shown with its row, a size without one marked), or, for a plain item or
// variants by colour only, the row chosen for the item. In the details chunk: the panel's first chunk never loads it.
import { useEffect, useState } from "react";
import type { CategoryAttribute } from "../../../shared/contract/category.ts";
import type { ProductDetail } from "../../../shared/contract/product.ts";
import type { SizeChart } from "../../../shared/contract/size-charts.ts";
import { sendMessage } from "../../lib/messaging.ts";
import { chartsOfSite, chosenChart, matchRows, sizeChartAsked, withChart } from "../../lib/panel-size-chart.ts";
import type { AttrValue } from "../../lib/panel-values.ts";
import { errorText } from "./ui.tsx";

export function SizeChartPick({
  site,
  groupId,
  cateId,
  product,
  attributes,
  attrs,
  onChange,
  ids,
}: {
  site: number;
  groupId: string;
  cateId: string;
  /** The product as stored (its variants' sizes are matched to the chart's rows). */
  product: ProductDetail;
  /** All the category's attributes. */
  attributes: CategoryAttribute[];
  attrs: Record<string, AttrValue>;
  onChange: (attrs: Record<string, AttrValue>) => void;
  ids: string;
}) {
  const [charts, setCharts] = useState<SizeChart[] | null>(null);
  const [note, setNote] = useState<{ tone: "muted" | "error"; text: string } | null>(null);
  const [pulling, setPulling] = useState(false);
  const [reads, setReads] = useState(0);
  useEffect(() => {
    let live = true;
    sendMessage("getSizeCharts", { accountGroupId: groupId }).then(
      (c) => live && setCharts(c),
      (e: unknown) => live && setNote({ tone: "error", text: errorText(e) }),
    );
    return () => {
      live = false;
    };
  }, [groupId, reads]);

  async function pull() {
    setPulling(true);
    setNote(null);
    try {
      const r = await sendMessage("pullSizeCharts", { accountGroupId: groupId, cateId });
      setNote({ tone: "muted", text: r.count ? `已同步 ${r.count} 个尺码表` : "该店铺在此类目下还没有尺码表，请先在美客多创建" });
      setReads((n) => n + 1);
    } catch (e) {
      setNote({ tone: "error", text: errorText(e) });
    } finally {
      setPulling(false);
    }
  }

  const options = chartsOfSite(charts ?? [], site);
  const { chartId, rowId } = chosenChart(attrs);
  const chart = options.find((c) => c.chartId === chartId) ?? null;
  const match = chart ? matchRows(chart, product, attributes) : null;
  const askRow = sizeChartAsked(attributes).row && !match;
  const testId = `${ids}-size-chart`;
  return (
    <div className="size-chart" data-testid={testId} data-charts={charts?.length ?? ""}>
      <p className="small">
        <b className={chart ? "" : "warn"}>尺码表</b> <span className="muted">该类目需要店铺的尺码表</span>
      </p>
      <div className="picks">
        <select
          value={chart ? chartId : ""}
          onChange={(e) => onChange(withChart(attrs, e.target.value))}
          aria-label="尺码表"
          disabled={!charts}
          data-testid={`${testId}-select`}
        >
          <option value="">{!charts ? "读取中…" : options.length ? "选择尺码表" : "没有尺码表，请先同步"}</option>
          {options.map((c) => (
            <option key={c.id} value={c.chartId}>
              {c.name}
              {c.gender ? `（${c.gender}）` : ""}
            </option>
          ))}
        </select>
        <button type="button" className="secondary" onClick={() => void pull()} disabled={pulling} data-testid={`${testId}-pull`}>
          {pulling ? "同步中…" : "同步尺码表"}
        </button>
      </div>
      {note ? (
        <p className={`${note.tone} small`} role={note.tone === "error" ? "alert" : "status"} data-testid={`${testId}-note`}>
          {note.text}
        </p>
      ) : null}
      {match ? (
        <ul className="size-rows" data-testid={`${testId}-rows`} data-unmatched={match.unmatched.length}>
          {match.sizes.map((s) => (
            <li key={s.value} data-testid={`${testId}-size`} data-size={s.value} data-row={s.rowId ?? ""}>
              <span>
                {s.value} <span className="muted">（{s.variants} 个规格）</span>
              </span>
              {s.rowId ? <span className="ok">尺码行 {s.label}</span> : <span className="bad">尺码表中没有此尺码</span>}
            </li>
          ))}
        </ul>
      ) : null}
      {match?.unmatched.length ? (
        <p className="notice error small" data-testid={`${testId}-unmatched`}>
          尺码「{match.unmatched.join("、")}」在尺码表「{chart!.name}
          」中没有对应的尺码行：请在美客多补充尺码表后重新同步，或选择其他尺码表。
        </p>
      ) : null}
      {chart && askRow ? (
        <select
          value={chart.rows.some((r) => r.id === rowId) ? rowId : ""}
          onChange={(e) => onChange(withChart(attrs, chart.chartId, e.target.value || null))}
          aria-label="尺码行"
          data-testid={`${testId}-row`}
        >
          <option value="">选择商品的尺码行</option>
          {chart.rows.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
      ) : null}
    </div>
  );
}
