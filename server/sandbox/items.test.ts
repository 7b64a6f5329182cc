// Items on a local site: validation errors with cause[] worded as the real API's, warnings that do not block, updates
// visible on the next read with the real locks, descriptions in plain text only, multiget, search with scroll ids that
// expire, picture upload, and the creation counter a reliability test reads.
import { deflateSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Category } from "./categories.ts";
import { itemBody, plainLeaf, startSandbox, variationLeaf, type TestSandbox } from "../testing/sandbox-kit.ts";

let t: TestSandbox;
let token: string;
let sellerId: number;
let leaf: Category;

beforeEach(async () => {
  t = await startSandbox();
  const s = await t.connect("ITEM_SELLER");
  token = s.access_token;
  sellerId = s.user_id;
  leaf = plainLeaf(t.sandbox, "MLM");
});
afterEach(() => t.close());

async function create(overrides: Record<string, unknown> = {}, category = leaf, as = token) {
  return t.call("POST", "/items", { token: as, body: itemBody(category, overrides) });
}

async function created(overrides: Record<string, unknown> = {}, category = leaf) {
  const res = await create(overrides, category);
  expect(res.status).toBe(201);
  return res.body;
}

const codes = (body: { cause: { code: string }[] }) => body.cause.map((c) => c.code);

/** A PNG header of the given size (enough for the upload's size check). */
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

function multipart(field: string, filename: string, content: Buffer) {
  const boundary = "----sandbox-test-boundary";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` } };
}

describe("POST /items", () => {
  it("creates an item in the real shape, readable at once", async () => {
    const item = await created({ title: "Audífonos inalámbricos de prueba" });
    expect(item).toMatchObject({
      site_id: "MLM",
      seller_id: sellerId,
      category_id: leaf.id,
      currency_id: "MXN",
      status: "active",
      sub_status: [],
      available_quantity: 5,
      sold_quantity: 0,
      domain_id: leaf.domainId,
      warnings: [],
    });
    expect(item.id).toMatch(/^MLM\d{10}$/);
    expect(item.permalink).toMatch(/^https:\/\/articulo\.mercadolibre\.com\.mx\/MLM-\d+-audifonos-inalambricos-de-prueba-_JM$/);
    expect(item.pictures[0].id).toMatch(/^\d+-MLM\d+_\d{6}$/);
    expect(item.attributes.find((a: { id: string }) => a.id === "BRAND")).toMatchObject({ name: "Marca", value_id: expect.any(String) });
    const read = await t.call("GET", `/items/${item.id}`, { token });
    const { warnings, ...stored } = item;
    expect(warnings).toEqual([]);
    expect(read.body).toEqual(stored);
  });

  it("answers missing required attributes with cause 147 naming them", async () => {
    const res = await create({ attributes: [] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: "Validation error", error: "validation_error", status: 400 });
    const required = leaf.attributes.filter((a) => a.tags.required).map((a) => a.id);
    // Without GTIN nor its reason, the conditional GTIN rule asks for the reason too (7810, department supply).
    expect(res.body.cause.map((c: { cause_id: number }) => c.cause_id)).toEqual([147, 7810]);
    expect(res.body.cause.slice(0, 1)).toEqual([
      {
        department: "items",
        cause_id: 147,
        type: "error",
        code: "item.attributes.missing_required",
        references: ["item.attributes"],
        message: `The attributes [${required.join(", ")}] are required for category ${leaf.id} and channel marketplace. Check the attribute is present in the attributes list or in all variation's attributes_combination or attributes.`,
      },
    ]);
  });

  it("refuses a category that is not a leaf, or does not exist", async () => {
    const parent = t.sandbox.store.trees.MLM.byId.get(leaf.parentId!)!;
    const res = await create({}, { ...leaf, id: parent.id });
    expect(res.status).toBe(400);
    expect(res.body.cause).toContainEqual(
      expect.objectContaining({
        cause_id: 126,
        code: "item.category_id.invalid",
        message: `Is not allowed to post in category ${parent.id}. Make sure you're posting in a leaf category`,
      }),
    );
    const unknown = await create({ category_id: "MLM1" });
    expect(codes(unknown.body)).toEqual(["item.category_id.invalid"]);
  });

  it("refuses a price under the category's minimum (cause 109)", async () => {
    const res = await create({ price: leaf.minimumPrice - 1 });
    expect(res.body.cause).toEqual([
      expect.objectContaining({
        cause_id: 109,
        code: "item.price.invalid",
        references: ["item.price"],
        message: `The category ${leaf.id} requires a minimum price of ${leaf.minimumPrice}.`,
      }),
    ]);
    expect((await create({ price: leaf.minimumPrice })).status).toBe(201);
  });

  it("refuses more pictures than the category allows (cause 201), and none on a paid listing type (173)", async () => {
    const pictures = Array.from({ length: leaf.maxPictures + 1 }, (_, i) => ({ source: `https://example.com/p${i}.jpg` }));
    const res = await create({ pictures });
    expect(res.body.cause).toEqual([
      expect.objectContaining({
        cause_id: 201,
        code: "item.pictures.max",
        message: `Items in category ${leaf.id} cannot exceeds ${leaf.maxPictures} pictures.`,
      }),
    ]);
    expect(codes((await create({ pictures: [] })).body)).toEqual(["item.listing_type_id.requiresPictures"]);
    expect((await create({ pictures: [], listing_type_id: "free" })).status).toBe(201);
    expect(codes((await create({ pictures: [{ id: "123-MLM1_012026" }] })).body)).toEqual(["item.pictures.picture_not_found"]);
  });

  it("refuses a title over the category's maximum length", async () => {
    const res = await create({ title: "x".repeat(leaf.maxTitleLength + 1) });
    expect(res.body.cause).toEqual([expect.objectContaining({ code: "item.title.length.invalid", references: ["item.title"] })]);
  });

  it("collects every problem of a request in one answer, and names missing fields", async () => {
    const res = await create({ price: 0.5, currency_id: "BRL", attributes: [], listing_type_id: "bronze" });
    expect(codes(res.body).sort()).toEqual(
      [
        "item.attributes.missing_required",
        "item.attribute.missing_conditional_required",
        "item.currency_id.invalid",
        "item.listing_type_id.invalid",
        "item.price.invalid",
      ].sort(),
    );
    const missing = await t.call("POST", "/items", { token, body: { title: "x" } });
    expect(missing.body.cause[0]).toMatchObject({ code: "body.required_fields" });
    expect(missing.body.cause[0].message).toContain("[category_id, price, currency_id, available_quantity, buying_mode, listing_type_id]");
  });

  it("lets warnings through: a value named loosely is normalised and the item is created", async () => {
    const brand = leaf.attributes.find((a) => a.id === "BRAND")!.values![0];
    const attrs = itemBody(leaf).attributes.filter((a) => a.id !== "BRAND");
    const res = await create({
      attributes: [...attrs, { id: "BRAND", value_name: brand.name.toUpperCase() }, { id: "NOT_AN_ATTRIBUTE", value_name: "x" }],
      shipping: { mode: "me1" },
    });
    expect(res.status).toBe(201);
    expect(res.body.warnings.map((w: { type: string }) => w.type)).toEqual(["warning", "warning", "warning"]);
    expect(res.body.warnings.map((w: { code: string }) => w.code).sort()).toEqual(
      ["item.attributes.dropped", "normalize.item.attribute.values", "shipping.me2_adoption_mandatory"].sort(),
    );
    expect(res.body.attributes.find((a: { id: string }) => a.id === "BRAND")).toMatchObject({ value_id: brand.id, value_name: brand.name });
    expect(res.body.shipping.mode).toBe("me2");
    // With an error present, warnings come along in cause[].
    const both = await create({ price: 0.1, shipping: { mode: "me1" } });
    expect(both.body.cause.map((c: { type: string }) => c.type).sort()).toEqual(["error", "warning"]);
  });

  it("checks number_unit values against the allowed units", async () => {
    const phones = t.sandbox.store.trees.MLM.all.find((c) => c.key === "SMARTPHONES")!;
    const base = itemBody(phones).attributes.filter((a) => a.id !== "INTERNAL_MEMORY" && a.id !== "COLOR");
    const bad = await create({ attributes: [...base, { id: "INTERNAL_MEMORY", value_name: "128 parsecs" }] }, phones);
    expect(codes(bad.body)).toContain("item.attribute.number_invalid_format");
    const good = await create({ attributes: [...base, { id: "INTERNAL_MEMORY", value_name: "128 gb" }] }, phones);
    expect(good.status).toBe(201);
    expect(good.body.attributes.find((a: { id: string }) => a.id === "INTERNAL_MEMORY")).toMatchObject({
      value_name: "128 GB",
      value_struct: { number: 128, unit: "GB" },
    });
  });

  it("takes variations on the category's variation attributes, summing their stock", async () => {
    const cat = variationLeaf(t.sandbox, "MLM");
    const colors = cat.attributes.find((a) => a.id === "COLOR")!.values!;
    const body = {
      pictures: [{ source: "https://example.com/a.jpg" }, { source: "https://example.com/b.jpg" }],
      variations: [
        {
          attribute_combinations: [{ id: "COLOR", value_id: colors[0].id }],
          available_quantity: 3,
          picture_ids: ["https://example.com/a.jpg"],
          attributes: [{ id: "SELLER_SKU", value_name: "SKU-BLACK" }],
        },
        {
          attribute_combinations: [{ id: "COLOR", value_id: colors[1].id }],
          available_quantity: 4,
          picture_ids: ["https://example.com/b.jpg"],
        },
      ],
    };
    const item = await created(body, cat);
    expect(item.available_quantity).toBe(7);
    expect(item.variations).toHaveLength(2);
    expect(item.variations[0].picture_ids).toEqual([item.pictures[0].id]);
    expect(item.variations[0].price).toBe(item.price);
    const dup = await create({ ...body, variations: [body.variations[0], body.variations[0]] }, cat);
    expect(codes(dup.body)).toContain("item.variations.attribute_combinations.duplicated");
    const notVariation = await create(
      { variations: [{ attribute_combinations: [{ id: "BRAND", value_name: "X" }], available_quantity: 1 }] },
      cat,
    );
    expect(notVariation.body.cause).toContainEqual(
      expect.objectContaining({ cause_id: 161, code: "item.variations.variation_attributes.invalid" }),
    );
    const plain = await create({ variations: body.variations });
    expect(codes(plain.body)).toContain("item.variations.not_allowed");
    const family = await create({ ...body, family_name: "Family" }, cat);
    expect(family.body.cause).toContainEqual(expect.objectContaining({ message: "The field variations is invalid with family name" }));
  });

  it("counts creations per seller and idempotency key, so duplicates show", async () => {
    await created({}, leaf);
    await t.call("POST", "/items", {
      token,
      body: itemBody(leaf, { seller_custom_field: "SKU-1" }),
      headers: { "x-idempotency-key": "k-1" },
    });
    await t.call("POST", "/items", {
      token,
      body: itemBody(leaf, { seller_custom_field: "SKU-1" }),
      headers: { "x-idempotency-key": "k-1" },
    });
    await t.call("POST", "/items", { token, body: itemBody(leaf, { seller_custom_field: "SKU-2" }) });
    const dups = t.control.duplicates();
    expect(dups).toHaveLength(1);
    expect(dups[0]).toMatchObject({ sellerId, key: "k-1" });
    expect(dups[0].itemIds).toHaveLength(2);
    expect(
      t.control
        .creations()
        .map((c) => c.key)
        .sort(),
    ).toEqual(["SKU-2", "k-1", "title:Producto de prueba"]);
    expect(t.control.callCount("POST /items")).toBe(4);
  });
});

describe("reading items", () => {
  it("multigets up to 20 ids as [{code, body}], 404 entries for unknown ids", async () => {
    const a = await created();
    const b = await created();
    const res = await t.call("GET", "/items", { token, query: { ids: `${a.id},MLM999,${b.id}` } });
    expect(res.status).toBe(200);
    expect(res.body.map((x: { code: number }) => x.code)).toEqual([200, 404, 200]);
    expect(res.body[0].body.id).toBe(a.id);
    expect(res.body[1].body).toEqual({ message: "Item with id MLM999 not found", error: "not_found", status: 404, cause: [] });
    const some = await t.call("GET", "/items", { token, query: { ids: a.id, attributes: "id,price,status" } });
    expect(some.body[0].body).toEqual({ id: a.id, price: a.price, status: "active" });
    const many = Array.from({ length: 21 }, (_, i) => `MLM${i}`).join(",");
    expect((await t.call("GET", "/items", { token, query: { ids: many } })).status).toBe(400);
    expect((await t.call("GET", `/items/MLM404`, { token })).status).toBe(404);
  });
});

describe("PUT /items/{id}", () => {
  it("changes price, stock and pictures, visible on the next GET; zero stock pauses as out_of_stock", async () => {
    const item = await created();
    const put = await t.call("PUT", `/items/${item.id}`, {
      token,
      body: { price: item.price + 10, available_quantity: 9, pictures: [{ source: "https://example.com/new.jpg" }] },
    });
    expect(put.status).toBe(200);
    const read = (await t.call("GET", `/items/${item.id}`, { token })).body;
    expect(read).toMatchObject({ price: item.price + 10, available_quantity: 9 });
    expect(read.pictures).toHaveLength(1);
    expect(read.pictures[0].id).not.toBe(item.pictures[0].id);
    await t.call("PUT", `/items/${item.id}`, { token, body: { available_quantity: 0 } });
    expect((await t.call("GET", `/items/${item.id}`, { token })).body).toMatchObject({ status: "paused", sub_status: ["out_of_stock"] });
    await t.call("PUT", `/items/${item.id}`, { token, body: { available_quantity: 2 } });
    expect((await t.call("GET", `/items/${item.id}`, { token })).body).toMatchObject({ status: "active", sub_status: [] });
  });

  it("validates like a create and changes nothing when refused", async () => {
    const item = await created();
    const res = await t.call("PUT", `/items/${item.id}`, { token, body: { price: 0.01, available_quantity: 1 } });
    expect(res.status).toBe(400);
    expect(codes(res.body)).toEqual(["item.price.invalid"]);
    expect((await t.call("GET", `/items/${item.id}`, { token })).body).toMatchObject({ price: item.price, available_quantity: 5 });
  });

  it("never changes the category, and locks the title once the item has sales", async () => {
    const item = await created();
    const other = t.sandbox.store.trees.MLM.all.filter((c) => c.leaf)[5];
    const cat = await t.call("PUT", `/items/${item.id}`, { token, body: { category_id: other.id } });
    expect(cat.body.cause).toEqual([expect.objectContaining({ code: "field_not_updatable", message: "category_id is not modifiable." })]);
    expect((await t.call("PUT", `/items/${item.id}`, { token, body: { title: "Nuevo título" } })).status).toBe(200);
    t.control.createOrder(sellerId, { itemId: item.id, quantity: 1 });
    const sold = (await t.call("GET", `/items/${item.id}`, { token })).body;
    expect(sold).toMatchObject({ sold_quantity: 1, available_quantity: 4, title: "Nuevo título" });
    const locked = await t.call("PUT", `/items/${item.id}`, { token, body: { title: "Otro título" } });
    expect(locked.body.cause).toEqual([expect.objectContaining({ code: "field_not_updatable", references: ["item.title"] })]);
    expect((await t.call("PUT", `/items/${item.id}`, { token, body: { price: item.price + 1 } })).status).toBe(200);
  });

  it("closes, then deletes with {deleted:true}; a closed item takes no other change", async () => {
    const item = await created();
    const early = await t.call("PUT", `/items/${item.id}`, { token, body: { deleted: "true" } });
    expect(codes(early.body)).toEqual(["item.status.invalid"]);
    expect((await t.call("PUT", `/items/${item.id}`, { token, body: { status: "closed" } })).body.status).toBe("closed");
    const after = await t.call("PUT", `/items/${item.id}`, { token, body: { price: item.price + 1 } });
    expect(after.status).toBe(400);
    expect(after.body.message).toBe(`Cannot update item ${item.id} [status:closed, has_bids:false]`);
    expect((await t.call("PUT", `/items/${item.id}`, { token, body: { deleted: "true" } })).status).toBe(200);
    expect((await t.call("GET", `/items/${item.id}`, { token })).body).toMatchObject({ status: "closed", sub_status: ["deleted"] });
  });

  it("keeps only the variations the PUT names, adds new ones, and refuses unknown ids", async () => {
    const cat = variationLeaf(t.sandbox, "MLM");
    const colors = cat.attributes.find((a) => a.id === "COLOR")!.values!;
    const item = await created(
      {
        variations: colors.slice(0, 3).map((c) => ({ attribute_combinations: [{ id: "COLOR", value_id: c.id }], available_quantity: 2 })),
      },
      cat,
    );
    const [v1, , v3] = item.variations;
    const res = await t.call("PUT", `/items/${item.id}`, {
      token,
      body: {
        variations: [
          { id: v1.id, available_quantity: 10 },
          { id: v3.id },
          { attribute_combinations: [{ id: "COLOR", value_id: colors[4].id }], available_quantity: 1 },
        ],
      },
    });
    expect(res.status).toBe(200);
    const read = (await t.call("GET", `/items/${item.id}`, { token })).body;
    expect(read.variations.map((v: { id: number }) => v.id).slice(0, 2)).toEqual([v1.id, v3.id]);
    expect(read.variations).toHaveLength(3);
    expect(read.available_quantity).toBe(13);
    const unknown = await t.call("PUT", `/items/${item.id}`, { token, body: { variations: [{ id: 1, available_quantity: 1 }] } });
    expect(codes(unknown.body)).toEqual(["item.variations.id.invalid"]);
  });

  it("answers 403 access_denied for another seller's item", async () => {
    const item = await created();
    const other = await t.connect("OTHER_SELLER");
    const res = await t.call("PUT", `/items/${item.id}`, { token: other.access_token, body: { price: 1000 } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: "access_denied", status: 403, cause: [] });
    expect((await t.call("POST", `/items/${item.id}/description`, { token: other.access_token, body: { plain_text: "x" } })).status).toBe(
      403,
    );
    expect((await t.call("GET", `/users/${sellerId}/items/search`, { token: other.access_token })).status).toBe(403);
  });
});

describe("descriptions", () => {
  it("takes plain text only, and changes through PUT", async () => {
    const item = await created();
    expect((await t.call("GET", `/items/${item.id}/description`, { token })).status).toBe(404);
    // descripcion-de-articulos.md: 398, the position of the first character that is not plain text.
    const html = await t.call("POST", `/items/${item.id}/description`, { token, body: { plain_text: "Hola <p>x</p>" } });
    expect(html.status).toBe(400);
    expect(html.body.cause).toEqual([
      expect.objectContaining({
        cause_id: 398,
        code: "item.description.type.invalid",
        references: ["plain_text[5]"],
        message: "The description must be in plain text",
      }),
    ]);
    const emoji = await t.call("PUT", `/items/${item.id}/description`, { token, body: { plain_text: "< br > 😀" } });
    expect(emoji.status).toBe(400);
    expect(emoji.body.cause[0]).toMatchObject({ cause_id: 398, references: ["plain_text[7]"] });
    const long = await t.call("POST", `/items/${item.id}/description`, { token, body: { plain_text: "a".repeat(50001) } });
    expect(long.body.cause[0]).toMatchObject({
      cause_id: 3707,
      code: "item.descriptions.length_exceeded",
      message: "You exceeded the 50000 character limit. Shorten the description.",
    });
    const ok = await t.call("POST", `/items/${item.id}/description`, { token, body: { plain_text: "Línea 1\nLínea 2 < 3" } });
    expect(ok.status).toBe(201);
    expect((await t.call("POST", `/items/${item.id}/description`, { token, body: { plain_text: "again" } })).status).toBe(400);
    expect((await t.call("PUT", `/items/${item.id}/description`, { token, body: { plain_text: "Nueva" } })).status).toBe(200);
    expect((await t.call("GET", `/items/${item.id}/description`, { token })).body).toMatchObject({ plain_text: "Nueva", text: "" });
    const withItem = await created({ description: { plain_text: "Desde el alta" } });
    expect((await t.call("GET", `/items/${withItem.id}/description`, { token })).body.plain_text).toBe("Desde el alta");
    expect(codes((await create({ description: { plain_text: "<b>x</b>" } })).body)).toEqual(["item.description.type.invalid"]);
  });
});

describe("GET /users/{id}/items/search", () => {
  it("filters by status and SKU, pages with limit ≤ 100 and offset ≤ 1000", async () => {
    const a = await created({ attributes: [...itemBody(leaf).attributes, { id: "SELLER_SKU", value_name: "SKU-A" }] });
    const b = await created({ seller_custom_field: "SKU-B" });
    await t.call("PUT", `/items/${b.id}`, { token, body: { status: "paused" } });
    const all = await t.call("GET", `/users/${sellerId}/items/search`, { token });
    expect(all.body).toMatchObject({ results: [b.id, a.id], paging: { total: 2, offset: 0, limit: 50 } });
    expect((await t.call("GET", `/users/${sellerId}/items/search`, { token, query: { status: "paused" } })).body.results).toEqual([b.id]);
    expect((await t.call("GET", `/users/${sellerId}/items/search`, { token, query: { sku: "SKU-A" } })).body.results).toEqual([a.id]);
    expect((await t.call("GET", `/users/${sellerId}/items/search`, { token, query: { limit: 101 } })).status).toBe(400);
    expect((await t.call("GET", `/users/${sellerId}/items/search`, { token, query: { offset: 1000, limit: 1 } })).status).toBe(400);
    expect((await t.call("GET", `/users/${sellerId}/items/search`, { token, query: { offset: 999, limit: 1 } })).status).toBe(200);
  });

  it("scans with a scroll_id valid 5 minutes after its last use", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await created()).id);
    const first = await t.call("GET", `/users/${sellerId}/items/search`, { token, query: { search_type: "scan", limit: 2 } });
    expect(first.body.scroll_id).toMatch(/^[0-9a-f]{32}$/);
    expect(first.body.paging.total).toBe(5);
    const seen = [...first.body.results];
    t.control.clock.advance(4 * 60_000);
    const next = { search_type: "scan", limit: 2, scroll_id: first.body.scroll_id };
    seen.push(...(await t.call("GET", `/users/${sellerId}/items/search`, { token, query: next })).body.results);
    t.control.clock.advance(4 * 60_000);
    seen.push(...(await t.call("GET", `/users/${sellerId}/items/search`, { token, query: next })).body.results);
    expect(seen.sort()).toEqual([...ids].sort());
    expect((await t.call("GET", `/users/${sellerId}/items/search`, { token, query: next })).body.results).toEqual([]);
    t.control.clock.advance(5 * 60_000);
    const expired = await t.call("GET", `/users/${sellerId}/items/search`, { token, query: next });
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ error: "invalid.scroll.id", status: 400 });
    const unknown = await t.call("GET", `/users/${sellerId}/items/search`, { token, query: { search_type: "scan", scroll_id: "nope" } });
    expect(unknown.body.error).toBe("invalid.scroll.id");
  });
});

describe("POST /pictures/items/upload", () => {
  it("stores an image of at least 500 px on a side and answers its id and sizes; the id lists on an item", async () => {
    const res = await t.app.inject({ method: "POST", url: "/pictures/items/upload", ...multipart("file", "a.png", png(800, 600)) });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.id).toMatch(/^\d+-MLM\d+_\d{6}$/);
    expect(body.max_size).toBe("800x600");
    expect(body.variations.map((v: { size: string }) => v.size)).toEqual(["800x600", "500x375", "250x188", "90x68"]);
    const item = await created({ pictures: [{ id: body.id }] });
    expect(item.pictures[0].id).toBe(body.id);
  });

  it("keeps a small image at its size, and an item naming it is refused (3703)", async () => {
    // trabajar-con-imagenes.md: an image under the minimum keeps its size; validaciones.md 3703 refuses the item.
    const small = await t.app.inject({ method: "POST", url: "/pictures/items/upload", ...multipart("file", "s.png", png(400, 300)) });
    expect(small.statusCode).toBe(201);
    expect(small.json().max_size).toBe("400x300");
    const res = await create({ pictures: [{ id: small.json().id }] });
    expect(res.body.cause).toEqual([
      expect.objectContaining({
        cause_id: 3703,
        code: "item.pictures.invalid_size",
        references: ["item.pictures[0]"],
        message: "The photos must have a minimum size of 500 pixels on at least one side.",
      }),
    ]);
  });

  it("refuses a file that is no jpg or png, and a missing file", async () => {
    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.from([0x20, 0x03, 0x58, 0x02]), Buffer.alloc(16)]);
    const notJpgOrPng = await t.app.inject({ method: "POST", url: "/pictures/items/upload", ...multipart("file", "a.gif", gif) });
    expect(notJpgOrPng.statusCode).toBe(400);
    const text = await t.app.inject({ method: "POST", url: "/pictures/items/upload", ...multipart("file", "t.png", Buffer.from("hello")) });
    expect(text.statusCode).toBe(400);
    const wrongField = await t.app.inject({ method: "POST", url: "/pictures/items/upload", ...multipart("image", "a.png", png(800, 600)) });
    expect(wrongField.statusCode).toBe(400);
    const json = await t.call("POST", "/pictures/items/upload", { token, body: { source: "x" } });
    expect(json.status).toBe(400);
  });

  it("refuses a file over 10 MB", async () => {
    const big = Buffer.concat([png(800, 600), Buffer.alloc(10 * 1024 * 1024 + 10)]);
    const res = await t.app.inject({ method: "POST", url: "/pictures/items/upload", ...multipart("file", "big.png", big) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain("10 MB");
  });
});

describe("variations (variaciones.md)", () => {
  it("reads an item's variations, one by id with its attributes, adds one and deletes one", async () => {
    const cat = variationLeaf(t.sandbox, "MLM");
    const colors = cat.attributes.find((a) => a.id === "COLOR")!.values!;
    const item = await created(
      {
        variations: colors.slice(0, 2).map((c, i) => ({
          attribute_combinations: [{ id: "COLOR", value_id: c.id }],
          available_quantity: 2,
          attributes: [{ id: "SELLER_SKU", value_name: `SKU-${i}` }],
        })),
      },
      cat,
    );
    const list = await t.call("GET", `/items/${item.id}/variations`, { token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(list.body[0]).toMatchObject({ id: item.variations[0].id, available_quantity: 2, sold_quantity: 0, catalog_product_id: null });
    // A variation's own attributes only with include_attributes=all (or reading the one variation).
    expect(list.body[0].attributes).toBeUndefined();
    const all = await t.call("GET", `/items/${item.id}/variations`, { token, query: { include_attributes: "all" } });
    expect(all.body[0].attributes).toContainEqual(expect.objectContaining({ id: "SELLER_SKU", value_name: "SKU-0" }));
    const one = await t.call("GET", `/items/${item.id}/variations/${item.variations[1].id}`, { token });
    expect(one.body).toMatchObject({ id: item.variations[1].id, attributes: [expect.objectContaining({ value_name: "SKU-1" })] });
    expect((await t.call("GET", `/items/${item.id}/variations/1`, { token })).status).toBe(404);

    const added = await t.call("POST", `/items/${item.id}/variations`, {
      token,
      body: { attribute_combinations: [{ id: "COLOR", value_id: colors[2].id }], price: item.price, available_quantity: 10 },
    });
    expect(added.status, added.raw).toBe(201);
    expect(added.body).toHaveLength(3);
    expect((await t.call("GET", `/items/${item.id}`, { token })).body.available_quantity).toBe(14);
    const dup = await t.call("POST", `/items/${item.id}/variations`, {
      token,
      body: { attribute_combinations: [{ id: "COLOR", value_id: colors[0].id }], available_quantity: 1 },
    });
    expect(codes(dup.body)).toContain("item.variations.attribute_combinations.duplicated");

    const deleted = await t.call("DELETE", `/items/${item.id}/variations/${item.variations[0].id}`, { token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(item.id);
    const after = (await t.call("GET", `/items/${item.id}/variations`, { token })).body as { id: number }[];
    expect(after.map((v) => v.id)).not.toContain(item.variations[0].id);
    expect(after).toHaveLength(2);
    const other = await t.connect("VARIATION_OTHER");
    expect((await t.call("DELETE", `/items/${item.id}/variations/${after[0].id}`, { token: other.access_token })).status).toBe(403);
  });

  it("changes each variation's stock through PUT /items naming every variation", async () => {
    const cat = variationLeaf(t.sandbox, "MLM");
    const colors = cat.attributes.find((a) => a.id === "COLOR")!.values!;
    const item = await created(
      { variations: colors.slice(0, 2).map((c) => ({ attribute_combinations: [{ id: "COLOR", value_id: c.id }], available_quantity: 2 })) },
      cat,
    );
    const res = await t.call("PUT", `/items/${item.id}`, {
      token,
      body: { variations: item.variations.map((v: { id: number }) => ({ id: v.id, available_quantity: 7 })) },
    });
    expect(res.status).toBe(200);
    const read = (await t.call("GET", `/items/${item.id}/variations`, { token })).body as { available_quantity: number }[];
    expect(read.map((v) => v.available_quantity)).toEqual([7, 7]);
    // The item's own quantity is refused while it has variations.
    expect(codes((await t.call("PUT", `/items/${item.id}`, { token, body: { available_quantity: 3 } })).body)).toEqual([
      "item.available_quantity.invalid",
    ]);
  });
});

describe("GET /categories/{id}/sale_terms (publica-productos.md)", () => {
  it("answers the warranty terms with the documented value ids and the site's units", async () => {
    const res = await t.call("GET", `/categories/${leaf.id}/sale_terms`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({
        id: "WARRANTY_TYPE",
        hierarchy: "SALE_TERMS",
        value_type: "list",
        values: [
          { id: "2230279", name: "Garantía de fábrica" },
          { id: "2230280", name: "Garantía del vendedor" },
        ],
      }),
      expect.objectContaining({ id: "WARRANTY_TIME", value_type: "number_unit", default_unit: "días" }),
    ]);
    const br = plainLeaf(t.sandbox, "MLB");
    const pt = await t.call("GET", `/categories/${br.id}/sale_terms`);
    expect(pt.body[1].allowed_units.map((u: { id: string }) => u.id)).toEqual(["dias", "meses", "anos"]);
    expect((await t.call("GET", "/categories/MLM1/sale_terms")).status).toBe(404);
  });
});
