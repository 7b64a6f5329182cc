// The category tree of each site, small but real in shape (a few hundred categories, depth 2-4, leaves with attributes
// the real API's way), the same for one seed and different for another; fees, listing types, the predictor, and the
// real 404 for a site id the API does not know.
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_IDS } from "./sites.ts";
import { startSandbox, type TestSandbox } from "../testing/sandbox-kit.ts";

let t: TestSandbox;
let token: string;

beforeAll(async () => {
  t = await startSandbox();
  token = (await t.connect("CATALOG_SELLER")).access_token;
});
afterAll(() => t.close());

type Dumped = {
  id: string;
  name: string;
  path_from_root: { id: string; name: string }[];
  children_categories: { id: string; name: string }[];
  settings: {
    listing_allowed: boolean;
    minimum_price: number;
    max_title_length: number;
    max_pictures_per_item: number;
    currencies: string[];
  };
};

async function dump(site: string): Promise<Record<string, Dumped>> {
  const res = await t.call("GET", `/sites/${site}/categories/all`);
  expect(res.status).toBe(200);
  return res.body;
}

describe("category trees", () => {
  it.each(SITE_IDS)("%s: a few hundred categories, consistent paths and children, depth 2 to 4", async (site) => {
    const all = await dump(site);
    const list = Object.values(all);
    expect(list.length).toBeGreaterThanOrEqual(200);
    expect(list.length).toBeLessThanOrEqual(600);
    const roots = (await t.call("GET", `/sites/${site}/categories`)).body as { id: string; name: string }[];
    expect(roots.length).toBeGreaterThanOrEqual(10);
    const depths = new Set<number>();
    for (const c of list) {
      expect(c.id.startsWith(site)).toBe(true);
      const path = c.path_from_root;
      expect(path[path.length - 1]).toEqual({ id: c.id, name: c.name });
      if (path.length === 1) expect(roots.map((r) => r.id)).toContain(c.id);
      else expect(all[path[path.length - 2].id].children_categories.map((x) => x.id)).toContain(c.id);
      for (const child of c.children_categories) expect(all[child.id].path_from_root.slice(0, -1)).toEqual(path);
      const leaf = c.children_categories.length === 0;
      expect(c.settings.listing_allowed).toBe(leaf);
      if (leaf) depths.add(path.length);
      expect(c.settings.minimum_price).toBeGreaterThan(0);
      expect(c.settings.max_title_length).toBeGreaterThanOrEqual(60);
      expect(c.settings.max_pictures_per_item).toBeGreaterThanOrEqual(10);
    }
    expect([...depths].sort()).toEqual([2, 3, 4]);
  });

  it("names categories in the site's language and prices them in its currency", async () => {
    const names = async (site: string) =>
      ((await t.call("GET", `/sites/${site}/categories`)).body as { name: string }[]).map((c) => c.name);
    expect(await names("MLM")).toContain("Celulares y Teléfonos");
    expect(await names("MLB")).toContain("Celulares e Telefones");
    expect(await names("CBT")).toContain("Cell Phones and Telephones");
    const mlc = Object.values(await dump("MLC"))[0];
    expect(mlc.settings.currencies).toEqual(["CLP"]);
  });

  it("gives every leaf attributes shaped like the real API's, required ones included", async () => {
    const all = await dump("MLM");
    const leaves = Object.values(all).filter((c) => c.children_categories.length === 0);
    let variationLeaves = 0;
    for (const leaf of leaves.filter((_, i) => i % 7 === 0)) {
      const res = await t.call("GET", `/categories/${leaf.id}/attributes`);
      const attrs = res.body as {
        id: string;
        name: string;
        tags: Record<string, boolean>;
        value_type: string;
        values?: unknown[];
        allowed_units?: unknown[];
      }[];
      expect(attrs.length).toBeGreaterThanOrEqual(6);
      const brand = attrs.find((a) => a.id === "BRAND")!;
      expect(brand.tags).toMatchObject({ required: true, catalog_required: true });
      expect(attrs.filter((a) => a.tags.required).length).toBeGreaterThanOrEqual(1);
      expect(attrs.find((a) => a.id === "SELLER_SKU")!.tags).toEqual({ variation_attribute: true });
      expect(attrs.find((a) => a.id === "GTIN")!.tags).toMatchObject({ conditional_required: true, multivalued: true });
      expect(attrs.find((a) => a.id === "IS_HIGHLIGHT_BRAND")!.tags).toMatchObject({ hidden: true, read_only: true });
      for (const a of attrs) {
        expect(["string", "number", "number_unit", "list", "boolean"]).toContain(a.value_type);
        if (a.value_type === "list" || a.value_type === "boolean") expect(a.values!.length).toBeGreaterThan(0);
        if (a.value_type === "number_unit") expect(a.allowed_units!.length).toBeGreaterThan(0);
      }
      if (attrs.some((a) => a.tags.allow_variations)) variationLeaves++;
    }
    expect(variationLeaves).toBeGreaterThan(0);
    const phones = Object.values(all).find((c) => c.name === "Celulares y Smartphones")!;
    const phoneAttrs = (await t.call("GET", `/categories/${phones.id}/attributes`)).body as {
      id: string;
      tags: object;
      allowed_units?: { id: string }[];
    }[];
    expect(phoneAttrs.find((a) => a.id === "INTERNAL_MEMORY")).toMatchObject({ tags: { required: true }, value_type: "number_unit" });
    expect(phoneAttrs.find((a) => a.id === "INTERNAL_MEMORY")!.allowed_units!.map((u) => u.id)).toEqual(["GB", "TB"]);
    expect(phoneAttrs.find((a) => a.id === "COLOR")!.tags).toMatchObject({ allow_variations: true });
    const shoes = Object.values(all).find((c) => c.name === "Tenis para Correr")!;
    const size = (
      (await t.call("GET", `/categories/${shoes.id}/attributes`)).body as { id: string; tags: object; values: { name: string }[] }[]
    ).find((a) => a.id === "SIZE")!;
    expect(size.tags).toMatchObject({ required: true, allow_variations: true });
    expect(size.values.map((v) => v.name)).toContain("42");
  });

  it("requires package dimensions and the condition on global (CBT) leaves only", async () => {
    const cbtLeaf = Object.values(await dump("CBT")).find((c) => c.children_categories.length === 0)!;
    const cbt = (await t.call("GET", `/categories/${cbtLeaf.id}/attributes`)).body as { id: string; tags: { required?: boolean } }[];
    for (const id of ["PACKAGE_LENGTH", "PACKAGE_WIDTH", "PACKAGE_HEIGHT", "PACKAGE_WEIGHT", "ITEM_CONDITION"]) {
      expect(cbt.find((a) => a.id === id)?.tags.required).toBe(true);
    }
    const mlmLeaf = Object.values(await dump("MLM")).find((c) => c.children_categories.length === 0)!;
    const mlm = (await t.call("GET", `/categories/${mlmLeaf.id}/attributes`)).body as { id: string; tags: { required?: boolean } }[];
    expect(mlm.find((a) => a.id === "PACKAGE_LENGTH")).toBeUndefined();
    expect(mlm.find((a) => a.id === "ITEM_CONDITION")!.tags.required).toBeUndefined();
  });

  it("answers one category by id, and 404 for an unknown one", async () => {
    const all = await dump("MLB");
    const leaf = Object.values(all).find((c) => c.path_from_root.length === 4)!;
    const res = await t.call("GET", `/categories/${leaf.id}`);
    expect(res.body).toEqual(all[leaf.id]);
    const parent = await t.call("GET", `/categories/${leaf.path_from_root[2].id}`);
    expect(parent.body.settings.listing_allowed).toBe(false);
    expect(parent.body.children_categories.map((c: { id: string }) => c.id)).toContain(leaf.id);
    const missing = await t.call("GET", "/categories/MLB1");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: "not_found", status: 404, cause: [] });
  });

  it("serves the whole tree gzipped when asked", async () => {
    const res = await t.app.inject({ method: "GET", url: "/sites/MCO/categories/all", headers: { "accept-encoding": "gzip" } });
    expect(res.headers["content-encoding"]).toBe("gzip");
    const plain = (await t.call("GET", "/sites/MCO/categories/all")).raw;
    expect(res.rawPayload.length).toBeLessThan(plain.length / 3);
    expect(gunzipSync(res.rawPayload).toString()).toBe(plain);
  });

  it("is the same tree for one seed and another tree for another seed", async () => {
    const same = await startSandbox();
    const other = await startSandbox({ seed: "another-seed" });
    try {
      const ids = async (s: TestSandbox) => Object.keys((await s.call("GET", "/sites/MLM/categories/all")).body).sort();
      const mine = await ids(t);
      expect(await ids(same)).toEqual(mine);
      const theirs = await ids(other);
      expect(theirs.length).toBe(mine.length);
      expect(theirs).not.toEqual(mine);
    } finally {
      await same.close();
      await other.close();
    }
  });

  it("answers the real 404 for an invalid site id on every site route", async () => {
    for (const url of [
      "/sites/MLX/categories",
      "/sites/MLX/categories/all",
      "/sites/MLX/listing_types",
      "/sites/MLA/listing_prices?price=10",
    ]) {
      const res = await t.call("GET", url);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: `Invalid site_id: ${url.split("/")[2]}`, error: "not_found", status: 404, cause: [] });
    }
    const discovery = await t.call("GET", "/sites/XYZ/domain_discovery/search", { token, query: { q: "funda" } });
    expect(discovery.body.message).toBe("Invalid site_id: XYZ");
  });
});

describe("listing types and fees", () => {
  it("lists the site's listing types in its language", async () => {
    const mlb = (await t.call("GET", "/sites/MLB/listing_types")).body;
    expect(mlb).toEqual([
      { site_id: "MLB", id: "gold_pro", name: "Premium" },
      { site_id: "MLB", id: "gold_special", name: "Clássico" },
      { site_id: "MLB", id: "free", name: "Grátis" },
    ]);
    expect((await t.call("GET", "/sites/CBT/listing_types")).body.map((x: { id: string }) => x.id)).toEqual(["gold_pro", "gold_special"]);
  });

  it("prices a sale per listing type from the category's percentages, with the fixed fee under the threshold", async () => {
    const leaf = t.sandbox.store.trees.MLM.all.find((c) => c.leaf)!;
    const all = (await t.call("GET", "/sites/MLM/listing_prices", { query: { price: 1000, category_id: leaf.id } })).body;
    expect(all.map((f: { listing_type_id: string }) => f.listing_type_id)).toEqual(["gold_pro", "gold_special", "free"]);
    const classic = all[1];
    expect(classic).toMatchObject({ currency_id: "MXN", listing_fee_amount: 0, requires_picture: true });
    expect(classic.sale_fee_details.percentage_fee).toBe(leaf.feePercent.gold_special);
    expect(classic.sale_fee_amount).toBe((1000 * leaf.feePercent.gold_special) / 100);
    expect(all[0].sale_fee_details.percentage_fee).toBeGreaterThan(classic.sale_fee_details.percentage_fee);
    expect(all[2].sale_fee_amount).toBe(0);
    // Asked for one listing type the answer is still a list, of that one entry.
    const [cheap, ...more] = (
      await t.call("GET", "/sites/MLM/listing_prices", { query: { price: 100, category_id: leaf.id, listing_type_id: "gold_special" } })
    ).body;
    expect(more).toEqual([]);
    expect(cheap.listing_type_id).toBe("gold_special");
    expect(cheap.sale_fee_details.fixed_fee).toBe(25);
    expect(cheap.sale_fee_amount).toBe(leaf.feePercent.gold_special + 25);
    const missing = await t.call("GET", "/sites/MLM/listing_prices");
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ message: "The parameter 'price' has to be a number", error: "bad_request" });
    expect((await t.call("GET", "/sites/MLM/listing_prices", { query: { price: 10, listing_type_id: "bronze" } })).status).toBe(404);
  });
  it("charges the fixed fee under the threshold by logistic type and shipping mode: with ME2 only Flex pays it", async () => {
    const leaf = t.sandbox.store.trees.MLM.all.find((c) => c.leaf)!;
    const fixed = async (extra: Record<string, string>, price = 100) =>
      (
        await t.call("GET", "/sites/MLM/listing_prices", {
          query: { price, category_id: leaf.id, listing_type_id: "gold_special", currency_id: "MXN", ...extra },
        })
      ).body[0].sale_fee_details.fixed_fee;
    expect(await fixed({ logistic_type: "drop_off", shipping_mode: "me2" })).toBe(0);
    expect(await fixed({ logistic_type: "fulfillment" })).toBe(0);
    expect(await fixed({ shipping_mode: "me2" })).toBe(0);
    expect(await fixed({ logistic_type: "self_service", shipping_mode: "me2" })).toBe(25);
    expect(await fixed({ logistic_type: "default" })).toBe(25);
    expect(await fixed({ shipping_mode: "custom" })).toBe(25);
    expect(await fixed({ shipping_mode: "not_specified" })).toBe(25);
    // At or above the threshold nobody pays it.
    expect(await fixed({ logistic_type: "self_service", shipping_mode: "me2" }, 299)).toBe(0);
    expect(await fixed({ shipping_mode: "me1" }, 299)).toBe(0);
    const bad = async (extra: Record<string, string>) =>
      (await t.call("GET", "/sites/MLM/listing_prices", { query: { price: 100, ...extra } })).status;
    expect(await bad({ logistic_type: "teleport" })).toBe(400);
    expect(await bad({ shipping_mode: "me9" })).toBe(400);
    expect(await bad({ currency_id: "USD" })).toBe(400);
  });
});

describe("domain discovery", () => {
  it("predicts leaves from the words of a title, with the attributes it names", async () => {
    const res = await t.call("GET", "/sites/MLM/domain_discovery/search", {
      token,
      query: { q: "Funda para iPhone 15 negra silicona", limit: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThanOrEqual(3);
    expect(res.body[0]).toMatchObject({ category_name: "Fundas para iPhone", domain_id: "MLM-IPHONE_CASES" });
    expect(t.sandbox.store.trees.MLM.byId.get(res.body[0].category_id)!.leaf).toBe(true);
    expect(res.body[0].attributes).toContainEqual(expect.objectContaining({ id: "MATERIAL", value_name: "Silicona" }));
    const br = await t.call("GET", "/sites/MLB/domain_discovery/search", { token, query: { q: "tênis nike corrida masculino 42" } });
    expect(br.body[0].category_name).toBe("Tênis de Corrida");
    expect(br.body[0].attributes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: "BRAND", value_name: "Nike" }),
        expect.objectContaining({ id: "SIZE", value_name: "42" }),
      ]),
    );
  });

  it("predicts global categories in English at /marketplace/domain_discovery", async () => {
    const res = await t.call("GET", "/marketplace/domain_discovery/search", { token, query: { q: "wireless bluetooth headphones" } });
    expect(res.body[0]).toMatchObject({ category_name: "Wireless Headphones", domain_id: "CBT-WIRELESS_HEADPHONES" });
    expect(res.body[0].category_id).toMatch(/^CBT\d+$/);
  });

  it("answers [] for words it does not know, and 400 without q or with limit over 8; needs a token", async () => {
    expect((await t.call("GET", "/sites/MLM/domain_discovery/search", { token, query: { q: "zzqx" } })).body).toEqual([]);
    expect((await t.call("GET", "/sites/MLM/domain_discovery/search", { token })).status).toBe(400);
    expect((await t.call("GET", "/sites/MLM/domain_discovery/search", { token, query: { q: "funda", limit: 9 } })).status).toBe(400);
    expect((await t.call("GET", "/sites/MLM/domain_discovery/search", { query: { q: "funda" } })).status).toBe(401);
  });
});
