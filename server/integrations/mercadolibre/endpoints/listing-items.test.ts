// Contract tests of the item endpoints the listing centre uses: answers shaped as the documentation pages show them
// (written by us from those pages: items-y-busquedas.md's multiget and scan search, publica-productos.md's item,
// variaciones.md's variations, descripcion-de-articulos.md, trabajar-con-imagenes.md's upload, publica-productos.md's
// sale terms, recurso-de-visitas.md, Global Selling's marketplace items) go through each endpoint's schema and the
// listing code that reads them.
import { describe, expect, it } from "vitest";
import { contractSession } from "../../../testing/meli-contract.ts";
import { itemValues, readItems, readVisits, skusOfItem } from "../../../modules/listings/market-reads.ts";
import { listingChanges } from "../../../modules/listings/notifications.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import { MeliApiError } from "../errors.ts";
import {
  deleteItem,
  getCategorySaleTerms,
  getItemDescription,
  getItemVariations,
  getItem,
  getMarketplaceItem,
  scanSellerItems,
  updateItem,
  updateVariationStock,
  uploadPicture,
  writeItemDescription,
} from "./items.ts";
import { updateGlobalItem } from "./global-items.ts";

const silent = { warn() {} } as never;

// publica-productos.md "Consultar productos" / variaciones.md: an item with two variations (a few of its fields).
const item = {
  id: "MLM2061528470",
  site_id: "MLM",
  title: "Playera de algodón",
  seller_id: 206946886,
  category_id: "MLM1055",
  price: 249.5,
  currency_id: "MXN",
  available_quantity: 8,
  sold_quantity: 3,
  listing_type_id: "gold_special",
  status: "active",
  sub_status: [],
  permalink: "https://articulo.mercadolibre.com.mx/MLM-2061528470-playera-de-algodon-_JM",
  thumbnail: "http://http2.mlstatic.com/D_811782-MLM53283867805_012023-I.jpg",
  pictures: [
    {
      id: "811782-MLM53283867805_012023",
      url: "http://http2.mlstatic.com/D_811782-MLM53283867805_012023-O.jpg",
      secure_url: "https://http2.mlstatic.com/D_811782-MLM53283867805_012023-O.jpg",
      size: "500x329",
      max_size: "1080x711",
      quality: "",
    },
  ],
  health: 0.75,
  date_created: "2026-05-27T10:01:50.000Z",
  seller_custom_field: null,
  attributes: [
    { id: "BRAND", name: "Marca", value_id: null, value_name: "Totem", value_struct: null, values: [] },
    { id: "SELLER_SKU", name: "SKU", value_id: null, value_name: " PLAY-01 ", value_struct: null, values: [] },
  ],
  variations: [
    {
      id: 177163823616,
      price: 249.5,
      attribute_combinations: [{ id: "COLOR", name: "Color", value_id: "283165", value_name: "Gris" }],
      available_quantity: 5,
      sold_quantity: 2,
      picture_ids: ["811782-MLM53283867805_012023"],
      seller_custom_field: "PLAY-01-GRIS",
      catalog_product_id: null,
    },
    {
      id: 177163823617,
      price: 249.5,
      attribute_combinations: [{ id: "COLOR", name: "Color", value_id: "52049", value_name: "Negro" }],
      available_quantity: 3,
      sold_quantity: 1,
      picture_ids: [],
      seller_custom_field: null,
      catalog_product_id: null,
    },
  ],
  shipping: { mode: "me2", dimensions: null, free_shipping: false },
};

describe("GET /items?ids= (multiget)", () => {
  it("reads each entry: an item, a 404 or a deleted item as gone, another error as failed with its message", async () => {
    const s = contractSession({
      "GET /items": [
        { code: 200, body: item },
        { code: 404, body: { message: "Item with id MLM1 not found", error: "not_found", status: 404, cause: [] } },
        { code: 200, body: { ...item, id: "MLM2", status: "closed", sub_status: ["deleted"] } },
        { code: 403, body: { message: "The caller is not the owner", error: "forbidden", status: 403, cause: [] } },
      ],
    });
    const seen: string[] = [];
    const reads = await readItems(s, [item.id, "MLM1", "MLM2", "MLM3"], (x) => seen.push(x.path));
    expect(s.calls[0]).toMatchObject({ method: "GET", path: "/items", query: { ids: `${item.id},MLM1,MLM2,MLM3` } });
    expect(reads.get("MLM1")).toEqual({ kind: "deleted" });
    expect(reads.get("MLM2")).toEqual({ kind: "deleted" });
    expect(reads.get("MLM3")).toEqual({ kind: "failed", reason: "The caller is not the owner" });
    const found = reads.get(item.id);
    if (found?.kind !== "item") throw new Error("the item was not read");
    const now = new Date("2026-06-01T00:00:00Z");
    expect(itemValues(found.item, now)).toMatchObject({
      status: ListingStatus.Active,
      price: "249.50",
      currency: "MXN",
      stock: 8,
      orders: 3,
      health: "0.75",
      image: item.pictures[0].secure_url,
      syncTime: now,
    });
    expect(skusOfItem(found.item)).toEqual(["PLAY-01", "PLAY-01-GRIS"]);
  });

  it("an item entry without an id fails the read of every id with Mercado Libre's bad answer", async () => {
    const { id: _id, ...noId } = item;
    void _id;
    const s = contractSession({ "GET /items": [{ code: 200, body: noId }] });
    const reads = await readItems(s, [item.id], () => {});
    const read = reads.get(item.id);
    expect(read?.kind).toBe("failed");
    expect(read).toMatchObject({ reason: expect.stringMatching(/美客多/) });
  });
});

describe("GET /users/{id}/items/search?search_type=scan", () => {
  it("asks for the scan with the scroll id and reads ids, total and the next scroll id", async () => {
    // items-y-busquedas.md "Search de ítems con scan".
    const s = contractSession({
      "GET /users/206946886/items/search": {
        seller_id: "206946886",
        scroll_id: "YXBpY29yZS1pdGVtcw==",
        results: ["MLM2061528470", "MLM2061528471"],
        paging: { total: 2400, limit: 100 },
      },
    });
    const page = await scanSellerItems(s, "206946886", { limit: 100, scrollId: "cHJldmlvdXM=" });
    expect(s.calls[0].query).toEqual({ search_type: "scan", limit: 100, scroll_id: "cHJldmlvdXM=" });
    expect(page).toMatchObject({ scroll_id: "YXBpY29yZS1pdGVtcw==", results: ["MLM2061528470", "MLM2061528471"], paging: { total: 2400 } });
  });
});

describe("item reads for a notification", () => {
  it("reads a local item and a marketplace item into the listing's changes", async () => {
    const s = contractSession({
      "GET /items/MLM2061528470": { ...item, status: "paused", sub_status: ["out_of_stock"], available_quantity: 0 },
      // Global Selling "Marketplace items": the site item of a global item names its parent.
      "GET /marketplace/items/MLB3344556677": {
        ...item,
        id: "MLB3344556677",
        site_id: "MLB",
        currency_id: "BRL",
        price: 89.9,
        parent_item_id: "CBT1122334455",
      },
    });
    const listing = { status: ListingStatus.Active, price: "249.50", currency: "MXN", stock: 8, orders: 3, health: "0.75" } as never;
    const local = await getItem(s, "MLM2061528470");
    expect(listingChanges(listing, local)).toEqual({
      status: ListingStatus.Paused,
      stock: 0,
      title: item.title,
      permalink: item.permalink,
    });
    const site = await getMarketplaceItem(s, "MLB3344556677");
    expect(site.parent_item_id).toBe("CBT1122334455");
    expect(listingChanges(listing, site)).toMatchObject({ price: "89.90", currency: "BRL" });
  });
});

describe("PUT /items/{id} and PUT /global/items/{id}", () => {
  it("sends the change, takes the item or {} back, and deletes by closing first (re-publica.md)", async () => {
    const s = contractSession({ "PUT /items/MLM2061528470": { ...item, status: "closed" }, "PUT /global/items/CBT1122334455": {} });
    await updateItem(s, "MLM2061528470", { price: 260 });
    await updateGlobalItem(s, "CBT1122334455", { available_quantity: 4 });
    await deleteItem(s, "MLM2061528470", { closed: false });
    await deleteItem(s, "MLM2061528470", { closed: true });
    expect(s.calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ["PUT", "/items/MLM2061528470", { price: 260 }],
      ["PUT", "/global/items/CBT1122334455", { available_quantity: 4 }],
      ["PUT", "/items/MLM2061528470", { status: "closed" }],
      ["PUT", "/items/MLM2061528470", { deleted: "true" }],
      ["PUT", "/items/MLM2061528470", { deleted: "true" }],
    ]);
  });

  it("a PUT answered with something that is not an object is a bad response", async () => {
    const err = await updateItem(contractSession({ "PUT /items/MLM1": ["not", "an", "item"] }), "MLM1", { price: 1 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MeliApiError);
    expect((err as MeliApiError).kind).toBe("bad-response");
  });
});

describe("descriptions and variations", () => {
  it("reads the plain text, then POSTs a first description and PUTs a change (descripcion-de-articulos.md)", async () => {
    const answer = { text: "", plain_text: "Playera 100% algodón", last_updated: "2026-05-27T10:01:50.000Z" };
    const s = contractSession({
      "GET /items/MLM1/description": answer,
      "POST /items/MLM1/description": answer,
      "PUT /items/MLM1/description": answer,
    });
    expect((await getItemDescription(s, "MLM1")).plain_text).toBe("Playera 100% algodón");
    await writeItemDescription(s, "MLM1", "Nueva", { exists: false });
    await writeItemDescription(s, "MLM1", "Otra", { exists: true });
    expect(s.calls.slice(1).map((c) => [c.method, c.body])).toEqual([
      ["POST", { plain_text: "Nueva" }],
      ["PUT", { plain_text: "Otra" }],
    ]);
  });

  it("reads the variations and writes each one's stock naming every variation (variaciones.md)", async () => {
    const s = contractSession({ "GET /items/MLM1/variations": item.variations, "PUT /items/MLM1": item });
    const variations = await getItemVariations(s, "MLM1");
    expect(variations.map((v) => [v.id, v.available_quantity])).toEqual([
      ["177163823616", 5],
      ["177163823617", 3],
    ]);
    await updateVariationStock(
      s,
      "MLM1",
      variations.map((v) => ({ id: v.id, available_quantity: 9 })),
    );
    expect(s.calls[1].body).toEqual({
      variations: [
        { id: "177163823616", available_quantity: 9 },
        { id: "177163823617", available_quantity: 9 },
      ],
    });
    const noId = await getItemVariations(contractSession({ "GET /items/MLM1/variations": [{ price: 1 }] }), "MLM1").catch(
      (e: unknown) => e,
    );
    expect((noId as MeliApiError).meli.message).toContain("GET /items/MLM1/variations: 0.id");
  });
});

describe("pictures, sale terms and visits", () => {
  it("uploads a picture and reads its id; an answer without one is a bad response", async () => {
    // trabajar-con-imagenes.md "Validar y cargar una imagen".
    const uploaded = {
      id: "123-MLA456_112021",
      variations: [
        {
          size: "1920x1076",
          url: "http://http2.mlstatic.com/D_NQ_NP_123-MLA456_112021-F.jpg",
          secure_url: "https://http2.mlstatic.com/D_NQ_NP_123-MLA456_112021-F.jpg",
        },
        {
          size: "500x280",
          url: "http://http2.mlstatic.com/D_NQ_NP_123-MLA456_112021-O.jpg",
          secure_url: "https://http2.mlstatic.com/D_NQ_NP_123-MLA456_112021-O.jpg",
        },
      ],
    };
    const file = { data: Buffer.from([0xff, 0xd8, 0xff]), filename: "a.jpg", contentType: "image/jpeg" };
    const s = contractSession({ "POST /pictures/items/upload": uploaded });
    expect((await uploadPicture(s, file)).id).toBe("123-MLA456_112021");
    const bad = await uploadPicture(contractSession({ "POST /pictures/items/upload": { variations: [] } }), file).catch((e: unknown) => e);
    expect((bad as MeliApiError).kind).toBe("bad-response");
  });

  it("reads a category's warranty terms (publica-productos.md)", async () => {
    const s = contractSession({
      "GET /categories/MLA1642/sale_terms": [
        {
          id: "WARRANTY_TYPE",
          name: "Tipo de garantía",
          tags: {},
          hierarchy: "SALE_TERMS",
          relevance: 2,
          value_type: "list",
          values: [
            { id: "2230279", name: "Garantía de fábrica" },
            { id: "2230280", name: "Garantía del vendedor" },
          ],
        },
        {
          id: "WARRANTY_TIME",
          name: "Tiempo de garantía",
          tags: {},
          value_type: "number_unit",
          value_max_length: 255,
          allowed_units: [
            { id: "días", name: "días" },
            { id: "meses", name: "meses" },
          ],
          default_unit: "días",
        },
      ],
    });
    const terms = await getCategorySaleTerms(s, "MLA1642");
    expect(terms.find((t) => t.id === "WARRANTY_TYPE")?.values?.map((v) => v.id)).toEqual(["2230279", "2230280"]);
    expect(terms.find((t) => t.id === "WARRANTY_TIME")?.allowed_units?.map((u) => u.id)).toEqual(["días", "meses"]);
  });

  it("reads total visits per item, keeping only whole numbers (recurso-de-visitas.md)", async () => {
    const s = contractSession({ "GET /visits/items": { MLB9992242141: 552, MLB1: "n/a" } });
    const visits = await readVisits(s, ["MLB9992242141", "MLB1", "MLB2"], () => {}, silent);
    expect(s.calls[0].query).toEqual({ ids: "MLB9992242141,MLB1,MLB2" });
    expect([...visits]).toEqual([["MLB9992242141", 552]]);
  });
});
