// The sandbox's size charts, shipping-cost quotes and public reads, as the documentation pages describe them: a seller
// creates a chart for a fashion domain (without the site prefix) and one of its genders, adds rows, reads it, and finds
// it by domain, site, seller, GENDER and BRAND; another seller neither reads nor finds it; a bad chart is refused with
// the page's errors. An item names the chart and a row (errors block, a size or gender mismatch is a warning). The
// shipping quotes answer the seller's cost for a parcel (0 without a price, half off at the free-shipping threshold)
// and a global seller's cost per marketplace; items and a seller's public profile read without a token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Category } from "./categories.ts";
import { itemBody, plainLeaf, requiredAttributes, startSandbox, type TestSandbox } from "../testing/sandbox-kit.ts";
import { globalShippingCost, localShippingCost } from "./freight.ts";

let t: TestSandbox;
let seller: { access_token: string; user_id: number };
let other: { access_token: string; user_id: number };
let global: { access_token: string; user_id: number };
let leaf: Category;
let domain: string;

const chart = (overrides: Record<string, unknown> = {}) => ({
  names: { MLM: "Tallas blusas" },
  domain_id: domain,
  site_id: "MLM",
  main_attribute: { attributes: [{ site_id: "MLM", id: "SIZE" }] },
  attributes: [{ id: "GENDER", values: [{ name: "Mujer" }] }],
  rows: [{ attributes: [{ id: "SIZE", values: [{ name: "M" }] }] }, { attributes: [{ id: "SIZE", values: [{ name: "L" }] }] }],
  ...overrides,
});
/** A category whose GTIN is conditional takes an item without one with EMPTY_GTIN_REASON. */
const emptyGtinReason = (c: Category) =>
  c.attributes.filter((a) => a.id === "EMPTY_GTIN_REASON" && a.values?.length).map((a) => ({ id: a.id, value_id: a.values![0].id }));
const filters = (gender = "Mujer", brand = "Acme") => [
  { id: "GENDER", values: [{ name: gender }] },
  { id: "BRAND", values: [{ name: brand }] },
];

beforeAll(async () => {
  t = await startSandbox();
  seller = await t.connect("CHART_SELLER");
  other = await t.connect("CHART_OTHER");
  global = await t.connect("CHART_GLOBAL", "CBT", ["MLM", "MLB"]);
  leaf = t.sandbox.store.trees.MLM.all.find(
    (c) => c.leaf && c.attributes.some((a) => a.id === "SIZE_GRID_ID") && c.attributes.some((a) => a.id === "SIZE"),
  )!;
  domain = leaf.domainId.slice("MLM-".length);
});
afterAll(() => t?.close());

describe("size charts", () => {
  it("are created by a seller for a domain without the site prefix, read, extended and searched by it only", async () => {
    const created = await t.call("POST", "/catalog/charts", { token: seller.access_token, body: chart() });
    expect(created.status, created.raw).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      domain_id: domain,
      site_id: "MLM",
      type: "SPECIFIC",
      seller_id: seller.user_id,
      main_attribute_id: "SIZE",
      attributes: [{ id: "GENDER", values: [{ name: "Mujer" }] }],
      rows: [{ id: `${id}:1` }, { id: `${id}:2` }],
    });
    expect(created.body.attributes[0].values[0].id).toBeTruthy();
    expect((await t.call("GET", `/catalog/charts/${id}`, { token: seller.access_token })).body.id).toBe(id);
    expect((await t.call("GET", `/catalog/charts/${id}`, { token: other.access_token })).status).toBe(403);
    expect((await t.call("GET", "/catalog/charts/1", { token: seller.access_token })).status).toBe(404);

    // A row added later; its size must be new.
    const row = await t.call("POST", `/catalog/charts/${id}/rows`, {
      token: seller.access_token,
      body: { attributes: [{ id: "SIZE", values: [{ name: "XL" }] }] },
    });
    expect(row.status, row.raw).toBe(201);
    expect(row.body.id).toBe(`${id}:3`);
    const again = await t.call("POST", `/catalog/charts/${id}/rows`, {
      token: seller.access_token,
      body: { attributes: [{ id: "SIZE", values: [{ name: "m" }] }] },
    });
    expect(again.body).toMatchObject({ error: "chart_validation_error", errors: [{ code: "duplicated_measure_value" }] });
    expect((await t.call("POST", `/catalog/charts/${id}/rows`, { token: other.access_token, body: { attributes: [] } })).status).toBe(403);

    const search = (token: string, body: Record<string, unknown>, query?: Record<string, string>) =>
      t.call("POST", "/catalog/charts/search", { token, body, query });
    const mine = await search(seller.access_token, { domain_id: domain, site_id: "MLM", seller_id: seller.user_id, attributes: filters() });
    expect(mine.status, mine.raw).toBe(200);
    expect(mine.body.charts.map((c: { id: string }) => c.id)).toEqual([id]);
    expect(mine.body.charts[0].rows).toHaveLength(3);
    expect(mine.body.paging).toMatchObject({ total: 1, offset: 0 });
    const paged = await search(
      seller.access_token,
      { domain_id: domain, site_id: "MLM", seller_id: seller.user_id, attributes: filters() },
      { offset: "1", limit: "5" },
    );
    expect(paged.body).toMatchObject({ charts: [], paging: { total: 1, offset: 1, limit: 5 } });
    // The domain as a category names it (with the site prefix) finds nothing; nor another gender.
    const prefixed = await search(seller.access_token, {
      domain_id: leaf.domainId,
      site_id: "MLM",
      seller_id: seller.user_id,
      attributes: filters(),
    });
    expect(prefixed.body.charts).toEqual([]);
    const men = await search(seller.access_token, {
      domain_id: domain,
      site_id: "MLM",
      seller_id: seller.user_id,
      attributes: filters("Hombre"),
    });
    expect(men.body.charts).toEqual([]);
    // GENDER and BRAND are required filters, and the seller.
    for (const body of [
      { domain_id: domain, site_id: "MLM", seller_id: seller.user_id, attributes: filters().slice(0, 1) },
      { domain_id: domain, site_id: "MLM", seller_id: seller.user_id, attributes: filters().slice(1) },
      { domain_id: domain, site_id: "MLM", attributes: filters() },
    ])
      expect((await search(seller.access_token, body)).status).toBe(400);
    expect(
      (await search(other.access_token, { domain_id: domain, site_id: "MLM", seller_id: other.user_id, attributes: filters() })).body
        .charts,
    ).toEqual([]);
    expect(
      (await search(other.access_token, { domain_id: domain, site_id: "MLM", seller_id: seller.user_id, attributes: filters() })).status,
    ).toBe(403);
    expect((await t.call("POST", "/catalog/charts/search", { body: { domain_id: domain, site_id: "MLM" } })).status).toBe(401);
  });

  it("computes SIZE from another main attribute", async () => {
    const res = await t.call("POST", "/catalog/charts", {
      token: seller.access_token,
      body: chart({
        main_attribute: { attributes: [{ site_id: "MLM", id: "MANUFACTURER_SIZE" }] },
        rows: [{ attributes: [{ id: "MANUFACTURER_SIZE", values: [{ name: "40 EU" }] }] }],
      }),
    });
    expect(res.status, res.raw).toBe(201);
    expect(res.body.rows[0].attributes[0]).toMatchObject({ id: "SIZE", values: [{ name: "40 EU" }] });
  });

  it("refuses a bad chart with the page's errors", async () => {
    const refused = async (body: Record<string, unknown>) =>
      (await t.call("POST", "/catalog/charts", { token: seller.access_token, body })).body;
    expect(await refused(chart({ domain_id: leaf.domainId }))).toMatchObject({ status: 404, error: "chart_tech_specs_not_found" });
    expect(await refused(chart({ attributes: [{ id: "GENDER", values: [{ name: "Unicornio" }] }] }))).toMatchObject({
      status: 404,
      message: `Chart technical specification not found for SITE:MLM-DOMAIN:${domain}-GENDER:Unicornio`,
    });
    expect(await refused(chart({ main_attribute: {} }))).toMatchObject({ status: 400, error: "main_attribute_missing_error" });
    expect(
      await refused(chart({ rows: [{ attributes: [{ id: "CHEST_CIRCUMFERENCE_FROM", values: [{ name: "80 cm" }] }] }] })),
    ).toMatchObject({
      error: "chart_validation_error",
      errors: [{ code: "required_row_attribute_not_found", cell: { attribute_id: "SIZE" } }],
    });
    for (const body of [chart({ rows: [] }), chart({ site_id: "XXX" }), chart({ domain_id: "" }), chart({ type: "STANDARD" })])
      expect(await refused(body)).toMatchObject({ error: "bad_request", status: 400 });
  });

  it("checks an item's chart and rows: the seller's, of the domain, a row of it; a size mismatch is a warning", async () => {
    const mine = (await t.call("POST", "/catalog/charts", { token: seller.access_token, body: chart() })).body;
    const theirs = (await t.call("POST", "/catalog/charts", { token: other.access_token, body: chart() })).body;
    const body = (gridId: string, rowId: string | null, size = "M") =>
      itemBody(leaf, {
        attributes: [
          ...requiredAttributes(leaf).filter((a) => !["SIZE", "SIZE_GRID_ID", "GENDER"].includes(a.id)),
          { id: "GENDER", value_name: "Mujer" },
          { id: "SIZE", value_name: size },
          { id: "SIZE_GRID_ID", value_name: gridId },
          ...(rowId ? [{ id: "SIZE_GRID_ROW_ID", value_name: rowId }] : []),
          ...emptyGtinReason(leaf),
        ],
      });
    const post = (b: Record<string, unknown>) => t.call("POST", "/items", { token: seller.access_token, body: b });
    const codes = (res: { body: { cause?: { code: string }[]; warnings?: { code: string }[] } }) =>
      [...(res.body.cause ?? []), ...(res.body.warnings ?? [])].map((c) => c.code);
    expect(codes(await post(body(theirs.id, `${theirs.id}:1`)))).toContain("invalid.fashion_grid.seller_id.values");
    expect(codes(await post(body("999999", "999999:1")))).toContain("invalid.fashion_grid.grid_id.values");
    expect(codes(await post(body(mine.id, null)))).toContain("missing.fashion_grid.grid_row_id.values");
    expect(codes(await post(body(mine.id, `${mine.id}:9`)))).toContain("invalid.fashion_grid.grid_row_id.values");
    const warned = await post(body(mine.id, `${mine.id}:1`, "L"));
    expect(warned.status, warned.raw).toBe(201);
    expect(codes(warned)).toContain("invalid.fashion_grid.size.values");
    const clean = await post(body(mine.id, `${mine.id}:2`, "L"));
    expect(clean.status, clean.raw).toBe(201);
    expect(codes(clean)).not.toContain("invalid.fashion_grid.size.values");
  });
});

describe("shipping costs", () => {
  const parcel = { sides: [10, 10, 10] as [number, number, number], grams: 450 };
  const quote = (token: string, userId: number, query: Record<string, string>) =>
    t.call("GET", `/users/${userId}/shipping_options/free`, { token, query });

  it("quote a local seller's cost for a parcel: in full, half off at the threshold, nothing without a price", async () => {
    const full = localShippingCost("MLM", parcel);
    const base = { dimensions: "10x10x10,450", listing_type_id: "gold_special", free_shipping: "true", verbose: "true" };
    const cheap = await quote(seller.access_token, seller.user_id, { ...base, item_price: "100" });
    expect(cheap.status, cheap.raw).toBe(200);
    expect(cheap.body).toEqual({ coverage: { all_country: { list_cost: full, currency_id: "MXN", billable_weight: 450 } } });
    const dear = await quote(seller.access_token, seller.user_id, { ...base, item_price: "299" });
    expect(dear.body.coverage).toMatchObject({
      all_country: { list_cost: full / 2 },
      discount: { rate: 0.5, promoted_amount: full },
    });
    // The buyer pays under the threshold when the seller does not offer free shipping; no price, no cost.
    expect(
      (await quote(seller.access_token, seller.user_id, { ...base, item_price: "100", free_shipping: "false" })).body.coverage.all_country
        .list_cost,
    ).toBe(0);
    expect((await quote(seller.access_token, seller.user_id, { dimensions: "10x10x10,450" })).body.coverage.all_country.list_cost).toBe(0);
    // A bulky parcel is billed by its volume.
    const bulky = await quote(seller.access_token, seller.user_id, { ...base, dimensions: "40x40x40,450", item_price: "100" });
    expect(bulky.body.coverage.all_country.billable_weight).toBe(12800);
  });

  it("refuse bad dimensions, a missing parcel, an unknown or another seller, and a global seller", async () => {
    for (const dimensions of ["10x10,450", "10x10x10,0.5", "axbxc,1"])
      expect((await quote(seller.access_token, seller.user_id, { dimensions, item_price: "1" })).status).toBe(400);
    expect((await quote(seller.access_token, seller.user_id, { item_price: "1" })).status).toBe(400);
    const unknown = await quote(seller.access_token, 1, { dimensions: "10x10x10,450" });
    expect(unknown.body).toMatchObject({ status: 400, message: "seller_id must have a value!" });
    expect((await quote(other.access_token, seller.user_id, { dimensions: "10x10x10,450" })).status).toBe(403);
    expect((await quote(global.access_token, global.user_id, { dimensions: "10x10x10,450" })).status).toBe(400);
    expect((await quote(seller.access_token, seller.user_id, { item_id: "MLM1", item_price: "1" })).status).toBe(404);
  });

  it("quote a global seller's cost per marketplace, in USD with weights in lb", async () => {
    const res = await t.call("GET", "/global/shipments/costs", { token: global.access_token, query: { dimensions: "10x10x10,450" } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.map((q: { site_id: string; list_cost: number }) => [q.site_id, q.list_cost])).toEqual([
      ["MLM", globalShippingCost("MLM", parcel)],
      ["MLB", globalShippingCost("MLB", parcel)],
    ]);
    expect(res.body[0]).toMatchObject({ currency: "USD", logistic_type: "remote", billable_weight: { unit: "lb", type: "net" } });
    expect(
      (await t.call("GET", "/global/shipments/costs", { token: seller.access_token, query: { dimensions: "10x10x10,450" } })).status,
    ).toBe(403);
    expect((await t.call("GET", "/global/shipments/costs", { token: global.access_token, query: { dimensions: "big" } })).status).toBe(400);
  });
});

describe("public reads", () => {
  it("read anyone's item and a seller's public profile without a token; a bad token is still a 401", async () => {
    const leaf = plainLeaf(t.sandbox, "MLM");
    const body = itemBody(leaf);
    const item = await t.call("POST", "/items", {
      token: seller.access_token,
      body: { ...body, attributes: [...body.attributes, ...emptyGtinReason(leaf)] },
    });
    expect(item.status, item.raw).toBe(201);
    const one = await t.call("GET", `/items/${item.body.id}`);
    expect(one.body).toMatchObject({ id: item.body.id, seller_id: seller.user_id });
    const many = await t.call("GET", "/items", { query: { ids: `${item.body.id},MLM1` } });
    expect(many.body.map((x: { code: number }) => x.code)).toEqual([200, 404]);
    const profile = await t.call("GET", `/users/${seller.user_id}`);
    expect(profile.body).toMatchObject({ id: seller.user_id, country_id: "MX", site_id: "MLM" });
    expect(profile.body.email).toBeUndefined();
    expect((await t.call("GET", `/users/${seller.user_id}`, { token: seller.access_token })).body.email).toBeDefined();
    expect((await t.call("GET", `/items/${item.body.id}`, { token: "APP_USR-not-a-token" })).status).toBe(401);
  });
});
