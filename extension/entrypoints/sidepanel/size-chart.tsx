// The size chart of a local site's fashion category (its attributes have SIZE_GRID_ID), as the console's publish screen
// asks it (console size-chart-field.tsx): one of the shop group's charts of the site, read through the worker
// (同步尺码表 pulls the group's charts of the category from Mercado Libre first), its rows matched to the variants'
// sizes by the pre-flight's rule (each size shown with its row, a size without one marked), or, for a plain item or
// variants by colour only, the row chosen for the item. In the details chunk: the panel's first chunk never loads it.
import { useEffect, useState } from "react";
import type { CategoryAttribute } from "#shared/contract/category.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import type { SizeChart } from "#shared/contract/size-charts.ts";
import { parseSizes, variantSizes } from "#shared/publish/size-chart-sizes.ts";
import { sendMessage } from "../../lib/messaging.ts";
import { chartsOfSite, chosenChart, matchRows, sizeChartAsked, variantsOf, withChart } from "../../lib/panel-size-chart.ts";
import type { AttrValue } from "../../lib/panel-values.ts";
import { errorText } from "./ui.tsx";
import { withChinese } from "#shared/contract/names.ts";

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
      setNote({
        tone: "muted",
        text: r.count ? `已同步 ${r.count} 个尺码表` : "该店铺在此类目下还没有尺码表，可点「新建尺码表」用商品的尺码创建",
      });
      setReads((n) => n + 1);
    } catch (e) {
      setNote({ tone: "error", text: errorText(e) });
    } finally {
      setPulling(false);
    }
  }

  const [creating, setCreating] = useState(false);
  const [completing, setCompleting] = useState(false);
  /** A chart made or completed on Mercado Libre: read the list again and pick it. */
  function picked(c: SizeChart, text: string) {
    setCharts((cur) => [...(cur ?? []).filter((x) => x.chartId !== c.chartId), c]);
    onChange(withChart(attrs, c.chartId));
    setNote({ tone: "muted", text });
    setCreating(false);
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
        <button
          type="button"
          className="secondary"
          onClick={() => setCreating((v) => !v)}
          aria-expanded={creating}
          data-testid={`${testId}-create`}
        >
          新建尺码表
        </button>
      </div>
      {creating ? (
        <NewChartForm
          site={site}
          groupId={groupId}
          cateId={cateId}
          attributes={attributes}
          gender={attrs.GENDER?.value ?? attrs.GENDER?.valueId ?? null}
          sizes={variantSizes(variantsOf(product), attributes)}
          testId={`${testId}-new`}
          onCreated={(c) => picked(c, `已在美客多创建尺码表「${c.name}」，并已选用`)}
        />
      ) : null}
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
          」中没有对应的尺码行：可补充到此尺码表，或选择其他尺码表。{" "}
          <button
            type="button"
            className="secondary"
            disabled={completing}
            onClick={() => {
              setCompleting(true);
              sendMessage("createSizeChart", {
                accountGroupId: groupId,
                site,
                cateId,
                name: chart!.name,
                gender: chart!.gender ?? "",
                sizes: match.unmatched,
                chartId: chart!.chartId,
              })
                .then(
                  (c) => picked(c, `已为尺码表「${c.name}」补充 ${match.unmatched.length} 个尺码`),
                  (e: unknown) => setNote({ tone: "error", text: errorText(e) }),
                )
                .finally(() => setCompleting(false));
            }}
            data-testid={`${testId}-complete`}
          >
            {completing ? "补充中…" : "补充到尺码表"}
          </button>
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

/** 新建尺码表: a name, one of the category's genders and the sizes (the product's, editable); created through the worker. */
function NewChartForm({
  site,
  groupId,
  cateId,
  attributes,
  gender: chosen,
  sizes: productSizes,
  testId,
  onCreated,
}: {
  site: number;
  groupId: string;
  cateId: string;
  attributes: CategoryAttribute[];
  gender: string | null;
  sizes: string[];
  testId: string;
  onCreated: (chart: SizeChart) => void;
}) {
  const genders = attributes.find((a) => a.id === "GENDER")?.values ?? [];
  const [gender, setGender] = useState(genders.find((g) => g.id === chosen || g.name === chosen)?.name ?? "");
  const [name, setName] = useState("");
  const [sizesText, setSizesText] = useState(productSizes.join("、"));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sizes = parseSizes(sizesText);
  const chartName = (name.trim() || `${gender}尺码表`).slice(0, 60);

  async function create() {
    setBusy(true);
    setError(null);
    try {
      onCreated(await sendMessage("createSizeChart", { accountGroupId: groupId, site, cateId, name: chartName, gender, sizes }));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="new-chart" data-testid={testId}>
      <p className="small muted">在美客多为该类目创建店铺自己的尺码表（每个尺码一行），创建后即选用。</p>
      <input
        value={name}
        maxLength={60}
        placeholder={chartName}
        onChange={(e) => setName(e.target.value)}
        aria-label="尺码表名称"
        data-testid={`${testId}-name`}
      />
      <select value={gender} onChange={(e) => setGender(e.target.value)} aria-label="性别" data-testid={`${testId}-gender`}>
        <option value="">选择性别</option>
        {genders.map((g) => (
          <option key={g.id} value={g.name}>
            {withChinese(g.name, g.zh)}
          </option>
        ))}
      </select>
      <textarea
        rows={2}
        value={sizesText}
        placeholder="尺码，例如：S、M、L、XL"
        onChange={(e) => setSizesText(e.target.value)}
        aria-label="尺码"
        data-testid={`${testId}-sizes`}
      />
      <p className="small muted" data-testid={`${testId}-count`} data-count={sizes.length}>
        {sizes.length ? `共 ${sizes.length} 个尺码：${sizes.join("、")}` : "商品没有尺码规格，请填写尺码（用逗号或顿号分隔）"}
      </p>
      {error ? (
        <p className="error small" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      ) : null}
      <button type="button" onClick={() => void create()} disabled={busy || !gender || !sizes.length} data-testid={`${testId}-submit`}>
        {busy ? "创建中…" : "创建并选用"}
      </button>
    </div>
  );
}
