// The panel's publishing: a shop group the user may publish to (the server lists only a sub-account's own) and its
// sites, with a category per chosen site for a local shop group (the product's own where it is on that site, else one
// picked here: 推荐类目, the tree and its required attributes; a global shop keeps its one global category). A local
// site's fashion category, picked here or the product's own, asks for one of the group's size charts (SizeChartPick).
// The pre-flight of the product as saved (each site's problems, and its price and profit shown with the price above)
// comes first, then 刊登 sends the publish request and the batch's progress arrives live (asked every second
// until it ends), each listing linking to its page on Mercado Libre.
import { useEffect, useMemo, useState } from "react";
import { browser } from "wxt/browser";
import type { CategoryAttribute } from "#shared/contract/category.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import { listingStatusNames, publishBatchStatusNames } from "#shared/contract/names.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import type { PreflightResultView } from "#shared/contract/publish.ts";
import { batchPercent, isBatchRunning } from "#shared/publish/batch.ts";
import { siteName, withSite } from "#shared/publish/sites.ts";
import { sendMessage } from "../../lib/messaging.ts";
import {
  categorySources,
  publishRequestOf,
  type GtinReasons,
  type OwnChart,
  type PublishInput,
  type SiteCategory,
} from "../../lib/panel-publish.ts";
import { gtinReasonSites } from "../../lib/panel-gtin.ts";
import { SIZE_CHART_ATTRIBUTES, sizeChartAsked } from "../../lib/panel-size-chart.ts";
import { listedPairs } from "#shared/publish/duplicates.ts";
import type { AttrValue } from "../../lib/panel-values.ts";
import { PUSH_CHANNEL, type BatchView, type Push, type ShopGroupView } from "../../lib/protocol.ts";
import { followBatch } from "../../lib/batch-follow.ts";
import { Attributes, Predictions, TreeSelect, useChinesePath } from "./category.tsx";
import { GtinReasonFields } from "./gtin-reason.tsx";
import { SizeChartPick } from "./size-chart.tsx";
import { errorText, Section } from "./ui.tsx";

/** Where Mercado Libre shows an item of a site (its own address without the title's words, which it accepts). */
const ITEM_HOSTS: Record<number, string> = {
  1: "articulo.mercadolibre.com.mx",
  2: "produto.mercadolivre.com.br",
  3: "articulo.mercadolibre.cl",
  4: "articulo.mercadolibre.com.co",
  5: "global-selling.mercadolibre.com",
};

/** The item's page: the listing's permalink when the marketplace answered one; a global item's site items get none. */
const itemUrl = (site: number, itemId: string) =>
  `https://${ITEM_HOSTS[site] ?? ITEM_HOSTS[1]}/${itemId.replace(/^([A-Z]{3})-?(\d+)$/, "$1-$2")}`;

/** How often the batch is asked for while it runs and the live progress stream is not live (batch-follow.ts). */
const BATCH_POLL_MS = 1000;
/** While the stream is live, the batch is still asked for this rarely (the console's LIVE_BACKSTOP_MS). */
const BATCH_BACKSTOP_MS = 15_000;
/** The worker keeps the stream open WATCH_MS (30 s) per watch: renewed well within it. */
const WATCH_RENEW_MS = 10_000;

export type PublishChoice = { groupId: string; isCbt: boolean; sites: number[]; request: (p: ProductDetail) => PublishInput };

export function PublishSection({
  product,
  category,
  titles,
  save,
  dirty,
  preflight,
  onChoice,
}: {
  product: ProductDetail;
  /** The category as the form has it now (saved or not). */
  category: { site: number | null; cateId: string; name: string };
  /** The titles as the form has them now (推荐类目 predicts from the site's language). */
  titles: Record<string, string>;
  save: () => Promise<ProductDetail | null>;
  dirty: boolean;
  preflight: PreflightResultView | null;
  onChoice: (c: PublishChoice | null) => void;
}) {
  const [groups, setGroups] = useState<ShopGroupView[] | null>(null);
  const [groupId, setGroupId] = useState("");
  const [sites, setSites] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [batch, setBatch] = useState<BatchView | null>(null);
  /** The categories picked per site for a local group (kept per site when the group or sites change). */
  const [picked, setPicked] = useState<Record<number, SiteCategory>>({});
  /** The size chart chosen per site for the product's own category (the group's charts: dropped when it changes). */
  const [ownCharts, setOwnCharts] = useState<Record<number, OwnChart>>({});
  /** The reason the product has no GTIN, chosen per category site where the pool falls short (lib/panel-gtin.ts). */
  const [gtinReasons, setGtinReasons] = useState<GtinReasons>({});
  /** 允许重复刊登: list the product again on a site of the group where it is already listed (shared/publish/duplicates.ts). */
  const [allowDuplicate, setAllowDuplicate] = useState(false);
  const group = groups?.find((g) => g.groupId === groupId) ?? null;

  useEffect(() => {
    sendMessage("getShopGroups").then(
      (g) => {
        setGroups(g);
        if (g.length === 1) {
          setGroupId(g[0].groupId);
          setSites(g[0].sites);
        }
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, []);

  const choice = useMemo<PublishChoice | null>(
    () =>
      group && sites.length
        ? {
            groupId: group.groupId,
            isCbt: group.isCbt,
            sites,
            request: (p) => ({
              ...publishRequestOf(p, group.groupId, group.isCbt, sites, picked, ownCharts, gtinReasons),
              isAllowDuplicate: allowDuplicate,
            }),
          }
        : null,
    [group, sites, picked, ownCharts, gtinReasons, allowDuplicate],
  );
  useEffect(() => onChoice(choice), [choice, onChoice]);

  // The batch, read by its id (GetPublishBatch) when the live progress stream says it changed (every second while the
  // stream is not live) until it has ended, and once more after (its listings' last writes).
  const batchId = batch?.batch.id ?? null;
  const [final, setFinal] = useState(false);
  useEffect(() => {
    if (!batchId || final) return;
    const follow = followBatch({
      batchId,
      read: async () => {
        const b = await sendMessage("getBatch", { batchId });
        setBatch(b);
        return !isBatchRunning(b.batch.status);
      },
      watch: () => sendMessage("watchProgress"),
      onDone: () => setFinal(true),
      pollMs: BATCH_POLL_MS,
      backstopMs: BATCH_BACKSTOP_MS,
      renewMs: WATCH_RENEW_MS,
    });
    const onPush = (message: unknown) => {
      const m = message as Push | null;
      if (m?.channel === PUSH_CHANNEL && m.kind === "progress") follow.pushed(m.live, m.event);
    };
    browser.runtime.onMessage.addListener(onPush);
    return () => {
      browser.runtime.onMessage.removeListener(onPush);
      follow.stop();
    };
  }, [batchId, final]);

  async function submit() {
    if (!choice) return;
    setBusy(true);
    setError(null);
    try {
      const saved = await save();
      if (!saved) return;
      const b = await sendMessage("publish", choice.request(saved));
      setFinal(false);
      setBatch({ batch: b, listings: [] });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  const sources = group ? categorySources(category, group.isCbt, sites, picked) : [];
  const globalMissing = !!group?.isCbt && sources.some((s) => s.from === "none");
  const okPairs = preflight?.pairs.filter((p) => p.ok).length ?? 0;
  // The checkbox shows where it matters: a site of the group already has the product (or the seller ticked it).
  const listed = preflight && !dirty ? listedPairs(preflight.pairs).length : 0;
  return (
    <Section title="刊登">
      {groups && groups.length === 0 ? <p className="muted small">没有可刊登的店铺，请先在后台授权店铺。</p> : null}
      {groups && groups.length > 0 ? (
        <>
          <select
            value={groupId}
            onChange={(e) => {
              const g = groups.find((x) => x.groupId === e.target.value);
              setGroupId(e.target.value);
              setSites(g?.sites ?? []);
              setBatch(null);
              // Size charts are the group's: one chosen for another group's shop is not this one's.
              setOwnCharts({});
              setPicked((cur) =>
                Object.fromEntries(Object.entries(cur).map(([site, c]) => [site, { ...c, attrs: withoutChart(c.attrs) }])),
              );
            }}
            aria-label="店铺"
            data-testid="panel-group"
          >
            <option value="">选择店铺</option>
            {groups.map((g) => (
              <option key={g.groupId} value={g.groupId}>
                {g.name}
                {g.isCbt ? "（全球）" : ""}
              </option>
            ))}
          </select>
          {group ? (
            <div className="sites">
              {group.sites.map((s) => (
                <label key={s} className="check">
                  <input
                    type="checkbox"
                    checked={sites.includes(s)}
                    onChange={(e) => setSites(withSite(sites, s, e.target.checked))}
                    data-testid={`panel-site-${s}`}
                  />
                  {siteName(s)}
                </label>
              ))}
            </div>
          ) : null}
        </>
      ) : null}
      {globalMissing ? (
        <p className="notice warn small" data-testid="panel-category-hint">
          请在上方为「{siteName(sources[0].site)}」选择类目（全球店铺使用跨境 CBT 类目）。
        </p>
      ) : null}
      {group && !group.isCbt && sources.length ? (
        <div className="site-categories" data-testid="panel-site-categories">
          {sources.map(({ site, from }) =>
            from === "product" ? (
              <OwnSiteCategory
                key={site}
                site={site}
                groupId={group.groupId}
                category={category}
                product={product}
                value={ownCharts[site] ?? null}
                onChange={(c) => setOwnCharts((cur) => ({ ...cur, [site]: c }))}
              />
            ) : (
              <SiteCategoryPick
                key={site}
                site={site}
                groupId={group.groupId}
                product={product}
                value={picked[site] ?? null}
                titles={titles}
                onChange={(c) => setPicked((cur) => ({ ...cur, [site]: c }))}
              />
            ),
          )}
        </div>
      ) : null}
      {choice && dirty ? <p className="muted small">有未保存的修改：刊登前会先保存。</p> : null}
      {choice && preflight && !dirty ? <Preflight preflight={preflight} /> : null}
      {choice && (listed > 0 || allowDuplicate) ? (
        <label className="check small" title="该商品已在此店铺的站点刊登时，再刊登一份新的商品">
          <input
            type="checkbox"
            checked={allowDuplicate}
            onChange={(e) => setAllowDuplicate(e.target.checked)}
            data-testid="panel-allow-duplicate"
          />
          允许重复刊登
        </label>
      ) : null}
      {choice && group ? (
        <GtinReasonFields
          sites={gtinReasonSites(dirty ? null : preflight, group.isCbt, sites, gtinReasons)}
          siteName={siteName}
          value={gtinReasons}
          onChange={setGtinReasons}
        />
      ) : null}
      {choice ? (
        <button
          type="button"
          onClick={() => void submit()}
          disabled={busy || (!dirty && (!preflight || okPairs === 0)) || (!!batch && !final)}
          data-testid="panel-publish"
        >
          {busy ? "提交中…" : `刊登到 ${sites.map(siteName).join("、")}`}
        </button>
      ) : null}
      {error ? (
        <p className="notice error" role="alert">
          {error}
        </p>
      ) : null}
      {batch ? <Batch view={batch} final={final} /> : null}
    </Section>
  );
}

/** The attribute values without a size chart's. */
const withoutChart = (attrs: Record<string, AttrValue>) =>
  Object.fromEntries(Object.entries(attrs).filter(([id]) => !SIZE_CHART_ATTRIBUTES.has(id)));

/**
 * A local group's site in the product's own category (edited in the 类目 section): named, with the size chart its
 * category asks for (a fashion leaf on a marketplace site), chosen among the group's charts as for a picked category.
 */
function OwnSiteCategory({
  site,
  groupId,
  category,
  product,
  value,
  onChange,
}: {
  site: number;
  groupId: string;
  category: { cateId: string; name: string };
  product: ProductDetail;
  value: OwnChart | null;
  onChange: (c: OwnChart) => void;
}) {
  const ids = `panel-site${site}`;
  const { cateId } = category;
  const zhPath = useChinesePath(site, cateId);
  const [read, setRead] = useState<{ cateId: string; all: CategoryAttribute[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setError(null);
    sendMessage("getAttributes", { site, cateId }).then(
      (r) => live && setRead({ cateId, all: r.attributes }),
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [site, cateId]);
  const all = read?.cateId === cateId ? read.all : null;
  return (
    <div className="site-category" data-testid={`panel-site-category-${site}`} data-from="product">
      <p className="small">
        <b>{siteName(site)}</b> 使用商品类目：{zhPath ?? (category.name || cateId)}
      </p>
      {error ? <p className="error small">{error}</p> : null}
      {all && sizeChartAsked(all).chart ? (
        <SizeChartPick
          site={site}
          groupId={groupId}
          cateId={cateId}
          product={product}
          attributes={all}
          attrs={value?.cateId === cateId ? value.attrs : {}}
          onChange={(attrs) => onChange({ cateId, attrs })}
          ids={ids}
        />
      ) : null}
    </div>
  );
}

/** A local group's site without the product's category: its own category (推荐类目, the tree) and required attributes. */
function SiteCategoryPick({
  site,
  groupId,
  product,
  value,
  titles,
  onChange,
}: {
  site: number;
  groupId: string;
  product: ProductDetail;
  value: SiteCategory | null;
  titles: Record<string, string>;
  onChange: (c: SiteCategory) => void;
}) {
  const ids = `panel-site${site}`;
  const choose = (cateId: string, name: string) => onChange({ cateId, name, attrs: {} });
  const zhPath = useChinesePath(site, value?.cateId ?? "");
  /** The chosen category's attributes, once read (the size chart's are asked by its own field). */
  const [attributes, setAttributes] = useState<{ cateId: string; all: CategoryAttribute[] } | null>(null);
  const all = value?.cateId && attributes?.cateId === value.cateId ? attributes.all : null;
  return (
    <div className="site-category" data-testid={`panel-site-category-${site}`} data-from={value?.cateId ? "chosen" : "none"}>
      <p className="small">
        <b>{siteName(site)}</b>{" "}
        {value?.cateId ? (
          <span data-testid={`${ids}-category`} data-id={value.cateId}>
            {zhPath ?? (value.name || value.cateId)}
          </span>
        ) : (
          <span className="warn">未选择类目</span>
        )}
      </p>
      <div className="picks">
        <Predictions site={site} titles={titles} onChoose={choose} ids={ids} />
        <TreeSelect site={site} onChoose={choose} ids={ids} />
      </div>
      {value?.cateId ? (
        <Attributes
          key={value.cateId}
          site={site}
          cateId={value.cateId}
          values={value.attrs}
          variants={product.variants}
          onChange={(attrs) => onChange({ ...value, attrs })}
          onLoaded={(a) => setAttributes({ cateId: value.cateId, all: a })}
          ids={ids}
        />
      ) : null}
      {value?.cateId && all && sizeChartAsked(all).chart ? (
        <SizeChartPick
          site={site}
          groupId={groupId}
          cateId={value.cateId}
          product={product}
          attributes={all}
          attrs={value.attrs}
          onChange={(attrs) => onChange({ ...value, attrs })}
          ids={ids}
        />
      ) : null}
    </div>
  );
}

function Preflight({ preflight }: { preflight: PreflightResultView }) {
  return (
    <ul className="preflight" data-testid="panel-preflight">
      {preflight.pairs.map((p) => (
        <li key={p.site} data-testid="panel-preflight-row" data-site={p.site} data-ok={p.ok}>
          <b className={p.ok ? "ok" : "bad"}>
            {siteName(p.site)}：{p.ok ? "可以刊登" : "无法刊登"}
          </b>
          {p.title ? <span className="muted small"> {p.title}</span> : null}
          {p.problems.length ? (
            <ul>
              {p.problems.map((x, i) => (
                <li key={i} className={x.severity === "error" ? "bad small" : "warn small"}>
                  {x.message}
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function Batch({ view, final }: { view: BatchView; final: boolean }) {
  const b = view.batch;
  const percent = batchPercent(b);
  return (
    <div className="batch" data-testid="panel-batch" data-status={b.status} data-id={b.id} data-final={final}>
      <p>
        <b>{publishBatchStatusNames[b.status] ?? `状态 ${b.status}`}</b>{" "}
        <span data-testid="panel-batch-counts">
          共 {b.total} 条：成功 {b.success}，失败 {b.fail}，未发送 {b.skipped}
        </span>
      </p>
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label="刊登进度">
        <div style={{ width: `${percent}%` }} />
      </div>
      <ul className="listings">
        {view.listings.map((l) => (
          <li key={l.id} data-testid="panel-listing" data-site={l.site} data-status={l.status}>
            <span>{siteName(l.site)}</span>
            <span className={l.status === ListingStatus.Active ? "ok" : l.status === ListingStatus.Failed ? "bad" : ""}>
              {listingStatusNames[l.status] ?? l.status}
            </span>
            {l.permalink || l.itemId ? (
              <a href={l.permalink ?? itemUrl(l.site, l.itemId!)} target="_blank" rel="noreferrer" data-testid="panel-listing-link">
                {l.itemId ?? "查看"}
              </a>
            ) : l.reason ? (
              <span className="bad small">{l.reason}</span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
