// The panel's size chart: the site's charts of the group, the chart's rows matched to the variants' sizes by the
// pre-flight's rule (an option with one value for every variant is not a variation), the item's own row when the
// variants are not by size, and the choice sent as the console sends it (SIZE_GRID_ID / SIZE_GRID_ROW_ID), which the
// shared pre-flight then accepts or refuses as the server will.
import { describe, expect, it } from "vitest";
import { CategoryAttributeModelType, type CategoryAttribute } from "#shared/contract/category.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import { SIZE_GRID_ID, SIZE_GRID_ROW_ID, type SizeChart } from "#shared/contract/size-charts.ts";
import { preflight, type PreflightPair } from "#shared/publish/preflight.ts";
import { publishRequestOf } from "./panel-publish.ts";
import { chartsOfSite, chosenChart, matchRows, sizeChartAsked, variantsOf, withChart } from "./panel-size-chart.ts";

const GROUP = "9b1c0c4e-8a51-4a2b-9b7e-1f2a3b4c5d6e";
/** What a category attribute of these tests leaves empty. */
const UNSET = {
  alias: null,
  zh: null,
  defaultUnit: null,
  valueMaxLength: null,
  hierarchy: null,
  relevance: null,
  groupId: null,
  groupName: null,
};
const attr = (id: string, tags: string[] = [], modelType: number = CategoryAttributeModelType.Item): CategoryAttribute => ({
  ...UNSET,
  id,
  name: id,
  modelType,
  tags,
  isRequired: tags.includes("required"),
  valueType: "string",
  values: [],
  units: [],
});
const fashion = [
  attr(SIZE_GRID_ID, ["required"]),
  attr(SIZE_GRID_ROW_ID, ["variation_attribute"]),
  attr("SIZE", ["allow_variations"], CategoryAttributeModelType.Variation),
  attr("COLOR", ["allow_variations"], CategoryAttributeModelType.Variation),
];
const chart = (chartId: string, site: number, sizes: string[]): SizeChart => ({
  id: `row-${chartId}`,
  accountGroupId: GROUP,
  chartId,
  site,
  domainId: "MLM-T_SHIRTS",
  name: `Playeras ${chartId}`,
  chartType: "SPECIFIC",
  gender: "Mujer",
  mainAttributeId: "SIZE",
  rows: sizes.map((label, i) => ({ id: `${chartId}:${i + 1}`, label })),
  fetchedAt: "2026-11-27T00:00:00.000Z",
});
/** The 1688 T-shirt's grid: colour × size, shipped from one place (an option every variant shares). */
const product = (sizes: string[], colours = ["白色", "黑色"]) =>
  ({
    id: "3f1c0c4e-8a51-4a2b-9b7e-1f2a3b4c5d6e",
    cateInfo: null,
    variants: colours.flatMap((c) =>
      sizes.map((s) => ({ sku: `${c}-${s}`, variant_Key: ["颜色", "尺码", "发货地"], variant_Values: [c, s, "中国"] })),
    ),
  }) as unknown as ProductDetail;

/** The shared pre-flight's size chart problems for the panel's request (the server runs the same rule). */
function sizeChartProblems(p: ProductDetail, attrs: Record<string, { valueId: string | null; value: string }>, charts: SizeChart[]) {
  return requestProblems(p, publishRequestOf(p, GROUP, false, [1], { 1: { cateId: "MLM1", name: "Playeras", attrs } }), charts);
}

/** The pre-flight's size chart problems of a request's site 1 (the product's own values as stored count too). */
function requestProblems(p: ProductDetail, request: ReturnType<typeof publishRequestOf>, charts: SizeChart[]) {
  const pair = {
    site: 1,
    product: {
      title: { es: "Playera" },
      description: {},
      price: "100",
      currency: "CNY",
      images: [],
      weight: "200",
      size: "20x15x3",
      brand: "Acme",
      variants: variantsOf(p).map((v) => ({ sku: null, ...v })),
      attrs: (p.cateInfo?.attrs ?? []).map((a) => ({ nameId: a.nameId, valueId: a.valueId, value: a.value })),
    },
    category: null,
    attributes: fashion,
    shop: { adjustRate: 1, tinyPrice: null, limitMinPrice: null, limitMaxPrice: null, overPrice: null },
    rates: [],
    request: { attrs: request.cateInfo![0]?.attrs ?? [] },
    translationConfigured: false,
    gtinAvailable: 0,
    sizeCharts: charts,
  } as unknown as PreflightPair;
  return preflight(pair)
    .problems.filter((x) => x.code.startsWith("sizeChart."))
    .map((x) => x.code);
}

describe("panel size chart", () => {
  it("a category asks for a chart when its attributes have SIZE_GRID_ID; a site's category uses that site's charts", () => {
    expect(sizeChartAsked(fashion)).toEqual({ chart: true, row: true });
    expect(sizeChartAsked([attr("BRAND", ["required"])])).toEqual({ chart: false, row: false });
    const charts = [chart("501", 1, ["M"]), chart("502", 2, ["M"])];
    expect(chartsOfSite(charts, 1).map((c) => c.chartId)).toEqual(["501"]);
    expect(chartsOfSite(charts, 5).map((c) => c.chartId)).toEqual(["501", "502"]);
  });

  it("matches each size of the variants to the chart's row by its label, as the pre-flight does, and names the sizes it lacks", () => {
    const tee = product(["M", "L", "XL"]);
    // The shared option (发货地) is not a variation.
    expect(variantsOf(tee)[0]).toEqual({ keys: ["颜色", "尺码"], values: ["白色", "M"] });
    const full = chart("501", 1, ["S", "M / 38", "L / 40", "xl"]);
    expect(matchRows(full, tee, fashion)).toEqual({
      sizes: [
        { value: "M", variants: 2, rowId: "501:2", label: "M / 38" },
        { value: "L", variants: 2, rowId: "501:3", label: "L / 40" },
        { value: "XL", variants: 2, rowId: "501:4", label: "xl" },
      ],
      unmatched: [],
    });
    const attrs = withChart({ BRAND: { valueId: null, value: "Acme" } }, "501");
    expect(sizeChartProblems(tee, attrs, [full])).toEqual([]);

    const short = chart("502", 1, ["M", "L"]);
    expect(matchRows(short, tee, fashion)?.unmatched).toEqual(["XL"]);
    expect(sizeChartProblems(tee, withChart(attrs, "502"), [full, short])).toEqual(["sizeChart.rowUnmatched"]);
    // Without a chart, or with one the shop does not have, the pre-flight refuses.
    expect(sizeChartProblems(tee, {}, [full])).toEqual(["sizeChart.missing"]);
    expect(sizeChartProblems(tee, withChart({}, "999"), [full])).toEqual(["sizeChart.unknown"]);
  });

  it("variants by colour only (or a plain item) take one row for the item, sent as SIZE_GRID_ROW_ID", () => {
    const plain = product(["M"]);
    const c = chart("501", 1, ["S", "M"]);
    expect(matchRows(c, plain, fashion)).toBeNull();
    expect(sizeChartProblems(plain, withChart({}, "501"), [c])).toEqual(["sizeChart.rowMissing"]);
    const chosen = withChart(withChart({}, "501"), "501", "501:2");
    expect(chosenChart(chosen)).toEqual({ chartId: "501", rowId: "501:2" });
    expect(publishRequestOf(plain, GROUP, false, [1], { 1: { cateId: "MLM1", name: "", attrs: chosen } }).cateInfo).toEqual([
      {
        site: 1,
        cateId: "MLM1",
        attrs: [
          { id: SIZE_GRID_ID, valueId: null, valueName: "501" },
          { id: SIZE_GRID_ROW_ID, valueId: null, valueName: "501:2" },
        ],
      },
    ]);
    expect(sizeChartProblems(plain, chosen, [c])).toEqual([]);
    expect(sizeChartProblems(plain, withChart({}, "501", "502:9"), [c])).toEqual(["sizeChart.rowUnknown"]);
    // Another chart drops the row chosen for the first.
    expect(chosenChart(withChart(chosen, "777"))).toEqual({ chartId: "777", rowId: "" });
  });

  it("the product's own category on the site takes the chart chosen for it in the publish section, as a picked one does", () => {
    const tee = product(["M", "L", "XL"]);
    // The product's own category on Mexico is a clothing leaf; its own values (a chart saved from elsewhere, its gender).
    const own = {
      ...tee,
      cateInfo: {
        site: 1,
        cateId: "MLM1",
        attrs: [
          { nameId: "GENDER", name: "Género", valueId: "339666", value: "Mujer" },
          { nameId: SIZE_GRID_ID, name: "Guía de talles", valueId: null, value: "old" },
        ],
      },
    } as ProductDetail;
    const c = chart("501", 1, ["M", "L", "XL"]);
    // Nothing chosen in the publish section: the stored chart goes as it is, and the shop has no such chart.
    const bare = publishRequestOf(own, GROUP, false, [1]);
    expect(bare.cateInfo![0].attrs?.map((a) => [a.id, a.valueName])).toEqual([
      ["GENDER", "Mujer"],
      [SIZE_GRID_ID, "old"],
    ]);
    expect(requestProblems(own, bare, [c])).toEqual(["sizeChart.unknown"]);
    // The shop's chart chosen for the own category replaces it; the product's other values stay.
    const chosen = publishRequestOf(own, GROUP, false, [1], {}, { 1: { cateId: "MLM1", attrs: withChart({}, "501") } });
    expect(chosen.cateInfo).toEqual([
      {
        site: 1,
        cateId: "MLM1",
        attrs: [
          { id: "GENDER", valueId: "339666", valueName: "Mujer" },
          { id: SIZE_GRID_ID, valueId: null, valueName: "501" },
        ],
      },
    ]);
    expect(requestProblems(own, chosen, [c])).toEqual([]);
    // A chart chosen while the product was in another category does not follow it into this one.
    const stale = publishRequestOf(own, GROUP, false, [1], {}, { 1: { cateId: "MLM2", attrs: withChart({}, "501") } });
    expect(stale.cateInfo).toEqual(bare.cateInfo);
    // A plain product's own category: the chart and the item's row, chosen there, both go.
    const plain = { ...own, variants: product(["M"]).variants } as ProductDetail;
    const row = publishRequestOf(plain, GROUP, false, [1], {}, { 1: { cateId: "MLM1", attrs: withChart({}, "501", "501:1") } });
    expect(row.cateInfo![0].attrs?.map((a) => [a.id, a.valueName])).toEqual([
      ["GENDER", "Mujer"],
      [SIZE_GRID_ID, "501"],
      [SIZE_GRID_ROW_ID, "501:1"],
    ]);
    expect(requestProblems(plain, row, [c])).toEqual([]);
  });
});
