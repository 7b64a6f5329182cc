// Size charts in a real publish against the sandbox: the sandbox's clothing categories on a marketplace site ask for
// SIZE_GRID_ID (required) and SIZE_GRID_ROW_ID (per variation) as Mercado Libre's fashion domains do, and the synced
// attributes carry both. A fashion product published without a chart is skipped by the pre-flight with its Chinese
// reason and never sent; with the shop's chart chosen, the item names the chart and each variation the chart's row of
// its size; a plain item sends the row chosen for it; a size the chart lacks is refused before any call. The sandbox
// itself refuses a missing row or one that is not the chart's, and warns of a row that is not the variation's size
// (validacion-de-guia-de-talles.md: a WARNING, moderated later).
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { listings } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { createChart } from "../../integrations/mercadolibre/endpoints/size-charts.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import type { Category } from "../../sandbox/categories.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, createProductAs, ean13s, requestAttrs, syncCategories, until } from "../../testing/publish-kit.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import { SIZE_GRID_ID, SIZE_GRID_ROW_ID, type SizeChart } from "#shared/contract/size-charts.ts";

let s: TestServer;
let A: TestTenant;
let groupA: string;
let chartId: string;

/** An MLM clothing leaf (sizes XS…XXL) that asks for a size chart. */
const leaf = (): Category =>
  s.deps.sandbox!.store.trees.MLM.all.find(
    (c) =>
      c.leaf &&
      c.attributes.some((a) => a.id === SIZE_GRID_ID) &&
      c.attributes.some((a) => a.id === "SIZE" && a.values?.some((v) => v.name === "M")),
  )!;
/** The request's attributes for the leaf, without the size and the chart (the variants and the chart give those). */
const baseAttrs = () => requestAttrs(leaf()).filter((a) => !["SIZE", SIZE_GRID_ID, SIZE_GRID_ROW_ID].includes(a.id));

/** A category whose GTIN is conditional takes an item without one with EMPTY_GTIN_REASON. */
const emptyGtinReason = (c: Category) => {
  const reason = c.attributes.find((a) => a.id === "EMPTY_GTIN_REASON");
  return reason?.values?.length ? [{ id: reason.id, value_id: reason.values[0].id }] : [];
};

const publish = (body: Record<string, unknown>) => s.api("POST", "/api/MeliStatNew/Publish", { token: A.token, body });

/** Publishes the products to the leaf with these extra attributes; answers the batch's listings once it has finished. */
async function publishAndWait(productIds: string[], extra: { id: string; valueName: string }[]) {
  const res = await publish({
    accountGroupId: groupA,
    sites: [1],
    productIds,
    cateInfo: [{ site: 1, cateId: leaf().id, attrs: [...baseAttrs(), ...extra] }],
  });
  expect(res.status, res.raw).toBe(200);
  const batchId = res.body.result.id as string;
  await until(
    async () =>
      (await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: A.token, body: {} })).body.result.items.find(
        (b: { id: string }) => b.id === batchId,
      ),
    (b) => !!b && b.status !== PublishBatchStatus.Queued && b.status !== PublishBatchStatus.Running,
    "publish batch",
  );
  return (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId } })).body.result.items as {
    id: string;
    productId: string;
    status: number;
    itemId: string | null;
    reason: string | null;
    problems: { code: string }[];
  }[];
}

const blouse = (name: string, sizes: string[]) =>
  createProductAs(s, A, {
    title: { es: `Blusa de algodón para mujer ${name}` },
    price: 100,
    currency: "CNY",
    weight: 200,
    size: "20x15x3",
    brand: "Acme",
    images: [`https://img.example.com/${name}.jpg`],
    ...(sizes.length
      ? {
          variantModel: {
            headers: [{ vairantKey: "Talla", vairantValues: sizes }],
            items: sizes.map((size) => ({ values: [size], stock: 3, sku: `${name}-${size}` })),
          },
        }
      : {}),
  });

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  await syncCategories(s, [1]);
  groupA = await connectPublishingShop(s, A, { nickname: uniqueName("GRID"), site: "MLM", sites: [1] }, ean13s(20, 750300000000));
  // The seller's chart on Mercado Libre for the leaf's domain (rows S, M, L), pulled into the shop group.
  const created = await createChart(s.deps.meli.shop({ tenantId: A.tenantId, groupId: groupA }), {
    name: "Blusas mujer",
    domainId: leaf().domainId,
    siteId: "MLM",
    gender: { name: "Mujer" },
    mainAttributeId: "SIZE",
    rows: ["S", "M", "L"].map((size, i) => [
      { id: "SIZE", values: [size] },
      { id: "CHEST_CIRCUMFERENCE_FROM", values: [`${86 + 4 * i} cm`] },
    ]),
  });
  chartId = created.id;
  const pulled = await s.api("GET", "/api/MeliSizeChart/PullMeliChart", {
    token: A.token,
    query: { AccountGroupId: groupA, Categories: [leaf().id] },
  });
  expect(pulled.status, pulled.raw).toBe(200);
  const charts = (await s.api("GET", "/api/MeliSizeChart/GetMeliSizeCharts", { token: A.token, query: { accountGroupId: groupA } })).body
    .result as SizeChart[];
  expect(charts.map((c) => c.chartId)).toEqual([chartId]);
}, 240_000);
afterAll(() => s?.close());

describe("size charts in a publish", () => {
  it("the sandbox's clothing categories ask for the chart and a row per variation, and the synced attributes carry them", async () => {
    const grid = leaf().attributes.find((a) => a.id === SIZE_GRID_ID)!;
    const row = leaf().attributes.find((a) => a.id === SIZE_GRID_ROW_ID)!;
    expect(grid.tags).toMatchObject({ required: true });
    expect(row.tags).toMatchObject({ variation_attribute: true });
    // Global selling's categories do not (charts are a marketplace site's).
    expect(s.deps.sandbox!.store.trees.CBT.all.some((c) => c.attributes.some((a) => a.id === SIZE_GRID_ID))).toBe(false);
    const [stored] = rowsOf<{ ids: string[] }>(
      await inScope(s.database.db, hostAllScope, (tx) =>
        tx.execute(
          sql`select array(select jsonb_array_elements(attributes) ->> 'id') as ids from meli_category_attributes where site = 1 and cate_id = ${leaf().id}`,
        ),
      ),
    );
    expect(stored.ids).toEqual(expect.arrayContaining([SIZE_GRID_ID, SIZE_GRID_ROW_ID]));
  });

  it("skips a fashion product without a chart, with the reason in Chinese, and sends nothing", async () => {
    const product = await blouse(uniqueName("sin-guia"), ["S", "M"]);
    const callsBefore = s.deps.sandbox!.control.callCount("POST /items");
    const [row] = await publishAndWait([product], []);
    expect(row).toMatchObject({ productId: product, status: ListingStatus.Skipped, itemId: null });
    expect(row.problems.map((p) => p.code)).toContain("sizeChart.missing");
    expect(row.reason).toContain("该类目需要尺码表");
    expect(s.deps.sandbox!.control.callCount("POST /items")).toBe(callsBefore);
  });

  it("sends the chosen chart on the item and the chart's row of each size on its variation", async () => {
    const product = await blouse(uniqueName("con-guia"), ["S", "M", "L"]);
    const [row] = await publishAndWait([product], [{ id: SIZE_GRID_ID, valueName: chartId }]);
    expect(row.reason).toBeNull();
    expect(row).toMatchObject({ status: ListingStatus.Active });
    const item = s.deps.sandbox!.store.state.items.get(row.itemId!)!;
    expect(item.attributes.find((a) => a.id === SIZE_GRID_ID)?.value_name).toBe(chartId);
    expect(item.attributes.some((a) => a.id === SIZE_GRID_ROW_ID)).toBe(false);
    const bySize = Object.fromEntries(
      item.variations.map((v) => [
        v.attribute_combinations.find((a) => a.id === "SIZE")?.value_name,
        v.attributes.find((a) => a.id === SIZE_GRID_ROW_ID)?.value_name,
      ]),
    );
    expect(bySize).toEqual({ S: `${chartId}:1`, M: `${chartId}:2`, L: `${chartId}:3` });
    const [stored] = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .select({ itemId: listings.itemId })
        .from(listings)
        .where(and(eq(listings.tenantId, A.tenantId), eq(listings.id, row.id))),
    );
    expect(stored.itemId).toBe(row.itemId);
  });

  it("sends a plain item's chosen row, and refuses a size the chart lacks before any call", async () => {
    const plain = await blouse(uniqueName("sencilla"), []);
    const [one] = await publishAndWait(
      [plain],
      [
        { id: "SIZE", valueName: "M" },
        { id: SIZE_GRID_ID, valueName: chartId },
        { id: SIZE_GRID_ROW_ID, valueName: `${chartId}:2` },
      ],
    );
    expect(one.reason).toBeNull();
    const item = s.deps.sandbox!.store.state.items.get(one.itemId!)!;
    expect(item.attributes.find((a) => a.id === SIZE_GRID_ROW_ID)?.value_name).toBe(`${chartId}:2`);

    const wide = await blouse(uniqueName("talla-xl"), ["M", "XL"]);
    const callsBefore = s.deps.sandbox!.control.callCount("POST /items");
    const [refused] = await publishAndWait([wide], [{ id: SIZE_GRID_ID, valueName: chartId }]);
    expect(refused).toMatchObject({ status: ListingStatus.Skipped, itemId: null });
    expect(refused.problems.map((p) => p.code)).toContain("sizeChart.rowUnmatched");
    expect(refused.reason).toContain("尺码「XL」");
    // A chart that is not the shop's is refused too.
    const [unknown] = await publishAndWait([wide], [{ id: SIZE_GRID_ID, valueName: "999999" }]);
    expect(unknown.problems.map((p) => p.code)).toContain("sizeChart.unknown");
    expect(s.deps.sandbox!.control.callCount("POST /items")).toBe(callsBefore);
  });

  it("the sandbox refuses a missing row or one not of the chart, and warns of a row not of the variation's size", async () => {
    const shop = s.deps.meli.shop({ tenantId: A.tenantId, groupId: groupA });
    const L = leaf();
    const body = (rows: string[]) => ({
      title: "Blusa de prueba para mujer",
      category_id: L.id,
      price: L.minimumPrice * 10,
      currency_id: "MXN",
      available_quantity: 2,
      buying_mode: "buy_it_now",
      listing_type_id: "gold_special",
      condition: "new",
      pictures: [{ source: "https://img.example.com/prueba.jpg" }],
      attributes: [
        ...requestAttrs(L)
          .filter((a) => !["SIZE", SIZE_GRID_ID, SIZE_GRID_ROW_ID].includes(a.id))
          .map((a) => (a.valueId ? { id: a.id, value_id: a.valueId } : { id: a.id, value_name: a.valueName })),
        { id: SIZE_GRID_ID, value_name: chartId },
        ...emptyGtinReason(L),
      ],
      variations: ["S", "M"].map((size, i) => ({
        attribute_combinations: [{ id: "SIZE", value_name: size }],
        available_quantity: 1,
        price: L.minimumPrice * 10,
        attributes: rows[i] ? [{ id: SIZE_GRID_ROW_ID, value_name: rows[i] }] : [],
      })),
    });
    const answer = async (rows: string[]) => {
      try {
        const item = await shop.send<{ warnings?: { code: string }[] }>("POST", "/items", { body: body(rows) });
        return `created ${JSON.stringify(item.warnings ?? [])}`;
      } catch (e) {
        if (!(e instanceof MeliApiError)) throw e;
        return `refused ${JSON.stringify(e.meli.cause)}`;
      }
    };
    const mismatch = await answer([`${chartId}:2`, `${chartId}:2`]);
    expect(mismatch).toMatch(/^created .*Attribute \[SIZE\] is not valid/);
    expect(await answer([`${chartId}:1`, "123:9"])).toMatch(/^refused .*invalid\.fashion_grid\.grid_row_id\.values/);
    expect(await answer([`${chartId}:1`, ""])).toMatch(/^refused .*missing\.fashion_grid\.grid_row_id\.values/);
    const clean = await answer([`${chartId}:1`, `${chartId}:2`]);
    expect(clean).toMatch(/^created /);
    expect(clean).not.toContain("Attribute [SIZE]");
  });
});
