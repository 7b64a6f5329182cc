// The panel's product: opened through the background (the tab's collection becomes a product the first time), edited
// in place (images and the main image, titles per language with one-click translation, price with each site's shop
// price and profit from the pre-flight, weight and size with 预估重量, the category with 推荐类目 and its required
// attributes, the variants' prices and stock), saved with CreateOrUpdateProduct (queued while offline), then published.
import { useEffect, useRef, useState } from "react";
import type { CategoryAttribute } from "../../../shared/contract/category.ts";
import type { PredictWeightByTitleResult, ProductDetail } from "../../../shared/contract/product.ts";
import type { PreflightResultView } from "../../../shared/contract/publish.ts";
import { formatMoney, type PriceBreakdown } from "../../../shared/publish/price.ts";
import { sendMessage } from "../../lib/messaging.ts";
import {
  languageNames,
  moveImage,
  PANEL_LANGUAGES,
  problemsOf,
  saveBodyOf,
  translateSource,
  translateTargets,
  valuesOf,
  type PanelValues,
} from "../../lib/panel-form.ts";
import { CategorySection } from "./category.tsx";
import { PublishSection, siteName, type PublishChoice } from "./publish.tsx";
import { errorText, Field, Section } from "./ui.tsx";

type Notice = { tone: "ok" | "warn" | "error"; text: string } | null;

/** How long the pre-flight waits for the publish choice to settle. */
const PREFLIGHT_DELAY_MS = 250;

/** Unsaved values per product shown (switching tabs and back keeps them), for the panel's life. */
const drafts = new Map<string, { stamp: string; values: PanelValues }>();

/** Queued edits that reached the server: how many times, and how many the last time were refused. */
export type Flushed = { n: number; refused: number };

export function ProductLoader({ source, flushed }: { source: { tabId: number } | { productId: string }; flushed: Flushed }) {
  const [product, setProduct] = useState<ProductDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    performance.mark("panel:open");
    sendMessage("openProduct", source).then(
      (r) => {
        performance.mark("panel:product");
        if (live) setProduct(r.product);
      },
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
    // The source is fixed for the loader's life (its key names it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (error)
    return (
      <p className="notice error pad" role="alert" data-testid="panel-state" data-state="error">
        {error}
      </p>
    );
  if (!product)
    return (
      <p className="pad muted" data-testid="panel-state" data-state="opening">
        正在打开商品…
      </p>
    );
  return <ProductView initial={product} flushed={flushed} />;
}

function ProductView({ initial, flushed }: { initial: ProductDetail; flushed: Flushed }) {
  const [product, setProduct] = useState(initial);
  const draft = drafts.get(initial.id);
  const [values, setValuesState] = useState<PanelValues>(() =>
    draft && draft.stamp === initial.concurrencyStamp ? draft.values : valuesOf(initial),
  );
  const [dirty, setDirty] = useState(!!draft && draft.stamp === initial.concurrencyStamp);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [asked, setAsked] = useState<CategoryAttribute[]>([]);
  const [choice, setChoice] = useState<PublishChoice | null>(null);
  const [preflight, setPreflight] = useState<PreflightResultView | null>(null);

  const setValues = (next: PanelValues) => {
    setValuesState(next);
    setDirty(true);
    drafts.set(product.id, { stamp: product.concurrencyStamp, values: next });
  };
  const patch = (p: Partial<PanelValues>) => {
    setValues({ ...values, ...p });
    // A message about the last save no longer applies once the form changes.
    if (notice?.tone === "error") setNotice(null);
  };
  function show(p: ProductDetail) {
    setProduct(p);
    setValuesState(valuesOf(p));
    setDirty(false);
    setProblems({});
    drafts.delete(p.id);
  }

  // Queued edits reached the server: the stored product is read again (unless the seller has edited since).
  const firstFlush = useRef(flushed.n);
  const queued = useRef<PanelValues | null>(null);
  useEffect(() => {
    if (flushed.n === firstFlush.current || (dirty && values !== queued.current)) return;
    queued.current = null;
    sendMessage("openProduct", { productId: product.id }).then(
      (r) => {
        show(r.product);
        setNotice(
          flushed.refused
            ? { tone: "warn", text: "离线时的修改未能提交：商品已被其他人修改，已加载最新数据" }
            : { tone: "ok", text: "离线时的修改已提交" },
        );
      },
      () => undefined,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flushed]);

  /** Saves the values when changed; answers the product as stored, or null (invalid, queued offline or refused). */
  async function save(): Promise<ProductDetail | null> {
    if (!dirty) return product;
    const found = problemsOf(values);
    setProblems(found);
    if (Object.keys(found).length) {
      setNotice({ tone: "error", text: Object.values(found)[0] });
      return null;
    }
    setBusy("save");
    try {
      const r = await sendMessage("saveProduct", saveBodyOf(product, values, asked));
      if (r.outcome === "queued") {
        queued.current = values;
        setNotice({ tone: "warn", text: r.message });
        return null;
      }
      show(r.product);
      setNotice({ tone: "ok", text: "已保存" });
      return r.product;
    } catch (e) {
      setNotice({ tone: "error", text: errorText(e) });
      return null;
    } finally {
      setBusy(null);
    }
  }

  async function translate() {
    const saved = await save();
    if (!saved) return;
    const from = translateSource(values.titles);
    if (!from) return setNotice({ tone: "error", text: "请先填写标题" });
    setBusy("translate");
    setNotice(null);
    try {
      const to = translateTargets(values.titles).filter((l) => l !== from);
      const p = await sendMessage("translateProduct", { productId: saved.id, from, to });
      show(p);
      setNotice({ tone: "ok", text: `已翻译为${to.map((l) => languageNames[l]).join("、")}` });
    } catch (e) {
      setNotice({ tone: "error", text: errorText(e) });
    } finally {
      setBusy(null);
    }
  }

  // The pre-flight of the product as stored, for the chosen shop group, sites and categories: each site's price and
  // profit. Asked a moment after the last change (a site's attribute typed letter by letter asks once).
  useEffect(() => {
    setPreflight(null);
    if (!choice || dirty) return;
    let live = true;
    const timer = setTimeout(() => {
      sendMessage("preflight", choice.request(product)).then(
        (r) => live && setPreflight(r),
        (e: unknown) => live && setNotice({ tone: "error", text: errorText(e) }),
      );
    }, PREFLIGHT_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [choice, product, dirty]);

  return (
    <div className="product" data-testid="panel-product" data-id={product.id} data-dirty={dirty}>
      <Images values={values} onChange={patch} />
      <Section title="标题">
        <Titles values={values} problems={problems} onChange={patch} />
        <button
          type="button"
          className="secondary"
          onClick={() => void translate()}
          disabled={!!busy}
          data-testid="panel-translate"
          data-busy={busy === "translate"}
        >
          {busy === "translate"
            ? "翻译中…"
            : `一键翻译（${translateTargets(values.titles)
                .map((l) => languageNames[l])
                .join("、")}）`}
        </button>
      </Section>
      <Section title="价格与库存">
        <div className="row3">
          <Field label="价格" error={problems.price}>
            <input value={values.price} inputMode="decimal" onChange={(e) => patch({ price: e.target.value })} data-testid="panel-price" />
          </Field>
          <Field label="币种" error={problems.currency}>
            <input
              value={values.currency}
              maxLength={3}
              onChange={(e) => patch({ currency: e.target.value })}
              data-testid="panel-currency"
            />
          </Field>
          <Field label="库存" error={problems.stock}>
            <input value={values.stock} inputMode="numeric" onChange={(e) => patch({ stock: e.target.value })} data-testid="panel-stock" />
          </Field>
        </div>
        <SitePrices preflight={preflight} choice={choice} dirty={dirty} />
      </Section>
      <Section title="重量与尺寸">
        <WeightSize product={product} values={values} problems={problems} onChange={patch} />
      </Section>
      <CategorySection values={values} onChange={patch} onAsked={setAsked} />
      {values.variants.length ? (
        <Section title={`规格（${values.variants.length}）`}>
          <Variants values={values} problems={problems} onChange={patch} />
        </Section>
      ) : null}
      <div className="savebar">
        {notice ? (
          <p className={`notice ${notice.tone}`} role="status" data-testid="panel-notice" data-tone={notice.tone}>
            {notice.text}
          </p>
        ) : null}
        <button type="button" onClick={() => void save()} disabled={!!busy || !dirty} data-testid="panel-save">
          {busy === "save" ? "保存中…" : dirty ? "保存" : "已保存"}
        </button>
      </div>
      <PublishSection
        product={product}
        category={{ site: Number(values.site) || null, cateId: values.cateId, name: values.categoryName }}
        titles={values.titles}
        save={save}
        dirty={dirty}
        preflight={preflight}
        onChoice={setChoice}
      />
    </div>
  );
}

function Images({ values, onChange }: { values: PanelValues; onChange: (p: Partial<PanelValues>) => void }) {
  if (!values.images.length) return <p className="muted pad">没有图片</p>;
  return (
    <section className="images" aria-label="图片" data-testid="panel-images">
      {values.images.map((url, i) => {
        const main = url === values.mainImage;
        return (
          <figure key={url} className={main ? "main" : ""} data-testid="panel-image" data-main={main}>
            <button type="button" className="thumb" title={main ? "主图" : "设为主图"} onClick={() => onChange({ mainImage: url })}>
              <img src={url} alt="" loading="lazy" referrerPolicy="no-referrer" />
            </button>
            {main ? <span className="tag">主图</span> : null}
            <span className="moves">
              <button
                type="button"
                aria-label="左移"
                disabled={i === 0}
                onClick={() => onChange({ images: moveImage(values.images, i, -1) })}
              >
                ‹
              </button>
              <button
                type="button"
                aria-label="右移"
                disabled={i === values.images.length - 1}
                onClick={() => onChange({ images: moveImage(values.images, i, 1) })}
              >
                ›
              </button>
            </span>
          </figure>
        );
      })}
    </section>
  );
}

function Titles({
  values,
  problems,
  onChange,
}: {
  values: PanelValues;
  problems: Record<string, string>;
  onChange: (p: Partial<PanelValues>) => void;
}) {
  const languages = [...PANEL_LANGUAGES, ...Object.keys(values.titles).filter((l) => !(PANEL_LANGUAGES as readonly string[]).includes(l))];
  return (
    <div className="titles">
      {languages.map((lang) => (
        <label key={lang} className="title-row">
          <span className="lang">{languageNames[lang] ?? lang}</span>
          <textarea
            rows={2}
            value={values.titles[lang] ?? ""}
            maxLength={1000}
            placeholder="（空）"
            onChange={(e) => onChange({ titles: { ...values.titles, [lang]: e.target.value } })}
            data-testid={`panel-title-${lang}`}
          />
        </label>
      ))}
      {problems.titles ? <em role="alert">{problems.titles}</em> : null}
    </div>
  );
}

function SitePrices({ preflight, choice, dirty }: { preflight: PreflightResultView | null; choice: PublishChoice | null; dirty: boolean }) {
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

function WeightSize({
  product,
  values,
  problems,
  onChange,
}: {
  product: ProductDetail;
  values: PanelValues;
  problems: Record<string, string>;
  onChange: (p: Partial<PanelValues>) => void;
}) {
  const [predicted, setPredicted] = useState<PredictWeightByTitleResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function predict() {
    const title = values.titles.zh?.trim() || Object.values(values.titles).find((t) => t.trim()) || "";
    if (!title) return setError("请先填写标题");
    setBusy(true);
    setError(null);
    try {
      setPredicted(await sendMessage("predictWeight", { title: title.slice(0, 1000), productId: product.id }));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <div className="row2">
        <Field label="重量（克）" error={problems.weight}>
          <input
            value={values.weight}
            inputMode="decimal"
            onChange={(e) => onChange({ weight: e.target.value })}
            data-testid="panel-weight"
          />
        </Field>
        <Field label="尺寸（长x宽x高 cm）" error={problems.size}>
          <input value={values.size} placeholder="30x20x10" onChange={(e) => onChange({ size: e.target.value })} data-testid="panel-size" />
        </Field>
      </div>
      <div className="inline">
        <button type="button" className="secondary small" onClick={() => void predict()} disabled={busy} data-testid="panel-predict-weight">
          {busy ? "预估中…" : "预估重量"}
        </button>
        {predicted ? (
          predicted.weight !== null ? (
            <span data-testid="panel-weight-prediction">
              预估 <b>{Math.round(predicted.weight)} g</b>
              <button type="button" className="link" onClick={() => onChange({ weight: String(Math.round(predicted.weight!)) })}>
                使用
              </button>
            </span>
          ) : (
            <span className="muted small">{predicted.message || "无法预估"}</span>
          )
        ) : null}
        {error ? <span className="error small">{error}</span> : null}
      </div>
    </>
  );
}

function Variants({
  values,
  problems,
  onChange,
}: {
  values: PanelValues;
  problems: Record<string, string>;
  onChange: (p: Partial<PanelValues>) => void;
}) {
  const set = (i: number, field: "price" | "stock", v: string) =>
    onChange({ variants: values.variants.map((row, j) => (j === i ? { ...row, [field]: v } : row)) });
  return (
    <div className="variants">
      <table>
        <thead>
          <tr>
            <th>规格</th>
            <th>价格</th>
            <th>库存</th>
          </tr>
        </thead>
        <tbody>
          {values.variants.map((row, i) => (
            <tr key={row.kvId} data-testid="panel-variant">
              <td className="kv" title={row.values.join(" / ")}>
                {row.values.join(" / ")}
              </td>
              <td>
                <input
                  value={row.price}
                  inputMode="decimal"
                  aria-invalid={!!problems[`variants.${i}.price`]}
                  title={problems[`variants.${i}.price`]}
                  onChange={(e) => set(i, "price", e.target.value)}
                />
              </td>
              <td>
                <input
                  value={row.stock}
                  inputMode="numeric"
                  aria-invalid={!!problems[`variants.${i}.stock`]}
                  title={problems[`variants.${i}.stock`]}
                  onChange={(e) => set(i, "stock", e.target.value)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
