// Contract tests of the read endpoints (users, categories, the predictor, public items): answers shaped as the
// documentation pages show them (written by us from those pages) go through each endpoint's schema and the product
// code that reads them.
import { describe, expect, it } from "vitest";
import { contractSession } from "../../../testing/meli-contract.ts";
import { joinPredictions } from "../../../modules/categories/predict.ts";
import { toAttributes, treeRows } from "../../../modules/categories/shape.ts";
import { planShops } from "../../../modules/meli/shop-provisioning.ts";
import { MeliApiError } from "../errors.ts";
import { getAllCategories, getCategory, getCategoryAttributes, predictCategory } from "./categories.ts";
import { getItems } from "./items.ts";
import { getPublicUser, publicItem } from "./public-items.ts";
import { getMarketplaceUser, getMe } from "./users.ts";

// docs/02-users/usuarios-y-aplicaciones.md: a local seller (numeric id, tags, reputation among many other fields).
const localSeller = {
  id: 206946886,
  nickname: "TIENDA_DEMO",
  country_id: "MX",
  site_id: "MLM",
  user_type: "normal",
  tags: ["normal", "test_user"],
  seller_reputation: { level_id: null, transactions: { total: 0 } },
};

// Global Selling "Users": a global seller and its user on each marketplace.
const globalSeller = { id: 1500000001, nickname: "GS_DEMO", site_id: "CBT", country_id: "CN", tags: ["normal"] };
const marketplaces = {
  user_id: 1500000001,
  site_id: "CBT",
  marketplaces: [
    { site_id: "MLM", user_id: 1500000002, logistic_type: "remote" },
    { site_id: "MLB", user_id: 1500000003, logistic_type: "fulfillment" },
  ],
};

// docs/12-products/categoriza-productos.md: a category's detail (leaf, settings) and its parent in the site's dump.
const leaf = {
  id: "MLM3530",
  name: "Otros",
  total_items_in_this_category: 180778,
  path_from_root: [
    { id: "MLM1953", name: "Otras categorías" },
    { id: "MLM3530", name: "Otros" },
  ],
  children_categories: [],
  attribute_types: "attributes",
  settings: { listing_allowed: true, max_title_length: 60, max_pictures_per_item: 12, minimum_price: 99, minimum_price_currency: "MXN" },
};
const root = {
  id: "MLM1953",
  name: "Otras categorías",
  path_from_root: [{ id: "MLM1953", name: "Otras categorías" }],
  children_categories: [{ id: "MLM3530", name: "Otros", total_items_in_this_category: 180778 }],
  settings: { listing_allowed: false },
};

// docs/04-items/atributos.md: tags are an object of flags; values and units are lists.
const attributes = [
  {
    id: "BRAND",
    name: "Marca",
    tags: { required: true },
    value_type: "string",
    value_max_length: 255,
    values: [{ id: "9344", name: "Apple" }],
  },
  {
    id: "COLOR",
    name: "Color",
    tags: { allow_variations: true },
    type: "color",
    value_type: "list",
    values: [{ id: "52049", name: "Negro", metadata: { rgb: "000000" } }],
  },
  {
    id: "PACKAGE_WEIGHT",
    name: "Peso del paquete",
    tags: { hidden: true },
    value_type: "number_unit",
    allowed_units: [{ id: "g", name: "g" }],
    default_unit: "g",
  },
];

// docs/12-products/categoriza-productos.md: the predictor's attributes carry no name.
const predictions = [
  {
    domain_id: "MLM-CELLPHONES",
    domain_name: "Celulares",
    category_id: "MLM1055",
    category_name: "Celulares y Smartphones",
    attributes: [{ id: "BRAND", value_id: "9344", value_name: "Apple" }],
  },
];

describe("users endpoints", () => {
  it("reads a local seller into one shop on its site", async () => {
    const me = await getMe(contractSession({ "GET /users/me": localSeller }));
    expect(me.id).toBe("206946886");
    expect(planShops(me, null, [])).toEqual([
      { site: 1, siteCode: "MLM", custId: "206946886", isCbt: false, isFull: false, currency: "MXN" },
    ]);
  });

  it("reads a global seller's marketplaces into one cross-border shop per site", async () => {
    const s = contractSession({ "GET /users/me": globalSeller, "GET /marketplace/users/1500000001": marketplaces });
    const me = await getMe(s);
    const market = await getMarketplaceUser(s, me.id);
    const plan = planShops(me, market, []);
    expect(plan).toMatchObject([
      { site: 1, custId: "1500000002", isCbt: true, isFull: false },
      { site: 2, custId: "1500000003", isCbt: true, isFull: true },
    ]);
  });

  it("refuses an answer without the seller's id, naming the endpoint and the field", async () => {
    const err = await getMe(contractSession({ "GET /users/me": { nickname: "X", site_id: "MLM" } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeliApiError);
    expect(err).toMatchObject({ kind: "bad-response" });
    expect((err as MeliApiError).meli.message).toMatch(/^GET \/users\/me: id: /);
  });
});

describe("category endpoints", () => {
  it("turns the site's dump into tree rows: parent, leaf, path and the leaf's limits", async () => {
    const dump = await getAllCategories(contractSession({ "GET /sites/MLM/categories/all": { MLM1953: root, MLM3530: leaf } }), "MLM");
    const rows = treeRows(dump);
    expect(rows.find((r) => r.cateId === "MLM3530")).toMatchObject({
      level: 2,
      pId: "MLM1953",
      isLeaf: true,
      listingAllowed: true,
      fullName: "Otras categorías > Otros",
      maxTitleLength: 60,
      maxPictures: 12,
      minimumPrice: 99,
    });
    expect(rows.find((r) => r.cateId === "MLM1953")).toMatchObject({ level: 1, pId: null, isLeaf: false, listingAllowed: false });
  });

  it("reads one category", async () => {
    const one = await getCategory(contractSession({ "GET /categories/MLM3530": leaf }), "MLM3530");
    expect(one.path_from_root.at(-1)).toEqual({ id: "MLM3530", name: "Otros" });
  });

  it("turns the documented attribute tags into required, variation and hidden attributes", async () => {
    const list = await getCategoryAttributes(contractSession({ "GET /categories/MLM3530/attributes": attributes }), "MLM3530");
    const shaped = toAttributes(list);
    expect(shaped.map((a) => [a.id, a.isRequired, a.tags])).toEqual([
      ["BRAND", true, ["required"]],
      ["COLOR", false, ["allow_variations"]],
      ["PACKAGE_WEIGHT", false, ["hidden"]],
    ]);
    expect(shaped[2]).toMatchObject({ valueType: "number_unit", units: [{ id: "g", name: "g" }], defaultUnit: "g" });
  });

  it("joins the predictor's answer (attributes without names) with the categories we know", async () => {
    const s = contractSession({ "GET /sites/MLM/domain_discovery/search": predictions });
    const found = await predictCategory(s, "MLM", "celular iphone", 3);
    expect(s.calls[0].query).toEqual({ q: "celular iphone", limit: 3 });
    const joined = joinPredictions(found, [
      { cateId: "MLM1055", fullName: "Celulares > Smartphones", fullZh: null, isLeaf: true, visible: true },
    ]);
    expect(joined[0]).toMatchObject({ cateId: "MLM1055", selectable: true, attributes: [{ id: "BRAND", name: null, valueName: "Apple" }] });
  });

  it("asks the global predictor for CBT", async () => {
    const s = contractSession({ "GET /marketplace/domain_discovery/search": [] });
    expect(await predictCategory(s, "CBT", "phone")).toEqual([]);
  });
});

describe("public item reads", () => {
  it("reads a multiget answer entry by entry: an item and a missing one", async () => {
    // docs/04-items/items-y-busquedas.md: multiget answers [{code, body}] in the order asked.
    const s = contractSession({
      "GET /items": [
        {
          code: 200,
          body: { id: "MLM1", site_id: "MLM", title: "Funda", seller_id: 206946886, price: 199, currency_id: "MXN", sold_quantity: 5 },
        },
        { code: 404, body: { message: "Item with id MLM2 not found", error: "not_found", status: 404, cause: [] } },
      ],
      "GET /users/206946886": { id: 206946886, nickname: "TIENDA_DEMO", country_id: "MX", site_id: "MLM" },
    });
    const [found, missing] = await getItems(s, ["MLM1", "MLM2"]);
    expect(s.calls[0].query).toEqual({ ids: "MLM1,MLM2" });
    const item = publicItem.parse(found.body);
    expect(item).toMatchObject({ price: 199, seller_id: "206946886" });
    expect(missing.code).toBe(404);
    expect((await getPublicUser(s, item.seller_id)).country_id).toBe("MX");
  });
});
