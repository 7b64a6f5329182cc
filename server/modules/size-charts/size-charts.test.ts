// Size charts against the sandbox through the real HTTP stack: the fashion domains (gender mappings) are listed; a chart
// the seller made on Mercado Libre is pulled for its domain (by domain id or by a category of it: the documented search
// by every gender of the domain and the group's brand) with its rows, and pulled again without doubling; CreateMeliChart
// makes one from the product's sizes (or adds the sizes a chart lacks) and stores it at once; another tenant and an
// unknown group get 404, unknown categories and bad input a 400 envelope in Chinese. The pre-flight refuses a category
// that asks for SIZE_GRID_ID until a chart (and for a plain item its row) is chosen, in Chinese.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { createChart } from "../../integrations/mercadolibre/endpoints/size-charts.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, createProductAs, ean13s, requestAttrs, syncCategories } from "../../testing/publish-kit.ts";
import { envelopeProblem } from "../../testing/security-kit.ts";
import type { SizeChart, SizeChartCategory } from "#shared/contract/size-charts.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let groupA: string;
let groupB: string;
let domain: SizeChartCategory;
let chartId: string;

const fashionLeaf = () =>
  s.deps.sandbox!.store.trees.MLM.all.find((c) => c.leaf && c.attributes.some((a: { id: string }) => a.id === "GENDER"))!;

const pull = (t: TestTenant, AccountGroupId: string, Categories: string[] | string) =>
  s.api("GET", "/api/MeliSizeChart/PullMeliChart", { token: t.token, query: { AccountGroupId, Categories } });
const charts = (t: TestTenant, accountGroupId: string) =>
  s.api("GET", "/api/MeliSizeChart/GetMeliSizeCharts", { token: t.token, query: { accountGroupId } });

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  await syncCategories(s, [1]);
  groupA = await connectPublishingShop(s, A, { nickname: uniqueName("CHARTA"), site: "MLM", sites: [1] }, ean13s(4));
  groupB = await connectPublishingShop(s, B, { nickname: uniqueName("CHARTB"), site: "MLM", sites: [1] }, []);
  // The seller's chart on Mercado Libre, for the fashion leaf's domain, women.
  const leaf = fashionLeaf();
  const created = await createChart(s.deps.meli.shop({ tenantId: A.tenantId, groupId: groupA }), {
    name: "Tallas blusas mujer",
    domainId: leaf.domainId,
    siteId: "MLM",
    gender: { name: "Mujer" },
    mainAttributeId: "SIZE",
    rows: ["S", "M", "L"].map((size, i) => [
      { id: "SIZE", values: [size] },
      { id: "CHEST_CIRCUMFERENCE_FROM", values: [`${86 + 4 * i} cm`] },
    ]),
  });
  chartId = created.id;
}, 180_000);
afterAll(() => s?.close());

describe("size charts", () => {
  it("lists the fashion domains and pulls the shop's charts for one, by domain or by category, without doubling", async () => {
    const cats = await s.api("GET", "/api/MeliSizeChart/GetMeliSizeChartCategories", { token: A.token });
    expect(cats.status, cats.raw).toBe(200);
    const list = cats.body.result as SizeChartCategory[];
    domain = list.find((d) => d.domainId === fashionLeaf().domainId)!;
    expect(domain).toMatchObject({ site: 1, genderAttrId: "GENDER" });
    // Only domains with a gender attribute: no electronics.
    expect(list.every((d) => d.genderAttrId === "GENDER")).toBe(true);

    const first = await pull(A, groupA, [domain.domainId]);
    expect(first.status, first.raw).toBe(200);
    expect(first.body.result).toEqual({ count: 1, domains: 1 });
    const again = await pull(A, groupA, fashionLeaf().id);
    expect(again.body.result).toEqual({ count: 1, domains: 1 });
    // The documented search: the domain without its site prefix, the seller, a GENDER and a BRAND (one per gender).
    expect(s.deps.sandbox!.control.callCount("POST /catalog/charts/search")).toBeGreaterThanOrEqual(2 * 5);

    const got = await charts(A, groupA);
    expect(got.status, got.raw).toBe(200);
    const stored = got.body.result as SizeChart[];
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      accountGroupId: groupA,
      chartId,
      site: 1,
      domainId: domain.domainId,
      name: "Tallas blusas mujer",
      gender: "Mujer",
      mainAttributeId: "SIZE",
      rows: [
        { id: `${chartId}:1`, label: "S" },
        { id: `${chartId}:2`, label: "M" },
        { id: `${chartId}:3`, label: "L" },
      ],
    });
  });

  it("creates a chart from the product's sizes, stored at once, and adds the sizes a chart lacks", async () => {
    const create = (t: TestTenant, body: Record<string, unknown>) =>
      s.api("POST", "/api/MeliSizeChart/CreateMeliChart", {
        token: t.token,
        body: {
          accountGroupId: groupA,
          site: 1,
          cateId: fashionLeaf().id,
          name: "Playeras hombre",
          gender: "hombre",
          sizes: ["S", "M", "XL"],
          ...body,
        },
      });
    const made = await create(A, {});
    expect(made.status, made.raw).toBe(200);
    const chart = made.body.result as SizeChart;
    expect(chart).toMatchObject({
      accountGroupId: groupA,
      site: 1,
      domainId: fashionLeaf().domainId,
      name: "Playeras hombre",
      gender: "Hombre",
    });
    expect(chart.rows).toEqual([
      { id: `${chart.chartId}:1`, label: "S" },
      { id: `${chart.chartId}:2`, label: "M" },
      { id: `${chart.chartId}:3`, label: "XL" },
    ]);
    // On Mercado Libre: the seller's SPECIFIC chart of the domain (without the site prefix), for men.
    const onMeli = await s.deps.meli
      .shop({ tenantId: A.tenantId, groupId: groupA })
      .send<{ domain_id: string; type: string }>("GET", `/catalog/charts/${chart.chartId}`);
    expect(onMeli).toMatchObject({ domain_id: fashionLeaf().domainId.slice(4), type: "SPECIFIC" });
    expect((await charts(A, groupA)).body.result.map((c: SizeChart) => c.chartId)).toContain(chart.chartId);
    // A pull finds both (every gender of the domain is searched).
    expect((await pull(A, groupA, [fashionLeaf().domainId])).body.result).toEqual({ count: 2, domains: 1 });

    // The sizes the chart lacks become rows of it.
    const more = await create(A, { chartId: chart.chartId, sizes: ["XL", "XXL"] });
    expect(more.status, more.raw).toBe(200);
    expect((more.body.result as SizeChart).rows.map((r) => r.label)).toEqual(["S", "M", "XL", "XXL"]);
    expect((await charts(A, groupA)).body.result.filter((c: SizeChart) => c.chartId === chart.chartId)).toHaveLength(1);

    const refusals: [Record<string, unknown>, string][] = [
      [{ gender: "Unicornio" }, "性别「Unicornio」不是该类目的取值"],
      [{ sizes: ["M", "m"] }, "尺码不能重复"],
      [{ sizes: [] }, "请至少填写一个尺码"],
      [{ cateId: plainLeaf(s.deps.sandbox!, "MLM").id }, "不需要尺码表"],
      [{ site: 2 }, "该店铺没有巴西站点"],
      [{ chartId: chart.chartId, sizes: ["S"] }, "已有这些尺码"],
      [{ chartId: "424242" }, "尺码表不存在"],
    ];
    for (const [body, message] of refusals) {
      const res = await create(A, body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(envelopeProblem(res)).toBeNull();
      expect(res.raw).toContain(message);
    }
    expect((await create(B, {})).status).toBe(404);
  });

  it("keeps each tenant to its own groups and refuses bad input with the envelope", async () => {
    for (const res of [await pull(B, groupA, [fashionLeaf().domainId]), await charts(B, groupA)]) {
      expect(res.status).toBe(404);
      expect(envelopeProblem(res)).toBeNull();
    }
    // B's own group has no charts (A's are not B's).
    expect((await charts(B, groupB)).body.result).toEqual([]);
    const unknown = await pull(A, groupA, ["NOT-A-DOMAIN"]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("NOT-A-DOMAIN");
    for (const res of [
      await pull(A, "not-a-guid", [fashionLeaf().domainId]),
      await s.api("GET", "/api/MeliSizeChart/PullMeliChart", { token: A.token, query: { AccountGroupId: groupA } }),
      await s.api("GET", "/api/MeliSizeChart/GetMeliSizeCharts", { token: A.token }),
    ]) {
      expect(res.status).toBe(400);
      expect(envelopeProblem(res)).toBeNull();
    }
  });

  it("makes the pre-flight ask for a chart and its row where the category has SIZE_GRID_ID", async () => {
    const leaf = plainLeaf(s.deps.sandbox!, "MLM");
    const grid = (id: string, name: string) => ({
      id,
      modelType: 1,
      isRequired: false,
      name,
      alias: null,
      zh: null,
      values: [],
      units: [],
      defaultUnit: null,
      valueType: "string",
      valueMaxLength: 255,
      tags: [],
      hierarchy: null,
      relevance: null,
      groupId: null,
      groupName: null,
    });
    const added = JSON.stringify([grid("SIZE_GRID_ID", "Guía de talles"), grid("SIZE_GRID_ROW_ID", "Fila de la guía de talles")]);
    await inScope(s.database.db, hostAllScope, (tx) =>
      tx.execute(
        sql`update meli_category_attributes set attributes = attributes || ${added}::jsonb where site = 1 and cate_id = ${leaf.id}`,
      ),
    );
    const product = await createProductAs(s, A, {
      title: { es: "Blusa de algodón" },
      price: 100,
      currency: "CNY",
      weight: 200,
      size: "20x15x3",
      images: ["https://img.example.com/blusa.jpg"],
    });
    const check = async (extra: { id: string; valueName: string }[]) => {
      const res = await s.api("POST", "/api/MeliStatNew/PreflightPublish", {
        token: A.token,
        body: {
          accountGroupId: groupA,
          sites: [1],
          productIds: [product],
          cateInfo: [{ site: 1, cateId: leaf.id, attrs: [...requestAttrs(leaf), ...extra] }],
        },
      });
      expect(res.status, res.raw).toBe(200);
      return res.body.result.pairs[0].problems as { code: string; message: string }[];
    };
    const none = await check([]);
    expect(none.find((p) => p.code === "sizeChart.missing")?.message).toContain("尺码表");
    // Not the generic "missing required attribute" as well.
    expect(none.filter((p) => p.code === "attribute.required" && /SIZE_GRID/.test(p.message))).toEqual([]);
    const chartOnly = await check([{ id: "SIZE_GRID_ID", valueName: chartId }]);
    expect(chartOnly.map((p) => p.code)).toContain("sizeChart.rowMissing");
    const both = await check([
      { id: "SIZE_GRID_ID", valueName: chartId },
      { id: "SIZE_GRID_ROW_ID", valueName: `${chartId}:2` },
    ]);
    expect(both.map((p) => p.code).filter((c) => c.startsWith("sizeChart"))).toEqual([]);
  });
});
