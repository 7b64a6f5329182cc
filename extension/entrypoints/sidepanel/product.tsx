// The panel's product: opened through the background (the tab's collection becomes a product the first time), edited
// in place (images and the main image, titles per language with one-click translation, price with each site's shop
// price and profit from the pre-flight, weight and size with 预估重量, the category with 推荐类目 and its required
// attributes, the variants' prices and stock), saved with CreateOrUpdateProduct (queued while offline), then published.
//
// The first press must be quick (bench/side-panel.ts): this module is in the panel's first chunk with the editable
// core only (images, titles, price), shown at once from the collected page's product the worker holds (the tab's
// `core`) while the worker makes and reads the stored product; the edits made meanwhile are kept when it arrives. The
// heavy parts (the form's rules, the category tree and attributes, the publish flow, the profit preview) are chunks
// of their own, loaded once the core is on screen.
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import type { CategoryAttribute } from "#shared/contract/category.ts";
import type { PredictWeightByTitleResult, ProductDetail } from "#shared/contract/product.ts";
import type { PreflightResultView } from "#shared/contract/publish.ts";
import { editLanguagesOf } from "#shared/publish/product-form.ts";
import { sendMessage } from "../../lib/messaging.ts";
import {
  coreValues,
  languageNames,
  moveImage,
  translateSource,
  translateTargets,
  valuesOf,
  withEdits,
  type PanelValues,
  type ProductCore,
} from "../../lib/panel-values.ts";
import type { PublishChoice } from "./publish.tsx";
import { errorText, Field, Section } from "./ui.tsx";

// The parts loaded after the core, one chunk (details.tsx), asked for once the core has been drawn.
const loadDetails = () => import("./details.tsx");
const CategorySection = lazy(() => loadDetails().then((m) => ({ default: m.CategorySection })));
const PublishSection = lazy(() => loadDetails().then((m) => ({ default: m.PublishSection })));
const SitePrices = lazy(() => loadDetails().then((m) => ({ default: m.SitePrices })));
let preloaded: Promise<unknown> | null = null;
function preloadDetails() {
  preloaded ??= new Promise((resolve) => setTimeout(resolve, 0)).then(() => loadDetails().catch(() => (preloaded = null)));
}
const Later = ({ children }: { children: ReactNode }) => <Suspense fallback={<p className="muted small">加载中…</p>}>{children}</Suspense>;

type Notice = { tone: "ok" | "warn" | "error"; text: string } | null;

/** How long the pre-flight waits for the publish choice to settle. */
const PREFLIGHT_DELAY_MS = 250;

/** Unsaved values per product shown (switching tabs and back keeps them), for the panel's life. */
const drafts = new Map<string, { stamp: string; values: PanelValues }>();

/** Queued edits that reached the server: how many times, and how many the last time were refused. */
export type Flushed = { n: number; refused: number };

/**
 * Opens the product (the tab's, or one by id). While the worker makes it, the collected page's core is shown and
 * editable when the tab has one; the stored product replaces it when it arrives.
 */
export function ProductLoader({
  source,
  flushed,
  core = null,
}: {
  source: { tabId: number } | { productId: string };
  flushed: Flushed;
  core?: ProductCore | null;
}) {
  const [product, setProduct] = useState<ProductDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The first core seen is kept: the tab's state drops it once the worker has opened the product, a moment before the
  // product's answer arrives here.
  const [kept, setKept] = useState(core);
  if (core && !kept) setKept(core);
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
  if (!product && !kept)
    return (
      <p className="pad muted" data-testid="panel-state" data-state="opening">
        正在打开商品…
      </p>
    );
  return <ProductView stored={product} core={kept} flushed={flushed} />;
}

/** The form's first values: the product's (or its unsaved draft of this panel's life), else the page's core. */
function startValues(stored: ProductDetail | null, core: ProductCore | null): PanelValues {
  if (!stored) return coreValues(core!);
  const draft = drafts.get(stored.id);
  return draft && draft.stamp === stored.concurrencyStamp ? draft.values : valuesOf(stored);
}

function ProductView({ stored, core, flushed }: { stored: ProductDetail | null; core: ProductCore | null; flushed: Flushed }) {
  /** The product as stored (null while the worker makes it: the form then shows the page's core). */
  const [product, setProduct] = useState(stored);
  const [values, setValuesState] = useState<PanelValues>(() => startValues(stored, core));
  /** The values the form started from before the product was stored (the edits since are carried over). */
  const [coreShown] = useState(values);
  const [dirty, setDirty] = useState(!!stored && drafts.get(stored.id)?.stamp === stored.concurrencyStamp);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [asked, setAsked] = useState<CategoryAttribute[]>([]);
  const [choice, setChoice] = useState<PublishChoice | null>(null);
  const [preflight, setPreflight] = useState<PreflightResultView | null>(null);

  // The stored product arrived after the core: it takes the form, with the seller's edits made meanwhile.
  if (stored && !product) {
    const edited = values !== coreShown;
    const next = edited ? withEdits(coreShown, values, valuesOf(stored)) : valuesOf(stored);
    setProduct(stored);
    setValuesState(next);
    setDirty(edited);
    if (edited) drafts.set(stored.id, { stamp: stored.concurrencyStamp, values: next });
  }

  // Timed by bench/side-panel.ts: the form shown (from the page's core or the stored product), the stored product in it.
  useEffect(() => {
    performance.mark("panel:form");
    preloadDetails();
  }, []);
  useEffect(() => {
    if (product) performance.mark("panel:stored");
  }, [product]);

  const setValues = (next: PanelValues) => {
    setValuesState(next);
    setDirty(true);
    if (product) drafts.set(product.id, { stamp: product.concurrencyStamp, values: next });
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
    if (!product || flushed.n === firstFlush.current || (dirty && values !== queued.current)) return;
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
    if (!product) return null;
    if (!dirty) return product;
    setBusy("save");
    try {
      const { problemsOf, saveBodyOf } = await loadDetails();
      const found = problemsOf(values);
      setProblems(found);
      if (Object.keys(found).length) {
        setNotice({ tone: "error", text: Object.values(found)[0] });
        return null;
      }
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
    if (!choice || dirty || !product) return;
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
    <div className="product" data-testid="panel-product" data-id={product?.id ?? ""} data-stored={!!product} data-dirty={dirty}>
      <Images values={values} onChange={patch} />
      <Section title="标题">
        <Titles values={values} problems={problems} onChange={patch} />
        <button
          type="button"
          className="secondary"
          onClick={() => void translate()}
          disabled={!!busy || !product}
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
        {product ? (
          <Later>
            <SitePrices preflight={preflight} choice={choice} dirty={dirty} />
          </Later>
        ) : null}
      </Section>
      {product ? (
        <>
          <Section title="重量与尺寸">
            <WeightSize product={product} values={values} problems={problems} onChange={patch} />
          </Section>
          <Later>
            <CategorySection productId={product.id} values={values} variants={product.variants} onChange={patch} onAsked={setAsked} />
          </Later>
          {values.variants.length ? (
            <Section title={`规格（${values.variants.length}）`}>
              <Variants values={values} problems={problems} onChange={patch} />
            </Section>
          ) : null}
        </>
      ) : (
        <p className="pad muted small" data-testid="panel-making">
          正在生成商品…（重量、类目、规格与刊登稍后显示，已做的修改会保留）
        </p>
      )}
      <div className="savebar">
        {notice ? (
          <p className={`notice ${notice.tone}`} role="status" data-testid="panel-notice" data-tone={notice.tone}>
            {notice.text}
          </p>
        ) : null}
        <button type="button" onClick={() => void save()} disabled={!!busy || !dirty || !product} data-testid="panel-save">
          {busy === "save" ? "保存中…" : !product ? "生成中…" : dirty ? "保存" : "已保存"}
        </button>
      </div>
      {product ? (
        <Later>
          <PublishSection
            product={product}
            category={{ site: Number(values.site) || null, cateId: values.cateId, name: values.categoryName }}
            titles={values.titles}
            save={save}
            dirty={dirty}
            preflight={preflight}
            onChoice={setChoice}
          />
        </Later>
      ) : null}
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
  const languages = editLanguagesOf(values.titles);
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
