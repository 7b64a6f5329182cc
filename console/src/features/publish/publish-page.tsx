// /proudcts/publish (spec §2, issue 15): publish products to a shop group's sites. The products come from the product
// list's selection (the platform store's tempProductIds) or are picked here; the shop group and its sites default to
// the platform store's defaultShop / defaultSite; per site a category and its attributes (a global-selling shop: one
// global CBT category for all its sites, as the publisher lists them), with 推荐类目; then the overrides (listing
// type, stock, weight and size, title and description affixes, warranty, freight, label, max count). 检查并预览 runs
// the pre-flight check and profit preview (nothing is sent); 提交刊登 sends the request and the batch fills in live.
import { Eye, Send, X } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import type { PreflightResultView, PublishResult } from "#shared/contract/publish.ts";
import { requestAttrsOf } from "#shared/publish/category-form.ts";
import { listedPairs } from "#shared/publish/duplicates.ts";
import { categorySitesOf, GLOBAL_SITE, withSite } from "#shared/publish/sites.ts";
import { listingTypeName } from "#shared/contract/names.ts";
import { listingTypes } from "#shared/contract/publish.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { Checkbox } from "#shared/ui/checkbox.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { SearchInput } from "#shared/ui/search-input.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { Switch } from "#shared/ui/switch.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { Thumb } from "../../components/list/thumb.tsx";
import { useAccountGroups } from "../../lib/account-groups.ts";
import { usePlatformStore, type SiteId } from "../../stores/platform.ts";
import { useLabels, useProductsByIds, useProductSearch } from "./api/get-publish-inputs.ts";
import { usePreflightPublish, usePublish, type PublishInput } from "./api/publish.ts";
import { BatchProgress } from "./batch-progress.tsx";
import { PreviewTable } from "./preview-table.tsx";
import { ProductAttrsDialog, type AttrsTarget } from "./product-attrs-dialog.tsx";
import { missingAttributes, previewRows, siteName } from "./publish-names.ts";
import { SiteCategoryForm, type SiteChoice } from "./site-category-form.tsx";

/** Mercado Libre's WARRANTY_TYPE values. */
const WARRANTY_TYPES = [
  { value: "none", label: "不提供保修" },
  { value: "2230280", label: "卖家保修" },
  { value: "2230279", label: "工厂保修" },
];
const NONE = "none";

type Options = {
  listingType: (typeof listingTypes)[number];
  stock: string;
  isForceReplaceStock: boolean;
  weight: string;
  size: string;
  isForceReplaceWeightAndSize: boolean;
  prefixTitle: string;
  suffixTitle: string;
  prefixDescription: string;
  suffixDescription: string;
  warrantType: string;
  warrantyDay: string;
  isContainsFreight: boolean;
  productLabel: string;
  maxProductCount: string;
  /** 允许重复刊登: publish again where the product is already listed on the shop's site. */
  isAllowDuplicate: boolean;
};

export const initialOptions: Options = {
  listingType: "gold_special",
  stock: "",
  isForceReplaceStock: false,
  weight: "",
  size: "",
  isForceReplaceWeightAndSize: false,
  prefixTitle: "",
  suffixTitle: "",
  prefixDescription: "",
  suffixDescription: "",
  warrantType: NONE,
  warrantyDay: "",
  isContainsFreight: false,
  productLabel: NONE,
  maxProductCount: "",
  isAllowDuplicate: false,
};

const num = (s: string) => (s.trim() === "" || !Number.isFinite(Number(s)) ? null : Number(s));

/** The pre-flight's missing attributes per form: a CBT shop's sites all point at the global category's form. */
export function missingByForm(missing: Map<number, Set<string>>, isCbt: boolean): Map<number, Set<string>> {
  if (!isCbt) return missing;
  const all = new Set([...missing.values()].flatMap((s) => [...s]));
  return all.size ? new Map([[GLOBAL_SITE, all]]) : new Map();
}

/** The publish request of the screen's state. */
export function toPublishRequest(p: {
  groupId: string;
  sites: SiteId[];
  /** Where the categories are chosen (shared/publish/sites.ts categorySitesOf; default the sites). */
  categorySites?: readonly number[];
  productIds: string[];
  choices: Partial<Record<SiteId, SiteChoice>>;
  options: Options;
}): PublishInput {
  const o = p.options;
  const categorySites: readonly number[] = p.categorySites ?? p.sites;
  const cateInfo = categorySites.flatMap((site) => {
    const c = p.choices[site as SiteId];
    return c?.cateId ? [{ site, cateId: c.cateId, attrs: requestAttrsOf(c.attrs, (v) => v.valueName) }] : [];
  });
  const stock = num(o.stock);
  const weight = num(o.weight);
  const max = num(o.maxProductCount);
  return {
    accountGroupId: p.groupId,
    sites: p.sites,
    productIds: p.productIds,
    cateInfo,
    listingType: o.listingType,
    ...(stock !== null ? { stock: Math.trunc(stock) } : {}),
    isForceReplaceStock: o.isForceReplaceStock,
    ...(weight !== null ? { weight } : {}),
    ...(o.size.trim() ? { size: o.size.trim() } : {}),
    isForceReplaceWeightAndSize: o.isForceReplaceWeightAndSize,
    isAllowDuplicate: o.isAllowDuplicate,
    ...(o.prefixTitle.trim() ? { prefixTitle: o.prefixTitle.trim() } : {}),
    ...(o.suffixTitle.trim() ? { suffixTitle: o.suffixTitle.trim() } : {}),
    ...(o.prefixDescription.trim() ? { prefixDescription: o.prefixDescription } : {}),
    ...(o.suffixDescription.trim() ? { suffixDescription: o.suffixDescription } : {}),
    ...(o.warrantType !== NONE ? { warrantType: o.warrantType, warrantyDay: Math.trunc(num(o.warrantyDay) ?? 0) } : {}),
    isContainsFreight: o.isContainsFreight,
    ...(o.productLabel !== NONE ? { productLabel: o.productLabel } : {}),
    ...(max !== null && max >= 1 ? { maxProductCount: Math.trunc(max) } : {}),
  };
}

function ProductPicker({ chosen, onAdd }: { chosen: Set<string>; onAdd: (id: string) => void }) {
  const [title, setTitle] = useState("");
  const search = useProductSearch(title, true);
  const items = (search.data?.items ?? []).filter((p) => !chosen.has(p.id));
  return (
    <div className="flex flex-col gap-2 rounded-md border p-2" data-testid="publish-picker">
      <SearchInput value={title} onSearch={setTitle} placeholder="按标题搜索商品" className="h-8" data-testid="publish-picker-search" />
      <ul className="flex max-h-56 flex-col overflow-auto text-sm">
        {items.length === 0 ? <li className="text-muted-foreground px-2 py-3 text-center">没有可添加的商品</li> : null}
        {items.map((p) => (
          <li key={p.id}>
            <button
              type="button"
              className="hover:bg-muted flex w-full items-center gap-2 rounded px-2 py-1 text-left"
              onClick={() => onAdd(p.id)}
              data-testid="publish-picker-item"
            >
              <Thumb src={p.image} alt={p.titleText} size={28} />
              <span className="line-clamp-1 flex-1">{p.titleText}</span>
              <span className="text-primary text-xs">添加</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Field({ label, children, htmlFor }: { label: string; children: React.ReactNode; htmlFor?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={htmlFor} className="text-xs">
        {label}
      </Label>
      {children}
    </div>
  );
}

export default function PublishPage({ route }: PageProps) {
  const tempProductIds = usePlatformStore((s) => s.tempProductIds);
  const setTempProductIds = usePlatformStore((s) => s.setTempProductIds);
  const defaultSite = usePlatformStore((s) => s.defaultSite);
  const defaultShop = usePlatformStore((s) => s.defaultShop);
  const setDefaults = usePlatformStore((s) => s.setDefaults);

  const [productIds, setProductIds] = useState<string[]>(tempProductIds);
  // A new selection sent from the product list replaces the one shown.
  useEffect(() => setProductIds(tempProductIds), [tempProductIds]);
  const products = useProductsByIds(productIds);
  const [picking, setPicking] = useState(false);

  const groups = useAccountGroups();
  const usable = useMemo(() => (groups.data?.groups ?? []).filter((g) => g.sites.length > 0), [groups.data]);
  const [groupId, setGroupId] = useState<string>("");
  const group = usable.find((g) => g.groupId === groupId) ?? null;
  const [sites, setSites] = useState<SiteId[]>([]);
  useEffect(() => {
    if (groupId || usable.length === 0) return;
    const first = usable.find((g) => g.groupId === defaultShop) ?? usable[0];
    setGroupId(first.groupId);
  }, [usable, groupId, defaultShop]);
  useEffect(() => {
    if (!group) return;
    const own = group.sites as SiteId[];
    const preferred = own.filter((s) => defaultSite.includes(s));
    setSites(preferred.length ? preferred : own);
  }, [group, defaultSite]);

  const [choices, setChoices] = useState<Partial<Record<SiteId, SiteChoice>>>({});
  const [options, setOptions] = useState<Options>(initialOptions);
  const set = <K extends keyof Options>(k: K, v: Options[K]) => setOptions((o) => ({ ...o, [k]: v }));
  const labels = useLabels();

  const [preview, setPreview] = useState<{ request: string; result: PreflightResultView } | null>(null);
  // 填写属性 on a product published in its own category (no category chosen above for its site).
  const [attrsTarget, setAttrsTarget] = useState<AttrsTarget | null>(null);
  const [batch, setBatch] = useState<PublishResult | null>(null);
  const preflight = usePreflightPublish();
  const publish = usePublish();

  const isCbt = !!group?.isCbt;
  const categorySites = categorySitesOf(isCbt, sites);
  const request = group ? toPublishRequest({ groupId: group.groupId, sites, categorySites, productIds, choices, options }) : null;
  const requestText = JSON.stringify(request);
  const previewCurrent = preview?.request === requestText;
  const rows = useMemo(() => (preview ? previewRows(preview.result.pairs) : []), [preview]);
  const listed = useMemo(() => (preview ? listedPairs(preview.result.pairs) : []), [preview]);
  const missing = useMemo(
    () => missingByForm(preview ? missingAttributes(preview.result.pairs) : new Map<number, Set<string>>(), isCbt),
    [preview, isCbt],
  );
  const ready = !!request && productIds.length > 0 && sites.length > 0;
  const formCategories = useMemo(
    () => Object.fromEntries(Object.entries(choices).map(([site, c]) => [site, c?.cateId ?? ""])) as Partial<Record<number, string>>,
    [choices],
  );

  function runPreflight() {
    if (!request) return;
    setBatch(null);
    preflight.mutate(request, { onSuccess: (result) => setPreview({ request: requestText, result }) });
  }

  function submit() {
    if (!request) return;
    publish.mutate(request, {
      onSuccess: (b) => {
        setBatch(b);
        setDefaults({ defaultShop: b.accountGroupId, defaultSite: sites });
        toast.success(`已提交刊登：${b.total} 条，${b.skipped} 条检查未通过不会发送`);
        if (b.notice) toast.warning(b.notice);
      },
    });
  }

  const chosen = new Set(productIds);
  const shown = products.data?.items ?? [];
  // 推荐类目 predicts from the first product shown.
  const sample = shown[0] ?? null;

  return (
    <Card data-testid="publish-page">
      <CardHeader className="border-b pb-4">
        <CardTitle>{route.meta.title}</CardTitle>
        <CardDescription>
          选择商品、店铺和站点，设置类目与属性后先“检查并预览”：每个商品在每个站点能否刊登、问题出在哪里、售价和利润，确认后再提交。
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5 pt-4">
        <section className="flex flex-col gap-2" aria-label="商品">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-sm font-medium">1. 商品</h3>
            <span className="text-muted-foreground text-sm" data-testid="publish-product-count" data-count={productIds.length}>
              已选择 {productIds.length} 个商品
            </span>
            <Button variant="outline" size="sm" onClick={() => setPicking((v) => !v)} data-testid="publish-pick">
              {picking ? "收起" : "添加商品"}
            </Button>
            {productIds.length > 0 ? (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  setProductIds([]);
                  setTempProductIds([]);
                }}
              >
                清空
              </Button>
            ) : null}
          </div>
          {productIds.length === 0 && !picking ? (
            <p className="text-muted-foreground text-sm">在商品列表中勾选商品后点击“刊登”，或点击“添加商品”在这里选择。</p>
          ) : null}
          {shown.length > 0 ? (
            <ul className="flex flex-wrap gap-2" data-testid="publish-products">
              {shown.map((p) => (
                <li key={p.id} className="bg-muted/40 flex max-w-72 items-center gap-2 rounded-md border py-1 pr-1 pl-1.5 text-xs">
                  <Thumb src={p.image} alt={p.titleText} size={28} />
                  <span className="line-clamp-2 flex-1" title={p.titleText}>
                    {p.titleText}
                  </span>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-6"
                    aria-label={`移除 ${p.titleText}`}
                    onClick={() => setProductIds((ids) => ids.filter((id) => id !== p.id))}
                  >
                    <X />
                  </Button>
                </li>
              ))}
            </ul>
          ) : null}
          {picking ? <ProductPicker chosen={chosen} onAdd={(id) => setProductIds((ids) => [...ids, id])} /> : null}
        </section>

        <section className="flex flex-col gap-2" aria-label="店铺与站点">
          <h3 className="text-sm font-medium">2. 店铺与站点</h3>
          {groups.data && usable.length === 0 ? (
            <p className="text-muted-foreground text-sm">还没有可用的店铺：请先在店铺列表授权店铺。</p>
          ) : null}
          <div className="flex flex-wrap items-center gap-4">
            <Select
              value={groupId}
              onValueChange={(v) => {
                setGroupId(v);
                setChoices({});
              }}
            >
              <SelectTrigger className="w-64" aria-label="店铺" data-testid="publish-shop">
                <SelectValue placeholder="选择店铺" />
              </SelectTrigger>
              <SelectContent>
                {usable.map((g) => (
                  <SelectItem key={g.groupId} value={g.groupId} data-testid={`publish-shop-${g.groupId}`}>
                    {g.alias || g.name}
                    {g.isCbt ? "（跨境）" : ""}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            {group?.sites.map((s) => {
              const site = s as SiteId;
              return (
                <label key={site} className="flex items-center gap-1.5 text-sm">
                  <Checkbox
                    checked={sites.includes(site)}
                    onCheckedChange={(on) => setSites((cur) => withSite(cur, site, on === true))}
                    data-testid={`publish-site-check-${site}`}
                  />
                  {siteName(site)}
                </label>
              );
            })}
          </div>
        </section>

        {categorySites.length > 0 ? (
          <section className="flex flex-col gap-2" aria-label="类目与属性">
            <h3 className="text-sm font-medium">3. 类目与属性</h3>
            {categorySites.map((site) => (
              <SiteCategoryForm
                key={site}
                site={site}
                value={choices[site] ?? { cateId: "", cateName: "", attrs: {} }}
                missing={missing.get(site)}
                sample={sample}
                accountGroupId={groupId}
                productIds={productIds}
                note={isCbt ? `跨境店铺用一个全球类目刊登到：${sites.map(siteName).join("、")}` : undefined}
                onChange={(c) => setChoices((cur) => ({ ...cur, [site]: c }))}
              />
            ))}
          </section>
        ) : null}

        <section className="flex flex-col gap-3" aria-label="刊登设置">
          <h3 className="text-sm font-medium">4. 刊登设置</h3>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <Field label="刊登类型">
              <Select value={options.listingType} onValueChange={(v) => set("listingType", v as Options["listingType"])}>
                <SelectTrigger className="h-8" data-testid="publish-listing-type">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {listingTypes.map((t) => (
                    <SelectItem key={t} value={t}>
                      {listingTypeName(t)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </Field>
            <Field label="库存" htmlFor="publish-stock">
              <div className="flex items-center gap-2">
                <Input
                  id="publish-stock"
                  className="h-8"
                  inputMode="numeric"
                  value={options.stock}
                  onChange={(e) => set("stock", e.target.value)}
                  placeholder="默认用商品库存"
                  data-testid="publish-stock"
                />
                <label className="flex shrink-0 items-center gap-1 text-xs">
                  <Switch checked={options.isForceReplaceStock} onCheckedChange={(v) => set("isForceReplaceStock", v)} />
                  强制替换
                </label>
              </div>
            </Field>
            <Field label="重量（克）/ 尺寸（长x宽x高 厘米）" htmlFor="publish-weight">
              <div className="flex items-center gap-2">
                <Input
                  id="publish-weight"
                  className="h-8 w-24"
                  inputMode="decimal"
                  value={options.weight}
                  onChange={(e) => set("weight", e.target.value)}
                  placeholder="重量"
                  data-testid="publish-weight"
                />
                <Input
                  className="h-8"
                  value={options.size}
                  onChange={(e) => set("size", e.target.value)}
                  placeholder="如 20x15x10"
                  aria-label="尺寸"
                  data-testid="publish-size"
                />
                <label className="flex shrink-0 items-center gap-1 text-xs">
                  <Switch
                    checked={options.isForceReplaceWeightAndSize}
                    onCheckedChange={(v) => set("isForceReplaceWeightAndSize", v)}
                    data-testid="publish-force-size"
                  />
                  强制替换
                </label>
              </div>
            </Field>
            <Field label="保修">
              <div className="flex items-center gap-2">
                <Select value={options.warrantType} onValueChange={(v) => set("warrantType", v)}>
                  <SelectTrigger className="h-8" data-testid="publish-warranty-type">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {WARRANTY_TYPES.map((w) => (
                      <SelectItem key={w.value} value={w.value}>
                        {w.label}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <Input
                  className="h-8 w-24"
                  inputMode="numeric"
                  value={options.warrantyDay}
                  disabled={options.warrantType === NONE}
                  onChange={(e) => set("warrantyDay", e.target.value)}
                  placeholder="天数"
                  aria-label="保修天数"
                  data-testid="publish-warranty-days"
                />
              </div>
            </Field>
            <Field label="标题前缀 / 后缀">
              <div className="flex gap-2">
                <Input
                  className="h-8"
                  maxLength={60}
                  value={options.prefixTitle}
                  onChange={(e) => set("prefixTitle", e.target.value)}
                  placeholder="前缀"
                  aria-label="标题前缀"
                />
                <Input
                  className="h-8"
                  maxLength={60}
                  value={options.suffixTitle}
                  onChange={(e) => set("suffixTitle", e.target.value)}
                  placeholder="后缀"
                  aria-label="标题后缀"
                />
              </div>
            </Field>
            <Field label="给商品打标签">
              <Select value={options.productLabel} onValueChange={(v) => set("productLabel", v)}>
                <SelectTrigger className="h-8" data-testid="publish-label">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={NONE}>不打标签</SelectItem>
                  {(labels.data?.labels ?? []).map((l) => (
                    <SelectItem key={l.id} value={l.id}>
                      {l.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </Field>
            <Field label="最多刊登商品数" htmlFor="publish-max">
              <Input
                id="publish-max"
                className="h-8"
                inputMode="numeric"
                value={options.maxProductCount}
                onChange={(e) => set("maxProductCount", e.target.value)}
                placeholder="不限"
              />
            </Field>
            <Field label="运费">
              <label className="flex h-8 items-center gap-2 text-sm">
                <Switch
                  checked={options.isContainsFreight}
                  onCheckedChange={(v) => set("isContainsFreight", v)}
                  data-testid="publish-freight"
                />
                售价包含运费
              </label>
            </Field>
            <Field label="重复刊登">
              <label className="flex h-8 items-center gap-2 text-sm">
                <Checkbox
                  checked={options.isAllowDuplicate}
                  onCheckedChange={(v) => set("isAllowDuplicate", v === true)}
                  data-testid="publish-allow-duplicate"
                />
                允许重复刊登（已在此店铺站点刊登的商品再刊登一份）
              </label>
            </Field>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="描述开头" htmlFor="publish-desc-prefix">
              <Textarea
                id="publish-desc-prefix"
                rows={2}
                maxLength={5000}
                value={options.prefixDescription}
                onChange={(e) => set("prefixDescription", e.target.value)}
              />
            </Field>
            <Field label="描述结尾" htmlFor="publish-desc-suffix">
              <Textarea
                id="publish-desc-suffix"
                rows={2}
                maxLength={5000}
                value={options.suffixDescription}
                onChange={(e) => set("suffixDescription", e.target.value)}
              />
            </Field>
          </div>
        </section>

        <div className="flex flex-wrap items-center gap-2 border-t pt-4">
          <Button variant="outline" disabled={!ready} loading={preflight.isPending} onClick={runPreflight} data-testid="publish-preflight">
            <Eye />
            检查并预览
          </Button>
          <Button
            disabled={!ready || !previewCurrent || preview.result.ok === 0 || !!batch}
            loading={publish.isPending}
            onClick={submit}
            data-testid="publish-submit"
          >
            <Send />
            提交刊登
          </Button>
          {preview && !previewCurrent ? <span className="text-warning text-sm">设置已改动，请重新检查</span> : null}
          {preview ? (
            <span className="text-muted-foreground ml-auto text-sm" data-testid="publish-preview-summary">
              可刊登 <b className="text-success tabular-nums">{preview.result.ok}</b> 条，不会发送{" "}
              <b className="text-destructive tabular-nums">{preview.result.refused}</b> 条
              {preview.result.selected > productIds.length ? `（共选中 ${preview.result.selected} 个商品）` : ""}
            </span>
          ) : null}
        </div>

        {preview && previewCurrent && listed.length ? <ListedNotice pairs={listed} allowed={options.isAllowDuplicate} /> : null}
        {batch ? <BatchProgress submitted={batch} /> : null}
        {preview ? (
          <PreviewTable
            rows={rows}
            formSite={isCbt ? GLOBAL_SITE : null}
            formCategories={formCategories}
            onFixAttributes={setAttrsTarget}
          />
        ) : null}
        <ProductAttrsDialog target={attrsTarget} onClose={() => setAttrsTarget(null)} onSaved={runPreflight} />
      </CardContent>
    </Card>
  );
}

/** The pre-flight's products already listed on the shop's sites: skipped unless 允许重复刊登 is ticked. */
function ListedNotice({
  pairs,
  allowed,
}: {
  pairs: ReturnType<typeof listedPairs<PreflightResultView["pairs"][number]>>;
  allowed: boolean;
}) {
  return (
    <div className="border-warning/40 bg-warning/5 flex flex-col gap-1 rounded-md border p-3 text-sm" data-testid="publish-already-listed">
      <p className="font-medium">
        {pairs.length} 个商品站点已在此店铺刊登，{allowed ? "将再刊登一份" : "不会重复刊登；如需再刊登一份，请勾选“允许重复刊登”"}
      </p>
      <ul className="text-muted-foreground flex flex-col gap-0.5">
        {pairs.slice(0, 20).map((p) => (
          <li key={`${p.productId}-${p.site}`} className="truncate">
            {siteName(p.site as SiteId)} · {p.productTitle}：{p.listedReason}
          </li>
        ))}
        {pairs.length > 20 ? <li>…共 {pairs.length} 个</li> : null}
      </ul>
    </div>
  );
}
