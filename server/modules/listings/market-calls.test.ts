// The item endpoints the listing centre gained, through the real client and HTTP stack against the sandbox: a picture
// uploaded as multipart (trabajar-con-imagenes.md) and listed on an item by its id, a category's sale terms
// (publica-productos.md), an item's variations read and their stock written (variaciones.md), and an item closed then
// deleted as the docs describe it.
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  deleteItem,
  getCategorySaleTerms,
  getItemVariations,
  getItem,
  updateVariationStock,
  uploadPicture,
} from "../../integrations/mercadolibre/endpoints/items.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { createShopItem } from "../../testing/listing-kit.ts";
import { connectPublishingShop } from "../../testing/publish-kit.ts";
import { itemBody, plainLeaf, variationLeaf } from "../../testing/sandbox-kit.ts";

let s: TestServer;
let A: TestTenant;
let groupA: string;

const shop = () => s.deps.meli.shop({ tenantId: A.tenantId, groupId: groupA });

/** A PNG of the given size (its header is what the sandbox reads). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(16))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  groupA = await connectPublishingShop(s, A, { nickname: uniqueName("CALLS"), site: "MLM", sites: [1] }, []);
}, 180_000);
afterAll(() => s?.close());

describe("the listing centre's item calls against the sandbox", () => {
  it("uploads a picture as multipart and lists it on an item by id; a too small one is refused on the item", async () => {
    const uploaded = await uploadPicture(shop(), { data: png(900, 700), filename: "lamp.png", contentType: "image/png" });
    expect(uploaded.id).toMatch(/^\d+-MLM\d+_\d{6}$/);
    expect(uploaded.max_size).toBe("900x700");
    const itemId = await createShopItem(s, A, groupA, { pictures: [{ id: uploaded.id }] });
    const item = await getItem(shop(), itemId);
    expect(item.pictures?.map((p) => p.id)).toEqual([uploaded.id]);

    const small = await uploadPicture(shop(), { data: png(300, 200), filename: "small.png", contentType: "image/png" });
    const refused = await createShopItem(s, A, groupA, { pictures: [{ id: small.id }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MeliApiError);
    expect((refused as MeliApiError).meli.cause[0]).toMatchObject({ cause_id: 3703, code: "item.pictures.invalid_size" });
    expect((refused as MeliApiError).message).toContain("图片尺寸不符合要求");
  });

  it("reads a category's sale terms", async () => {
    const terms = await getCategorySaleTerms(shop(), plainLeaf(s.deps.sandbox!, "MLM").id);
    expect(terms.map((t) => t.id)).toEqual(["WARRANTY_TYPE", "WARRANTY_TIME"]);
    expect(terms[0].values?.map((v) => v.id)).toEqual(["2230279", "2230280"]);
  });

  it("reads an item's variations and writes each one's stock", async () => {
    const cat = variationLeaf(s.deps.sandbox!, "MLM");
    const colors = cat.attributes.find((a) => a.id === "COLOR")!.values!;
    const itemId = await createShopItem(s, A, groupA, {
      category_id: cat.id,
      attributes: itemBody(cat).attributes,
      variations: colors.slice(0, 2).map((c) => ({ attribute_combinations: [{ id: "COLOR", value_id: c.id }], available_quantity: 1 })),
    });
    const variations = await getItemVariations(shop(), itemId);
    expect(variations).toHaveLength(2);
    await updateVariationStock(
      shop(),
      itemId,
      variations.map((v) => ({ id: v.id, available_quantity: 6 })),
    );
    expect((await getItemVariations(shop(), itemId)).map((v) => v.available_quantity)).toEqual([6, 6]);
    expect((await getItem(shop(), itemId)).available_quantity).toBe(12);
  });

  it("closes then deletes an item; the read shows it deleted", async () => {
    const itemId = await createShopItem(s, A, groupA);
    await deleteItem(shop(), itemId, { closed: false });
    const gone = await getItem(shop(), itemId);
    expect(gone).toMatchObject({ status: "closed", sub_status: ["deleted"] });
    // Deleting a live item without closing it first is refused.
    const live = await createShopItem(s, A, groupA);
    const refused = await deleteItem(shop(), live, { closed: true }).catch((e: unknown) => e);
    expect((refused as MeliApiError).meli.cause[0]).toMatchObject({ code: "item.status.invalid" });
  });
});
