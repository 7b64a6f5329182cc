// The pre-flight check (issue 15): for one product × site, everything Mercado Libre would refuse, found from the cached
// category rules before any API call, each with a Chinese message and where to fix it. Errors skip the pair; warnings
// (a title to cut, a title to translate, pictures over the maximum, a price raised to the shop's minimum, a loss or a
// margin under the shop's minimum margin: margin.ts) do not.
// Pure: no server or DOM imports; the publisher, the publish screen and the benchmark call the same function.
import { CategoryAttributeModelType, type CategoryAttribute, type MeliCategory } from "../contract/category.ts";
import { siteLanguage, type MeliSiteNumber, type SiteLanguage } from "../contract/meli.ts";
import type { PublishRequest } from "../contract/publish.ts";
import { SIZE_GRID_ID, SIZE_GRID_ROW_ID } from "../contract/size-charts.ts";
import { EMPTY_GTIN_REASON, GTIN_SHORTAGE, gtinCodesNeeded, takesGtinReason } from "./gtin-rule.ts";
import { MARGIN_PROBLEM_CODES, marginStatus, marginWarning } from "./margin.ts";
import { formatMoney, sitePrice, toMinor, type Decimal, type PriceBreakdown, type SitePriceInput } from "./price.ts";
import { fold, variantAttributes, variationAttributeOf } from "./variations.ts";
import { isGlobalSite } from "./sites.ts";

// Moved to variations.ts (the attribute forms use them without the pre-flight); the publisher imports them from here.
export { variationAttributeOf };

/** Where the seller fixes a problem: the product editor, one attribute, the shop's rules, the GTIN pool, … */
type FixHint = "product" | `attribute:${string}` | "shop" | "gtin" | "category" | "settings" | "request";

export type PreflightProblem = {
  code: string;
  severity: "error" | "warning";
  /** The field at fault (title, images, attributes.BRAND, …), null for the pair as a whole. */
  field: string | null;
  message: string;
  fix: FixHint;
};

export type PreflightProduct = {
  /** Titles and descriptions by language (zh, en, es, pt). */
  title: Record<string, string>;
  description?: Record<string, string>;
  price: Decimal | null;
  currency: string | null;
  images: readonly string[];
  /**
   * The pictures' pixel sizes as probed (image_sizes): a size, null when the probe failed; a picture absent from the
   * map was not probed. Without the map the size rule is not checked.
   */
  imageSizes?: ReadonlyMap<string, { width: number; height: number } | null>;
  /** Grams. */
  weight: Decimal | null;
  /** Centimetres "LxWxH". */
  size: string | null;
  brand?: string | null;
  /** Option names (keys) and values in option order, with the variant's own GTIN when it has one. */
  variants: readonly { sku: string | null; keys: readonly string[]; values: readonly string[]; gtin?: string | null }[];
  /** The product's category attribute values (cateInfo.attrs). */
  attrs: readonly { nameId: string; valueId?: string | null; value?: string | null }[];
};

/** The category row as stored (numeric columns may come as strings). */
export type PreflightCategory = Pick<MeliCategory, "cateId" | "isLeaf" | "listingAllowed" | "maxTitleLength" | "maxPictures"> & {
  name?: string;
  meliStatus?: string;
  enable?: boolean;
  minimumPrice: Decimal | null;
  currency: string | null;
  classicFee: Decimal | null;
  premiumFee: Decimal | null;
};

/** The publish request's overrides that matter here, and its attribute values for this site's category. */
export type PreflightRequest = Partial<
  Pick<
    PublishRequest,
    "prefixTitle" | "suffixTitle" | "weight" | "size" | "brand" | "isForceReplaceWeightAndSize" | "isContainsFreight" | "listingType"
  >
> & { attrs?: readonly { id: string; valueId?: string | null; valueName?: string | null }[] };

export type PreflightPair = {
  product: PreflightProduct;
  site: MeliSiteNumber;
  /** A global-selling shop (site 5 always is). */
  isCbt?: boolean;
  /** The category row, null when the category is unknown or not chosen. */
  category: PreflightCategory | null;
  /** The category's attributes as stored (meli_category_attributes.attributes). */
  attributes: readonly CategoryAttribute[];
  shop: SitePriceInput["shop"];
  /** The shop's minimum margin in % of the price (meli_accounts.min_margin; not set: margin.ts DEFAULT_MIN_MARGIN). */
  minMargin?: Decimal | null;
  rates: SitePriceInput["rates"];
  request: PreflightRequest;
  translationConfigured: boolean;
  /** Unused codes left in the tenant's GTIN pool. */
  gtinAvailable: number;
  fixedFee?: SitePriceInput["fixedFee"];
  listingFee?: SitePriceInput["listingFee"];
  /** listing_prices' percentage and where the fees came from ("category": they could not be read, a warning). */
  feePercent?: SitePriceInput["feePercent"];
  feeSource?: SitePriceInput["feeSource"];
  freight?: SitePriceInput["freight"];
  /**
   * The shop group's size charts on this site (PullMeliChart): given, the chosen chart must be one of them and its rows
   * must cover the variants' sizes. Without them only the choice itself is checked.
   */
  sizeCharts?: readonly PreflightSizeChart[];
};

/** A shop group's size chart as stored (meli_size_charts): each row's id and its main attribute's value(s). */
export type PreflightSizeChart = {
  chartId: string;
  name: string;
  mainAttributeId: string | null;
  rows: readonly { id: string; label: string }[];
};

export type PreflightResult = {
  /** No errors: the pair can be sent. */
  ok: boolean;
  problems: PreflightProblem[];
  /** The price breakdown (null when it cannot be computed). */
  price: PriceBreakdown | null;
  language: SiteLanguage;
  /** The title to send (prefix and suffix applied, cut to the maximum); null until translated. */
  title: string | null;
  /** GTIN codes the pair takes from the pool. */
  gtinNeeded: number;
};

const LANGUAGE_NAMES: Record<SiteLanguage, string> = { es: "西班牙语", pt: "葡萄牙语", en: "英语" };
/** Global selling's package rules (MERCADO-LIBRE.md): each side ≥ 3 cm, weight ≥ 50 g. */
const CBT_MIN_SIDE_CM = 3;
const CBT_MIN_WEIGHT_G = 50;

/** Mercado Libre's smallest picture (MERCADO-LIBRE.md "Pictures": ≥ 500 px on a side): the longer side must reach it. */
export const MIN_PICTURE_PX = 500;

/** A picture known to be too small (an unknown size is not): its longer side is under MIN_PICTURE_PX. */
const pictureTooSmall = (size: { width: number; height: number } | null | undefined) =>
  !!size && Math.max(size.width, size.height) < MIN_PICTURE_PX;

/** The pictures to send, in order, each once: those not known to be too small. */
export function usablePictures(images: readonly string[], sizes?: PreflightProduct["imageSizes"]): string[] {
  const out = [...new Set(images)];
  return sizes ? out.filter((url) => !pictureTooSmall(sizes.get(url))) : out;
}

/**
 * The title cut to at most `max` characters at a word boundary (a word longer than the whole limit is cut hard);
 * trailing spaces and separators are dropped.
 */
export function cutTitle(title: string, max: number): string {
  const chars = [...title.trim()];
  if (chars.length <= max) return chars.join("");
  const head = chars.slice(0, max + 1).join("");
  const boundary = head.search(/\s\S*$/);
  const cut = boundary > 0 ? head.slice(0, boundary) : chars.slice(0, max).join("");
  return cut.replace(/[\s,.;:/|+&-]+$/u, "");
}

/** The title with the request's prefix and suffix, one space between non-empty parts. */
export const framedTitle = (title: string, prefix?: string | null, suffix?: string | null) =>
  [prefix, title, suffix]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(" ");

/** The package to send: the request's weight and size replace the product's when forced, else fill in what is missing. */
export function packageOf(product: Pick<PreflightProduct, "weight" | "size">, request: PreflightRequest) {
  const force = request.isForceReplaceWeightAndSize === true;
  const weightSource = force && request.weight != null ? request.weight : (product.weight ?? request.weight ?? null);
  const sizeSource = force && request.size ? request.size : product.size || request.size || null;
  const weight = weightSource == null || weightSource === "" ? null : Number(weightSource);
  const sides = sizeSource
    ? sizeSource
        .trim()
        .split(/\s*[xX*×]\s*/)
        .map(Number)
    : null;
  return {
    weight: weight !== null && Number.isFinite(weight) ? weight : null,
    sides: sides && sides.length === 3 && sides.every((n) => Number.isFinite(n)) ? sides : null,
  };
}

/**
 * Each variant's row of the size chart, when the variants differ by the chart's main attribute (SIZE): the row whose
 * label is the variant's value for it (null when the chart has none). Null when they do not (a plain item, or variants
 * by colour only): the item's own chosen row then stands for every unit.
 */
export function variantSizeRows(
  chart: PreflightSizeChart,
  variants: readonly { keys: readonly string[]; values: readonly string[] }[],
  attributes: readonly CategoryAttribute[],
): { value: string; rowId: string | null }[] | null {
  if (!chart.mainAttributeId || variants.length <= 1) return null;
  const at = variants.map((v) => v.keys.findIndex((k) => variationAttributeOf(k, attributes)?.id === chart.mainAttributeId));
  if (at.some((i) => i < 0)) return null;
  return variants.map((v, n) => {
    const value = v.values[at[n]] ?? "";
    const row = chart.rows.find((r) => r.label.split(" / ").some((l) => fold(l) === fold(value)));
    return { value, rowId: row?.id ?? null };
  });
}

/** Attributes another part of the listing fills: package (checked apart), GTIN (the pool), condition (always new). */
const FILLED_ELSEWHERE = new Set([
  "PACKAGE_LENGTH",
  "PACKAGE_WIDTH",
  "PACKAGE_HEIGHT",
  "PACKAGE_WEIGHT",
  "GTIN",
  // The GTIN rule below (a reason is asked where the pool falls short, not as a conditional attribute).
  EMPTY_GTIN_REASON,
  "ITEM_CONDITION",
  // The size chart rule below.
  SIZE_GRID_ID,
  SIZE_GRID_ROW_ID,
]);

/** Every problem of one product × site, and the price and title it would be sent with. */
export function preflight(pair: PreflightPair): PreflightResult {
  const { product, site, category, attributes, request } = pair;
  const isCbt = isGlobalSite(site) || pair.isCbt === true;
  const problems: PreflightProblem[] = [];
  const add = (severity: PreflightProblem["severity"], code: string, field: string | null, message: string, fix: FixHint) =>
    problems.push({ code, severity, field, message, fix });
  const language = siteLanguage(site);

  // The category.
  const categoryName = category ? (category.name ?? category.cateId) : "";
  // Whether the variation and attribute checks below can speak of the category: a chosen, live leaf. Before that the
  // seller has one thing to do (choose a category), not a list of what an unchosen category lacks.
  const categoryChosen = !!category && category.meliStatus !== "removed" && category.enable !== false && category.isLeaf;
  if (!category) add("error", "category.missing", "category", "未选择类目，或类目不在本站点的类目中", "category");
  else if (category.meliStatus === "removed" || category.enable === false)
    add("error", "category.removed", "category", `类目「${categoryName}」已停用或已被美客多移除，请重新选择类目`, "category");
  else if (!category.isLeaf)
    add("error", "category.notLeaf", "category", `类目「${categoryName}」不是末级类目，请选择末级类目`, "category");
  else if (!category.listingAllowed)
    add("error", "category.notAllowed", "category", `美客多不允许在类目「${categoryName}」下发布商品`, "category");

  // Attributes: a value from the product's category attributes or the request's, or from the field that fills it.
  const given = new Set<string>();
  for (const a of product.attrs) if (a.valueId?.trim() || a.value?.trim()) given.add(a.nameId);
  for (const a of request.attrs ?? []) if (a.valueId?.trim() || a.valueName?.trim()) given.add(a.id);
  if ((request.brand ?? product.brand)?.trim()) given.add("BRAND");
  const variants = product.variants.filter((v) => v.keys.length > 0);
  if (product.variants.length > 0 && product.variants.every((v) => v.sku?.trim())) given.add("SELLER_SKU");

  // Variations (two or more variants; one is sent as a plain item): each option name must stand for one of the
  // category's variation attributes.
  const variationAttrs = attributes.filter((a) => a.modelType === CategoryAttributeModelType.Variation);
  // What the variants carry is given whatever the category's state; the variation problems wait for a chosen category.
  if (variants.length > 1) for (const id of variantAttributes(variants, attributes)) given.add(id);
  if (!categoryChosen) {
    // nothing to map the variants to yet
  } else if (variants.length > 1 && variationAttrs.length === 0) {
    add("error", "variation.unsupported", "variants", `类目不支持多规格，商品有${variants.length}个规格`, "category");
  } else if (variants.length > 1) {
    for (const key of new Set(variants.flatMap((v) => v.keys)))
      if (!variationAttributeOf(key, attributes))
        add(
          "error",
          "variation.unmapped",
          "variants",
          `规格「${key}」无法对应类目的变体属性（${variationAttrs.map(nameOf).join("、")}）`,
          "product",
        );
    const combos = new Set<string>();
    for (const v of variants) {
      const combo = v.values.join("\u0000");
      if (combos.has(combo)) {
        add("error", "variation.duplicate", "variants", `规格组合「${v.values.join(" / ")}」重复`, "product");
        break;
      }
      combos.add(combo);
    }
  }

  const valueOf = (id: string) => product.attrs.find((a) => a.nameId === id) ?? null;
  for (const a of attributes) {
    // A value id must be one of the attribute's values (a list's, or a string's suggested values: Mercado Libre refuses
    // an unknown id on both), also for the attributes filled elsewhere, since a value the seller gave is sent as given.
    const chosen = (request.attrs ?? []).find((r) => r.id === a.id)?.valueId ?? valueOf(a.id)?.valueId;
    if (chosen && a.values.length > 0 && !a.values.some((v) => v.id === chosen))
      add("error", "attribute.invalidValue", `attributes.${a.id}`, `属性「${nameOf(a)}」的值不在可选值中`, `attribute:${a.id}`);
    if (a.modelType === CategoryAttributeModelType.Hidden || FILLED_ELSEWHERE.has(a.id)) continue;
    const required = a.isRequired || a.tags.includes("required");
    if (!given.has(a.id)) {
      if (required) add("error", "attribute.required", `attributes.${a.id}`, `缺少必填属性「${nameOf(a)}」`, `attribute:${a.id}`);
      else if (a.tags.includes("conditional_required"))
        add(
          "warning",
          "attribute.conditional",
          `attributes.${a.id}`,
          `属性「${nameOf(a)}」在某些条件下为必填，建议填写`,
          `attribute:${a.id}`,
        );
    }
  }

  // Size chart (fashion categories whose attributes have SIZE_GRID_ID): a chart of the shop's is chosen; variants that
  // differ by the chart's size each find their row in it (sent on each variation); otherwise (a plain item, variants by
  // colour only) the item's own row is chosen where the category asks for SIZE_GRID_ROW_ID.
  if (attributes.some((a) => a.id === SIZE_GRID_ID)) {
    const chosen = (id: string) => {
      const r = (request.attrs ?? []).find((x) => x.id === id);
      const p = valueOf(id);
      return r?.valueName?.trim() || r?.valueId?.trim() || p?.value?.trim() || p?.valueId?.trim() || null;
    };
    const chartId = chosen(SIZE_GRID_ID);
    const chart = chartId ? pair.sizeCharts?.find((c) => c.chartId === chartId) : undefined;
    const rows = chart ? variantSizeRows(chart, variants, attributes) : null;
    const asksRow = attributes.some((a) => a.id === SIZE_GRID_ROW_ID);
    const rowId = chosen(SIZE_GRID_ROW_ID);
    if (!chartId)
      add(
        "error",
        "sizeChart.missing",
        `attributes.${SIZE_GRID_ID}`,
        "该类目需要尺码表：请在刊登页为此类目选择店铺的尺码表（没有可选的尺码表时先同步尺码表）",
        `attribute:${SIZE_GRID_ID}`,
      );
    else if (pair.sizeCharts && !chart)
      add(
        "error",
        "sizeChart.unknown",
        `attributes.${SIZE_GRID_ID}`,
        `所选尺码表（${chartId}）不是此店铺在该站点的尺码表：请先同步尺码表，再重新选择`,
        `attribute:${SIZE_GRID_ID}`,
      );
    else if (rows) {
      const unmatched = [...new Set(rows.filter((r) => !r.rowId).map((r) => r.value))];
      if (unmatched.length)
        add(
          "error",
          "sizeChart.rowUnmatched",
          "variants",
          `尺码表「${chart!.name}」中没有尺码「${unmatched.join("、")}」对应的尺码行：请在美客多补充尺码表后重新同步，或选择其他尺码表`,
          `attribute:${SIZE_GRID_ID}`,
        );
    } else if ((variants.length <= 1 || chart) && asksRow && !rowId)
      add(
        "error",
        "sizeChart.rowMissing",
        `attributes.${SIZE_GRID_ROW_ID}`,
        "已选择尺码表，但未选择商品对应的尺码行",
        `attribute:${SIZE_GRID_ROW_ID}`,
      );
    else if (chart && rowId && !chart.rows.some((r) => r.id === rowId))
      add(
        "error",
        "sizeChart.rowUnknown",
        `attributes.${SIZE_GRID_ROW_ID}`,
        `所选尺码行不在尺码表「${chart.name}」中，请重新选择`,
        `attribute:${SIZE_GRID_ROW_ID}`,
      );
  }

  // GTIN: one code from the pool per variant (or for the product) that has none of its own, unless the category takes
  // the reason why there is none (gtin-rule.ts); where it does, the problem names that field too.
  const gtinNeeded = gtinCodesNeeded(attributes, product.variants, given);
  if (gtinNeeded > pair.gtinAvailable) {
    const orReason = takesGtinReason(attributes);
    add(
      "error",
      GTIN_SHORTAGE,
      orReason ? `attributes.${EMPTY_GTIN_REASON}` : "gtin",
      (pair.gtinAvailable === 0
        ? `类目要求GTIN，需要${gtinNeeded}个，GTIN码池已空`
        : `类目要求GTIN，需要${gtinNeeded}个，码池只剩${pair.gtinAvailable}个`) + (orReason ? "；商品没有条码时也可选择无条码原因" : ""),
      "gtin",
    );
  }

  // Price: the formula, the category's minimum, the shop's limits.
  const priced = sitePrice({
    site,
    isCbt,
    price: product.price,
    currency: product.currency,
    rates: pair.rates,
    shop: pair.shop,
    category: { classicFee: category?.classicFee ?? null, premiumFee: category?.premiumFee ?? null },
    listingType: request.listingType ?? "gold_special",
    fixedFee: pair.fixedFee,
    listingFee: pair.listingFee,
    feePercent: pair.feePercent,
    feeSource: pair.feeSource,
    isContainsFreight: request.isContainsFreight,
    freight: pair.freight,
  });
  const price = priced.ok ? priced.price : null;
  // Freight comes from the site's freight rules by weight; none known means the price cannot include it (never 0).
  if (request.isContainsFreight && (pair.freight === null || pair.freight === undefined))
    add(
      "error",
      "freight.unknown",
      "freight",
      "运费未知：该站点没有覆盖此重量的运费规则，无法把运费计入售价（可关闭“售价包含运费”）",
      "settings",
    );
  if (priced.ok && pair.feeSource === "category" && request.listingType !== "free")
    add("warning", "fee.estimated", "price", "未能读取平台费用，按类目费率估算", "category");
  if (!priced.ok) {
    if (category || priced.code !== "fee.missing") add("error", priced.code, "price", priced.message, priced.fix);
  } else {
    const p = priced.price;
    const show = (minor: number) => `${formatMoney(minor, p.currency)} ${p.currency}`;
    const min = toMinor(category?.minimumPrice, p.currency);
    if (min !== null && (!category?.currency || category.currency === p.currency)) {
      if (p.buyerPrice < min) add("error", "price.belowMinimum", "price", `售价${show(p.buyerPrice)}低于类目最低价${show(min)}`, "product");
    }
    if (p.limit === "overMax")
      add(
        "error",
        "price.overLimit",
        "price",
        `售价${show(p.price)}高于店铺最高限价${show(toMinor(pair.shop.limitMaxPrice, p.currency) ?? 0)}`,
        "shop",
      );
    if (p.limit === "raisedToMin") add("warning", "price.raisedToMin", "price", `售价已按店铺最低限价调整为${show(p.price)}`, "shop");
    // A loss or a margin under the shop's minimum: a warning (shown in red), the seller may still publish.
    const status = marginStatus(p.margin, p.buyerPrice, pair.minMargin);
    const warning = marginWarning(status, p.marginPercent, pair.minMargin);
    if (warning && status !== "ok") add("warning", MARGIN_PROBLEM_CODES[status], "price", warning, "shop");
  }

  // Title in the site's language, framed by the request's prefix and suffix, cut at a word boundary.
  let title: string | null = null;
  const own = product.title[language]?.trim();
  if (!own) {
    if (pair.translationConfigured)
      add("warning", "title.translate", "title", `商品没有${LANGUAGE_NAMES[language]}标题，将通过翻译服务生成`, "product");
    else add("error", "title.missing", "title", `商品没有${LANGUAGE_NAMES[language]}标题，且未配置翻译服务`, "product");
  } else {
    title = framedTitle(own, request.prefixTitle, request.suffixTitle);
    const max = category?.maxTitleLength;
    if (max && [...title].length > max) {
      title = cutTitle(title, max);
      add("warning", "title.cut", "title", `标题超过${max}个字符，将在单词边界截断为：${title}`, "product");
    }
  }

  // Pictures: those known to be under 500 px are left out (a warning); none left is an error. An unknown size is not
  // held against a picture; one the probe could not read (a dead link, not an image) gets one warning per pair.
  const distinct = new Set(product.images).size;
  const pictures = product.imageSizes ? usablePictures(product.images, product.imageSizes).length : distinct;
  if (product.imageSizes && distinct > 0) {
    const sizes = product.imageSizes;
    let unknown = 0;
    for (const url of new Set(product.images)) if (sizes.get(url) === null) unknown++;
    if (pictures === 0) add("error", "pictures.tooSmall", "images", `图片尺寸均小于${MIN_PICTURE_PX}像素，没有可发布的图片`, "product");
    else if (pictures < distinct)
      add("warning", "pictures.small", "images", `图片尺寸小于${MIN_PICTURE_PX}像素，已跳过${distinct - pictures}张`, "product");
    if (unknown > 0)
      add("warning", "pictures.unknownSize", "images", `图片尺寸未知：${unknown}张图片无法读取（链接失效或不是图片）`, "product");
  }
  if (distinct === 0) add("error", "pictures.none", "images", "商品没有图片", "product");
  else if (category?.maxPictures && pictures > category.maxPictures)
    add(
      "warning",
      "pictures.max",
      "images",
      `图片${pictures}张，超过类目上限${category.maxPictures}张，只发布前${category.maxPictures}张`,
      "product",
    );

  // The package.
  const pkg = packageOf(product, request);
  if (!pkg.weight || pkg.weight <= 0) add("error", "package.weight", "weight", "缺少重量", "product");
  else if (isCbt && pkg.weight < CBT_MIN_WEIGHT_G)
    add("error", "package.weight", "weight", `跨境商品重量须不少于${CBT_MIN_WEIGHT_G}克，当前${pkg.weight}克`, "product");
  if (!pkg.sides || pkg.sides.some((n) => n <= 0)) add("error", "package.size", "size", "缺少包装尺寸（长x宽x高，厘米）", "product");
  else if (isCbt && pkg.sides.some((n) => n < CBT_MIN_SIDE_CM))
    add("error", "package.size", "size", `跨境商品包装每边须不少于${CBT_MIN_SIDE_CM}厘米，当前${pkg.sides.join("x")}`, "product");

  return { ok: !problems.some((p) => p.severity === "error"), problems, price, language, title, gtinNeeded };
}

const nameOf = (a: Pick<CategoryAttribute, "name" | "zh">) => a.zh ?? a.name;
