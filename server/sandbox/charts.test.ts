// The sandbox's size charts, freight table and public reads: a seller creates a chart and finds it by domain (and
// gender), another seller neither reads nor finds it, a bad chart is a 400 in Mercado Libre's shape; each site's freight
// table is whole, in order and in the site's currency; items and a seller's public profile read without a token, while
// a bad token is still refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemBody, plainLeaf, startSandbox, type TestSandbox } from "../testing/sandbox-kit.ts";
import { freightTable } from "./freight.ts";

let t: TestSandbox;
let seller: { access_token: string; user_id: number };
let other: { access_token: string; user_id: number };

const chart = (overrides: Record<string, unknown> = {}) => ({
  names: { MLM: "Tallas playeras" },
  domain_id: "MLM-T_SHIRTS",
  site_id: "MLM",
  type: "SPECIFIC",
  main_attribute: { attributes: [{ site_id: "MLM", id: "SIZE" }] },
  attributes: [{ id: "GENDER", values: [{ name: "Hombre" }] }],
  rows: [{ attributes: [{ id: "SIZE", values: [{ name: "M" }] }] }, { attributes: [{ id: "SIZE", values: [{ name: "L" }] }] }],
  ...overrides,
});

beforeAll(async () => {
  t = await startSandbox();
  seller = await t.connect("CHART_SELLER");
  other = await t.connect("CHART_OTHER");
});
afterAll(() => t?.close());

describe("size charts", () => {
  it("are created by a seller, read and searched by it only", async () => {
    const created = await t.call("POST", "/catalog/charts", { token: seller.access_token, body: chart() });
    expect(created.status, created.raw).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      domain_id: "MLM-T_SHIRTS",
      site_id: "MLM",
      seller_id: seller.user_id,
      main_attribute: { attributes: [{ id: "SIZE" }] },
      rows: [{ id: `${id}:1` }, { id: `${id}:2` }],
    });
    expect((await t.call("GET", `/catalog/charts/${id}`, { token: seller.access_token })).body.id).toBe(id);
    expect((await t.call("GET", `/catalog/charts/${id}`, { token: other.access_token })).status).toBe(403);
    expect((await t.call("GET", "/catalog/charts/1", { token: seller.access_token })).status).toBe(404);

    const search = (token: string, body: Record<string, unknown>) => t.call("POST", "/catalog/charts/search", { token, body });
    const mine = await search(seller.access_token, { domain_id: "MLM-T_SHIRTS", site_id: "MLM" });
    expect(mine.body.charts.map((c: { id: string }) => c.id)).toEqual([id]);
    expect(mine.body.paging.total).toBe(1);
    const women = await search(seller.access_token, {
      domain_id: "MLM-T_SHIRTS",
      site_id: "MLM",
      attributes: [{ id: "GENDER", values: [{ name: "Mujer" }] }],
    });
    expect(women.body.charts).toEqual([]);
    expect((await search(other.access_token, { domain_id: "MLM-T_SHIRTS", site_id: "MLM" })).body.charts).toEqual([]);
    expect((await search(other.access_token, { domain_id: "MLM-T_SHIRTS", site_id: "MLM", seller_id: seller.user_id })).status).toBe(403);
    expect((await t.call("POST", "/catalog/charts/search", { body: { domain_id: "X", site_id: "MLM" } })).status).toBe(401);
  });

  it("refuses a chart without rows, a main attribute or a known site, in Mercado Libre's shape", async () => {
    for (const body of [chart({ rows: [] }), chart({ main_attribute: {} }), chart({ site_id: "XXX" }), chart({ domain_id: "" })]) {
      const res = await t.call("POST", "/catalog/charts", { token: seller.access_token, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "bad_request", status: 400 });
    }
  });
});

describe("freight table", () => {
  it("serves each site's bands in order, in its currency, without a token", async () => {
    for (const [site, currency] of [
      ["MLM", "MXN"],
      ["MLB", "BRL"],
      ["MLC", "CLP"],
      ["MCO", "COP"],
      ["CBT", "USD"],
    ]) {
      const res = await t.call("GET", `/sites/${site}/shipping_costs`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ site_id: site, currency_id: currency, weight_unit: "g" });
      expect(res.body.costs).toEqual(freightTable(site as "MLM"));
      const costs = res.body.costs as { from_weight: number; to_weight: number; cost: number }[];
      costs.forEach((c, i) => expect(c.from_weight).toBe(i === 0 ? 0 : costs[i - 1].to_weight));
      expect(costs.every((c, i) => i === 0 || c.cost > costs[i - 1].cost)).toBe(true);
    }
    // Whole pesos in Chile and Colombia.
    expect(freightTable("MLC").every((c) => Number.isInteger(c.cost))).toBe(true);
    expect((await t.call("GET", "/sites/MLX/shipping_costs")).status).toBe(404);
  });
});

describe("public reads", () => {
  it("read anyone's item and a seller's public profile without a token; a bad token is still a 401", async () => {
    const leaf = plainLeaf(t.sandbox, "MLM");
    const item = await t.call("POST", "/items", { token: seller.access_token, body: itemBody(leaf) });
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
