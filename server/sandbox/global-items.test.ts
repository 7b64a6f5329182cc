// Global selling: one CBT item published on several sites with partial success in site_items, sites added later,
// PUT answering {} with the change visible on the next GET (stock shared by the marketplace items), and the reads.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Category } from "./categories.ts";
import { itemBody, plainLeaf, startSandbox, type TestSandbox } from "../testing/sandbox-kit.ts";
import { SITES } from "./sites.ts";

let t: TestSandbox;
let token: string;
let cbtId: number;
let leaf: Category;

beforeEach(async () => {
  t = await startSandbox();
  // Sells on Mexico and Brazil only: Chile is not enabled.
  const s = await t.connect("GLOBAL_SELLER", "CBT", ["MLM", "MLB"]);
  token = s.access_token;
  cbtId = s.user_id;
  leaf = plainLeaf(t.sandbox, "CBT");
});
afterEach(() => t.close());

const globalBody = (sites: unknown[], overrides: Record<string, unknown> = {}) =>
  itemBody(leaf, { title: "Wireless test product", price: 20, currency_id: "USD", sites_to_sell: sites, ...overrides });

async function publish(
  sites: unknown[] = [{ site_id: "MLM", logistic_type: "remote", listing_type_id: "gold_special", net_proceeds: 20 }],
) {
  const res = await t.call("POST", "/global/items", { token, body: globalBody(sites) });
  expect(res.status).toBe(201);
  return res.body;
}

describe("POST /global/items", () => {
  it("publishes per site with partial success: a site not enabled and a price under the minimum fail alone", async () => {
    const mlb = t.sandbox.store.trees.MLB.byKey.get(leaf.key)!;
    const res = await t.call("POST", "/global/items", {
      token,
      body: globalBody([
        { site_id: "MLM", logistic_type: "remote", listing_type_id: "gold_special", net_proceeds: 20, title: "Producto inalámbrico" },
        // A site's price is in US dollars: under the site's minimum once converted.
        { site_id: "MLB", logistic_type: "remote", listing_type_id: "gold_pro", price: (mlb.minimumPrice - 1) / SITES.MLB.perUsd },
        { site_id: "MLC", logistic_type: "remote", listing_type_id: "gold_special", net_proceeds: 20 },
      ]),
    });
    expect(res.status).toBe(201);
    expect(res.body.item_id).toMatch(/^CBT\d+$/);
    expect(res.body.site_id).toBe("CBT");
    const [mx, br, cl] = res.body.site_items;
    expect(mx).toMatchObject({ site_id: "MLM", logistic_type: "remote" });
    expect(mx.item_id).toMatch(/^MLM\d+$/);
    expect(Object.keys(mx).sort()).toEqual(["item_id", "logistic_type", "seller_id", "site_id"]);
    expect(br).toEqual({
      site_id: "MLB",
      error: {
        message: "Validation error",
        error: "validation_error",
        status: 400,
        cause: [expect.objectContaining({ cause_id: 109, code: "item.price.invalid" })],
      },
    });
    expect(br.error.cause[0].message).toBe(`The category ${mlb.id} requires a minimum price of ${mlb.minimumPrice}.`);
    expect(cl.site_id).toBe("MLC");
    expect(cl.error.cause[0]).toMatchObject({ code: "seller.site.not_enabled", message: "The seller is not enabled to sell in site MLC" });

    // The marketplace item: the local category of the same domain, the local title, a price from net proceeds plus fee.
    const local = (await t.call("GET", `/items/${mx.item_id}`, { token })).body;
    const mlm = t.sandbox.store.trees.MLM.byKey.get(leaf.key)!;
    expect(local).toMatchObject({
      site_id: "MLM",
      category_id: mlm.id,
      title: "Producto inalámbrico",
      currency_id: "MXN",
      parent_item_id: res.body.item_id,
    });
    expect(local.price).toBe(Math.round(((20 * 17) / (1 - mlm.feePercent.gold_special / 100)) * 100) / 100);
    const market = (await t.call("GET", `/marketplace/users/${cbtId}`, { token })).body.marketplaces;
    expect(local.seller_id).toBe(market.find((m: { site_id: string }) => m.site_id === "MLM").user_id);
    expect(mx.seller_id).toBe(local.seller_id);
    expect(local.attributes.find((a: { id: string }) => a.id === "BRAND").name).toBe("Marca");
  });

  it("prices each site in US dollars: net_proceeds, a price, or the global item's price; both or neither is refused", async () => {
    const mlb = t.sandbox.store.trees.MLB.byKey.get(leaf.key)!;
    const withGlobal = await t.call("POST", "/global/items", {
      token,
      body: globalBody([
        { site_id: "MLM", logistic_type: "remote", listing_type_id: "gold_special", price: 30 },
        { site_id: "MLB", logistic_type: "remote", listing_type_id: "gold_special" },
      ]),
    });
    expect(withGlobal.status).toBe(201);
    const [mx, br] = withGlobal.body.site_items;
    // A site's price converts at the site's rate; a site with neither takes the global item's price (20 USD).
    expect((await t.call("GET", `/items/${mx.item_id}`, { token })).body.price).toBe(30 * SITES.MLM.perUsd);
    expect((await t.call("GET", `/items/${br.item_id}`, { token })).body.price).toBe(20 * SITES.MLB.perUsd);

    const refused = await t.call("POST", "/global/items", {
      token,
      body: globalBody(
        [
          { site_id: "MLM", logistic_type: "remote", listing_type_id: "gold_special", net_proceeds: 20, price: 25 },
          { site_id: "MLB", logistic_type: "remote", listing_type_id: "gold_special" },
          { site_id: "MLB", logistic_type: "remote", listing_type_id: "gold_pro", net_proceeds: 10 },
        ],
        { price: undefined },
      ),
    });
    expect(refused.status).toBe(201);
    const [both, neither, net] = refused.body.site_items;
    expect(both.error.cause[0]).toMatchObject({
      code: "body.invalid_fields",
      references: ["sites_to_sell.price", "sites_to_sell.net_proceeds"],
    });
    expect(neither.error.cause[0]).toMatchObject({ code: "body.required_fields", references: ["sites_to_sell.net_proceeds"] });
    // net_proceeds: what the seller receives, the site's sale fee added on top.
    const local = (await t.call("GET", `/items/${net.item_id}`, { token })).body;
    expect(local.price).toBe(Math.round(((10 * SITES.MLB.perUsd) / (1 - mlb.feePercent.gold_pro / 100)) * 100) / 100);
    expect(local.listing_type_id).toBe("gold_pro");
  });

  it("accepts the page's body without buying_mode, listing_type_id, currency or a price of its own", async () => {
    const body = globalBody([{ site_id: "MLM", logistic_type: "remote", listing_type_id: "gold_pro", net_proceeds: 15 }], {
      price: undefined,
      buying_mode: undefined,
      listing_type_id: undefined,
      currency_id: undefined,
    });
    const sent = Object.keys(JSON.parse(JSON.stringify(body)));
    for (const k of ["price", "buying_mode", "listing_type_id", "currency_id"]) expect(sent).not.toContain(k);
    const res = await t.call("POST", "/global/items", { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const global = (await t.call("GET", `/items/${res.body.item_id}`, { token })).body;
    expect(global).toMatchObject({ site_id: "CBT", currency_id: "USD", buying_mode: "buy_it_now", listing_type_id: "gold_pro" });
    expect(res.body.site_items[0].item_id).toMatch(/^MLM\d+$/);
    // With no price anywhere the global item has none: refused as a whole.
    const none = await t.call("POST", "/global/items", {
      token,
      body: globalBody([{ site_id: "MLM", logistic_type: "remote" }], { price: undefined }),
    });
    expect(none.status).toBe(400);
    expect(none.body.cause[0]).toMatchObject({ code: "body.required_fields", references: ["item.price"] });
  });

  it("refuses an invalid global item as a whole, and a local seller", async () => {
    const bad = await t.call("POST", "/global/items", {
      token,
      body: globalBody([{ site_id: "MLM", net_proceeds: 10 }], { attributes: [] }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.cause.map((c: { code: string }) => c.code)).toEqual(["item.attributes.missing_required"]);
    expect(bad.body.cause[0].message).toContain("PACKAGE_LENGTH");
    const tiny = itemBody(leaf).attributes.map((a) => (a.id === "PACKAGE_HEIGHT" ? { id: a.id, value_name: "1 cm" } : a));
    const small = await t.call("POST", "/global/items", {
      token,
      body: globalBody([{ site_id: "MLM", net_proceeds: 10 }], { attributes: tiny }),
    });
    expect(small.body.cause[0].message).toContain("PACKAGE_HEIGHT");
    const noSites = await t.call("POST", "/global/items", { token, body: globalBody([]) });
    expect(noSites.body.cause[0].code).toBe("body.required_fields");
    const local = await t.connect("LOCAL_SELLER");
    expect((await t.call("POST", "/global/items", { token: local.access_token, body: globalBody([{ site_id: "MLM" }]) })).status).toBe(403);
    expect(t.control.callCount("POST /global/items")).toBe(4);
  });

  it("adds a site to an existing global item, refusing one already published", async () => {
    const created = await publish();
    const res = await t.call("POST", `/global/items/${created.item_id}`, {
      token,
      body: {
        sites_to_sell: [
          { site_id: "MLB", listing_type_id: "gold_special", net_proceeds: 20 },
          { site_id: "MLM", net_proceeds: 20 },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.site_items[0].item_id).toMatch(/^MLB\d+$/);
    expect(res.body.site_items[1].error.cause[0].code).toBe("item.site.already_published");
    const links = (await t.call("GET", `/items/${created.item_id}/marketplace_items`, { token })).body;
    expect(links.item_id).toBe(created.item_id);
    expect(links.marketplace_items.map((m: { site_id: string }) => m.site_id)).toEqual(["MLM", "MLB"]);
  });
});

describe("PUT /global/items/{id}", () => {
  it("answers {} and the change shows on the next GET; stock set on the global item reaches its marketplace items", async () => {
    const created = await publish();
    const mx = created.site_items[0].item_id;
    const stock = await t.call("PUT", `/global/items/${created.item_id}`, { token, body: { available_quantity: 42 } });
    expect(stock.status).toBe(200);
    expect(stock.body).toEqual({});
    expect((await t.call("GET", `/marketplace/items/${created.item_id}`, { token })).body.available_quantity).toBe(42);
    expect((await t.call("GET", `/items/${mx}`, { token })).body.available_quantity).toBe(42);

    const local = await t.call("PUT", `/global/items/${mx}`, {
      token,
      body: { title: "Título local nuevo", price: 900, status: "paused" },
    });
    expect(local.body).toEqual({});
    expect((await t.call("GET", `/marketplace/items/${mx}`, { token })).body).toMatchObject({
      title: "Título local nuevo",
      price: 900,
      status: "paused",
    });

    const ownStock = await t.call("PUT", `/global/items/${mx}`, { token, body: { available_quantity: 1 } });
    expect(ownStock.status).toBe(400);
    expect(ownStock.body.cause[0]).toMatchObject({ code: "field_not_updatable", references: ["item.available_quantity"] });
    const tooCheap = await t.call("PUT", `/global/items/${mx}`, { token, body: { price: 0.5 } });
    expect(tooCheap.body.cause[0].code).toBe("item.price.invalid");
    // Local items of a global seller are not changed through /items.
    expect((await t.call("PUT", `/items/${mx}`, { token, body: { price: 1000 } })).status).toBe(403);
  });

  it("keeps the global stock when a marketplace item sells", async () => {
    const created = await publish([
      { site_id: "MLM", net_proceeds: 20 },
      { site_id: "MLB", net_proceeds: 20 },
    ]);
    const [mx, br] = created.site_items.map((s: { item_id: string }) => s.item_id);
    const mxSeller = (await t.call("GET", `/items/${mx}`, { token })).body.seller_id;
    t.control.createOrder(mxSeller, { itemId: mx, quantity: 2 });
    expect((await t.call("GET", `/items/${created.item_id}`, { token })).body.available_quantity).toBe(3);
    expect((await t.call("GET", `/items/${br}`, { token })).body.available_quantity).toBe(3);
    expect((await t.call("GET", `/items/${mx}`, { token })).body).toMatchObject({ available_quantity: 3, sold_quantity: 2 });
  });

  it("is refused for another seller's item", async () => {
    const created = await publish();
    const other = await t.connect("GLOBAL_OTHER", "CBT", ["MLM"]);
    const res = await t.call("PUT", `/global/items/${created.item_id}`, { token: other.access_token, body: { available_quantity: 1 } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("access_denied");
    expect((await t.call("GET", `/marketplace/items/${created.item_id}`, { token: other.access_token })).status).toBe(403);
  });
});
