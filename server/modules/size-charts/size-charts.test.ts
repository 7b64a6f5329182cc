// Size charts against the sandbox through the real HTTP stack: the fashion domains (gender mappings) are listed; a chart
// the seller made on Mercado Libre is pulled for its domain (by domain id or by a category of it) with its rows, and
// pulled again without doubling; another tenant and an unknown group get 404, unknown categories and bad input a 400
// envelope. The pre-flight refuses a category that asks for SIZE_GRID_ID until a chart (and for a plain item its row)
// is chosen, in Chinese.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, createProductAs, ean13s, requestAttrs, syncCategories } from "../../testing/publish-kit.ts";
import { envelopeProblem } from "../../testing/security-kit.ts";
import type { SizeChart, SizeChartCategory } from "../../../shared/contract/size-charts.ts";

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
  const created = await s.deps.meli.shop({ tenantId: A.tenantId, groupId: groupA }).send<{ id: string }>("POST", "/catalog/charts", {
    body: {
      names: { MLM: "Tallas blusas mujer" },
      domain_id: leaf.domainId,
      site_id: "MLM",
      type: "SPECIFIC",
      main_attribute: { attributes: [{ site_id: "MLM", id: "SIZE" }] },
      attributes: [{ id: "GENDER", values: [{ name: "Mujer" }] }],
      rows: ["S", "M", "L"].map((size, i) => ({
        attributes: [
          { id: "SIZE", values: [{ name: size }] },
          { id: "CHEST_CIRCUMFERENCE_FROM", values: [{ name: `${86 + 4 * i} cm` }] },
        ],
      })),
    },
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
