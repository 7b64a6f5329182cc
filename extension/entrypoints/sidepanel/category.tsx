// The panel's category: the site, then a leaf of that site's tree (browsed level by level or searched by name, Chinese
// name or id), the category mapped to the product's source category (类目映射) first, 推荐类目 (PredictMeliCategory for
// the title in the site's language), and the chosen category's required attributes as a form (the console publish
// screen's choice of attributes, shared/publish/category-form.ts: not the size chart, chosen per shop group in the
// publish section, nor what the product's variants carry).
import { useEffect, useMemo, useState } from "react";
import type { CategoryAttribute, CategoryTreeNode, PredictMeliCategoryResult } from "#shared/contract/category.ts";
import { MELI_SITES } from "#shared/contract/meli.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import { askedAttributes, categoryTitleOf } from "#shared/publish/category-form.ts";
import { variantAttributes } from "#shared/publish/variations.ts";
import { sendMessage } from "../../lib/messaging.ts";
import { sizeChartAsked, variantsOf } from "../../lib/panel-size-chart.ts";
import type { AttrValue, PanelValues } from "../../lib/panel-values.ts";
import { errorText, Field, Section } from "./ui.tsx";
import { MappingSuggestion } from "./category-mapping.tsx";
import { attributeLabel } from "#shared/contract/names.ts";
import { indexTree, zhPathOf } from "#shared/ui/tree-select.tsx";

/** The trees read in this panel's life, by site. */
const trees = new Map<number, Promise<CategoryTreeNode[]>>();
/** The trees read so far, indexed: a chosen category's Chinese path is named in the same render that chooses it. */
const indexes = new Map<number, ReturnType<typeof indexTree>>();
const treeOf = (site: number) => {
  let t = trees.get(site);
  if (!t) {
    t = sendMessage("getCategoryTree", { site }).then((r) => {
      indexes.set(site, indexTree(r.tree));
      return r.tree;
    });
    t.catch(() => trees.delete(site));
    trees.set(site, t);
  }
  return t;
};

type Leaf = { id: string; fullName: string; zh: string };
function leavesOf(nodes: CategoryTreeNode[], out: Leaf[] = []): Leaf[] {
  for (const n of nodes) {
    if (n.children?.length) leavesOf(n.children, out);
    else out.push({ id: n.id, fullName: n.fullName, zh: n.zh ?? "" });
  }
  return out;
}

/**
 * The category's path in Chinese as the console's picker names it (shared zhPathOf), from the site's tree; null without
 * one. Answered in the render that chooses the category once the tree is read: a name that changed a moment later would
 * reflow the section under the seller's pointer (推荐类目 moved as it was clicked).
 */
export function useChinesePath(site: number | null, cateId: string): string | null {
  const index = site ? indexes.get(site) : undefined;
  const [, setRead] = useState(0);
  useEffect(() => {
    if (!site || !cateId || index) return;
    let live = true;
    treeOf(site).then(
      () => live && setRead((n) => n + 1),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [site, cateId, index]);
  const at = cateId ? index?.byId.get(cateId) : undefined;
  return index && at !== undefined ? zhPathOf(index.entries, at) : null;
}

export function CategorySection({
  productId,
  values,
  variants,
  onChange,
  onAsked,
}: {
  /** The product: its source category's mapping is offered first. */
  productId: string;
  values: PanelValues;
  /** The product's variants as stored (the variation attributes they carry are not asked). */
  variants: ProductDetail["variants"];
  onChange: (p: Partial<PanelValues>) => void;
  onAsked: (attrs: CategoryAttribute[]) => void;
}) {
  const site = values.site ? Number(values.site) : null;
  const choose = (cateId: string, fullName: string) => onChange({ cateId, categoryName: fullName, attrs: {} });
  const zhPath = useChinesePath(site, values.cateId);
  return (
    <Section title="类目">
      <div className="row-site">
        <Field label="站点">
          <select
            value={values.site}
            onChange={(e) => onChange({ site: e.target.value, cateId: "", categoryName: "", attrs: {} })}
            data-testid="panel-category-site"
          >
            <option value="">选择站点</option>
            {Object.entries(MELI_SITES).map(([n, s]) => (
              <option key={n} value={n}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
        <div className="chosen" data-testid="panel-category" data-id={values.cateId}>
          {values.cateId ? (
            <>
              <b>{zhPath ?? (values.categoryName || `类目 ${values.cateId}（名称未同步）`)}</b>
            </>
          ) : (
            <span className="muted">未选择类目</span>
          )}
        </div>
      </div>
      {site ? (
        <>
          <MappingSuggestion site={site} productId={productId} chosen={values.cateId} onChoose={choose} />
          <Predictions site={site} titles={values.titles} onChoose={choose} />
          <TreeSelect key={site} site={site} onChoose={choose} />
        </>
      ) : null}
      {site && values.cateId ? (
        <Attributes
          site={site}
          cateId={values.cateId}
          values={values.attrs}
          variants={variants}
          onChange={(attrs) => onChange({ attrs })}
          onAsked={onAsked}
          chartNote="该类目需要店铺的尺码表：刊登到此站点时，在「刊登」中为所选店铺选择尺码表。"
        />
      ) : null}
    </Section>
  );
}

/** 推荐类目: PredictMeliCategory for the title in the site's language; `ids` prefixes the test ids (one set per site). */
export function Predictions({
  site,
  titles,
  onChoose,
  ids = "panel",
}: {
  site: number;
  titles: Record<string, string>;
  onChoose: (id: string, name: string) => void;
  ids?: string;
}) {
  const [result, setResult] = useState<PredictMeliCategoryResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function predict() {
    const title = categoryTitleOf(titles, site);
    if (!title) return setError("请先填写标题");
    setBusy(true);
    setError(null);
    try {
      setResult(await sendMessage("predictCategory", { site, title: title.slice(0, 1000), limit: 5 }));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="predict">
      <button
        type="button"
        className="secondary small"
        onClick={() => void predict()}
        disabled={busy}
        data-testid={`${ids}-predict-category`}
      >
        {busy ? "推荐中…" : "推荐类目"}
      </button>
      {error ? <span className="error small">{error}</span> : null}
      {result ? (
        <ul className="options" data-testid={`${ids}-predictions`}>
          {result.note ? <li className="muted small">{result.note}</li> : null}
          {result.items.length === 0 ? <li className="muted small">没有推荐结果</li> : null}
          {result.items.map((p) => (
            <li key={p.cateId}>
              <button
                type="button"
                className="option"
                onClick={() => {
                  onChoose(p.cateId, p.fullName);
                  setResult(null);
                }}
                data-testid={`${ids}-prediction-${p.cateId}`}
              >
                {p.fullZh || p.fullName}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** 从类目树选择: the site's tree browsed level by level or searched; leaves only. */
export function TreeSelect({
  site,
  onChoose,
  ids = "panel",
}: {
  site: number;
  onChoose: (id: string, name: string) => void;
  ids?: string;
}) {
  const [open, setOpen] = useState(false);
  const [tree, setTree] = useState<CategoryTreeNode[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [path, setPath] = useState<CategoryTreeNode[]>([]);
  const [query, setQuery] = useState("");
  useEffect(() => {
    if (!open || tree) return;
    treeOf(site).then(setTree, (e: unknown) => setError(errorText(e)));
  }, [open, tree, site]);
  const leaves = useMemo(() => (tree ? leavesOf(tree) : []), [tree]);
  const q = query.trim().toLowerCase();
  const found = q
    ? leaves.filter((l) => l.fullName.toLowerCase().includes(q) || l.zh.includes(q) || l.id.toLowerCase() === q).slice(0, 40)
    : [];
  const level = path.length ? (path[path.length - 1].children ?? []) : (tree ?? []);
  const pick = (id: string, name: string) => {
    onChoose(id, name);
    setOpen(false);
    setQuery("");
  };

  if (!open)
    return (
      <button type="button" className="secondary small" onClick={() => setOpen(true)} data-testid={`${ids}-category-open`}>
        从类目树选择
      </button>
    );
  return (
    <div className="tree" data-testid={`${ids}-category-tree`}>
      <div className="inline">
        <input
          value={query}
          placeholder="搜索类目名称或ID"
          onChange={(e) => setQuery(e.target.value)}
          autoFocus
          data-testid={`${ids}-category-search`}
        />
        <button type="button" className="link" onClick={() => setOpen(false)}>
          收起
        </button>
      </div>
      {error ? <p className="error small">{error}</p> : null}
      {!tree && !error ? <p className="muted small">加载类目…</p> : null}
      {tree && tree.length === 0 ? <p className="muted small">该站点的类目尚未同步</p> : null}
      {tree && !q ? (
        <>
          {path.length ? (
            <p className="crumbs">
              <button type="button" className="link" onClick={() => setPath([])}>
                全部
              </button>
              {path.map((n, i) => (
                <span key={n.id}>
                  {" › "}
                  <button type="button" className="link" onClick={() => setPath(path.slice(0, i + 1))}>
                    {n.zh || n.name}
                  </button>
                </span>
              ))}
            </p>
          ) : null}
          <ul className="options">
            {level.map((n) => {
              const leaf = !n.children?.length;
              return (
                <li key={n.id}>
                  <button
                    type="button"
                    className="option"
                    onClick={() => (leaf ? pick(n.id, n.fullName) : setPath([...path, n]))}
                    data-testid={`${ids}-category-node-${n.id}`}
                  >
                    {n.zh ? `${n.zh} · ${n.name}` : n.name}
                    {leaf ? null : <span className="muted"> ›</span>}
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
      {tree && q ? (
        <ul className="options">
          {found.length === 0 ? <li className="muted small">没有匹配的类目</li> : null}
          {found.map((l) => (
            <li key={l.id}>
              <button
                type="button"
                className="option"
                onClick={() => pick(l.id, l.fullName)}
                data-testid={`${ids}-category-option-${l.id}`}
              >
                {l.zh ? `${l.zh} · ` : ""}
                {l.fullName}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Required, as the form marks it. */
const isRequired = (a: CategoryAttribute) => a.isRequired || a.tags.includes("required");
const labelOf = attributeLabel;

/**
 * The category's required attributes as a form (the values by attribute id), as the console's publish screen asks
 * them (shared askedAttributes): not those the publisher fills, nor the size chart's (its own field), nor the
 * variation attributes the product's variants carry (their sizes go on each variation: named here, not asked).
 */
export function Attributes({
  site,
  cateId,
  values,
  variants,
  onChange,
  onAsked,
  onLoaded,
  chartNote,
  ids = "panel",
}: {
  site: number;
  cateId: string;
  values: Record<string, AttrValue>;
  /** The product's variants as stored. */
  variants: ProductDetail["variants"];
  onChange: (attrs: Record<string, AttrValue>) => void;
  onAsked?: (attrs: CategoryAttribute[]) => void;
  /** All the category's attributes, once read. */
  onLoaded?: (attrs: CategoryAttribute[]) => void;
  /** Shown when the category asks for a size chart that is chosen elsewhere. */
  chartNote?: string;
  ids?: string;
}) {
  /** The attributes read, with the category they are of (another category's are not shown while this one's load). */
  const [read, setRead] = useState<{ site: number; cateId: string; all: CategoryAttribute[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setError(null);
    sendMessage("getAttributes", { site, cateId }).then(
      (r) => {
        if (!live) return;
        setRead({ site, cateId, all: r.attributes });
        onLoaded?.(r.attributes);
      },
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
    // onLoaded is the parent's state setter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [site, cateId]);
  const all = read && read.site === site && read.cateId === cateId ? read.all : null;
  const options = useMemo(() => variantsOf({ variants }), [variants]);
  const attrs = useMemo(
    () =>
      all
        ? askedAttributes(all, options)
            .filter((a) => a.required)
            .map((a) => a.attr)
        : null,
    [all, options],
  );
  const carried = useMemo(() => {
    const ids = all ? variantAttributes(options, all) : new Set<string>();
    return (all ?? []).filter((a) => ids.has(a.id) && isRequired(a));
  }, [all, options]);
  useEffect(() => {
    if (attrs) onAsked?.(attrs);
    // onAsked is the parent's state setter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attrs]);
  if (error) return <p className="error small">{error}</p>;
  if (!attrs || !all) return <p className="muted small">加载必填属性…</p>;
  const notes = (
    <>
      {carried.length ? (
        <p className="small muted" data-testid={`${ids}-attrs-by-variants`} data-ids={carried.map((a) => a.id).join(" ")}>
          由规格提供，无需填写：{carried.map(labelOf).join("、")}
        </p>
      ) : null}
      {chartNote && sizeChartAsked(all).chart ? (
        <p className="small muted" data-testid={`${ids}-chart-hint`}>
          {chartNote}
        </p>
      ) : null}
    </>
  );
  if (!attrs.length)
    return (
      <>
        <p className="muted small">该类目没有需要填写的必填属性</p>
        {notes}
      </>
    );
  const set = (id: string, v: AttrValue) => onChange({ ...values, [id]: v });
  return (
    <div className="attrs" data-testid={`${ids}-attributes`} data-cate={cateId}>
      <p className="small muted">必填属性</p>
      {notes}
      {attrs.map((a) => {
        const v = values[a.id] ?? { valueId: null, value: "" };
        return (
          <Field key={a.id} label={labelOf(a)}>
            {a.values.length ? (
              <select
                value={v.valueId ?? ""}
                onChange={(e) => {
                  const opt = a.values.find((o) => o.id === e.target.value);
                  set(a.id, { valueId: opt?.id ?? null, value: opt?.name ?? "" });
                }}
                data-testid={`${ids}-attr-${a.id}`}
              >
                <option value="">请选择</option>
                {a.values.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </select>
            ) : (
              <input
                value={v.value}
                placeholder={a.valueType === "number_unit" ? `如 10 ${a.defaultUnit ?? ""}` : ""}
                onChange={(e) => set(a.id, { valueId: null, value: e.target.value })}
                data-testid={`${ids}-attr-${a.id}`}
              />
            )}
          </Field>
        );
      })}
    </div>
  );
}
