// Items on a local site: create, read (one, multiget), update (price, stock, pictures, variations, status, shipping
// dimensions, delete after close), description, the seller's item search with scroll, and picture upload.
import { randomBytes } from "node:crypto";
import "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { findCategory } from "./catalog.ts";
import { checkSizeGrid } from "./charts.ts";
import { badRequest, cause, forbidden, MeliError, notFound, UNDOCUMENTED, type Cause } from "./errors.ts";
import { caller, intQuery, objectBody, params, query, route } from "./http.ts";
import { checkGtin, checkRequired, readAttributes } from "./item-attributes.ts";
import {
  buildItem,
  checkPrice,
  descriptionProblem,
  itemJson,
  newChecked,
  readPictures,
  readVariations,
  settleStock,
  skusOf,
  storedPictures,
  throwIfErrors,
  type Checked,
} from "./item-rules.ts";
import { notifyItem } from "./notify.ts";
import { roundPrice } from "./sites.ts";
import type { Item, Store, User } from "./store.ts";

const SCROLL_MS = 5 * 60_000;
const PICTURE_MAX_BYTES = 10 * 1024 * 1024;

const itemNotFound = (id: string) => notFound(`Item with id ${id} not found`);

export function ownedItem(store: Store, user: User, id: string): Item {
  const item = store.state.items.get(id);
  if (!item) throw itemNotFound(id);
  if (!store.owns(user, item)) throw forbidden(`The caller is not the owner of item ${id}`);
  return item;
}

/** Counts a creation under the request's idempotency key (or the item's SKU or title): duplicates show as count > 1. */
export function recordCreation(store: Store, req: FastifyRequest, sellerId: number, body: Record<string, unknown>, itemId: string) {
  const header = req.headers["x-idempotency-key"];
  const attrs = Array.isArray(body.attributes) ? (body.attributes as Record<string, unknown>[]) : [];
  const sku = attrs.find((a) => a && a.id === "SELLER_SKU")?.value_name;
  const key = String((typeof header === "string" && header) || body.seller_custom_field || sku || `title:${String(body.title)}`);
  const k = `${sellerId}:${key}`;
  const record = store.state.creations.get(k) ?? { sellerId, key, itemIds: [] };
  record.itemIds.push(itemId);
  store.state.creations.set(k, record);
}

export type UpdateMode = "item" | "global" | "marketplace";

const locked = (c: Checked, field: string) =>
  c.causes.push(cause(UNDOCUMENTED.notModifiable, "field_not_updatable", [`item.${field}`], `${field} is not modifiable.`));

/**
 * Applies a PUT to the item, all or nothing: any error leaves it untouched. Title, condition and buying mode lock once
 * the item has sales; category, currency and listing type never change here; a marketplace item of a global item takes
 * its stock from the global item.
 */
export function updateItem(store: Store, item: Item, body: Record<string, unknown>, mode: UpdateMode): Cause[] {
  const c = newChecked();
  const category = findCategory(store, item.category_id)!.category;
  if (item.deleted) throw itemNotFound(item.id);
  if ("deleted" in body) {
    if (String(body.deleted) !== "true") throw badRequest("The deleted field only accepts true");
    if (item.status !== "closed") {
      throw new MeliError(400, "validation_error", "Validation error", [
        cause(UNDOCUMENTED.statusInvalid, "item.status.invalid", ["item.status"], `Item ${item.id} must be closed before it is deleted.`),
      ]);
    }
    item.deleted = true;
    item.last_updated = store.iso();
    return [];
  }
  if (item.status === "closed") {
    throw new MeliError(400, "field_not_updatable", `Cannot update item ${item.id} [status:closed, has_bids:${item.sold_quantity > 0}]`);
  }
  for (const field of ["category_id", "currency_id", "listing_type_id", "site_id", "seller_id"] as const) {
    if (field in body && body[field] !== item[field]) locked(c, field);
  }
  for (const field of ["title", "condition", "buying_mode"] as const) {
    if (field in body && body[field] !== item[field] && item.sold_quantity > 0) locked(c, field);
  }
  if (mode === "marketplace" && "available_quantity" in body) locked(c, "available_quantity");

  const title = typeof body.title === "string" ? body.title : item.title;
  if (title.length > category.maxTitleLength) {
    c.causes.push(
      cause(
        UNDOCUMENTED.titleTooLong,
        "item.title.length.invalid",
        ["item.title"],
        `The title has ${title.length} characters: items in category ${category.id} allow at most ${category.maxTitleLength}.`,
      ),
    );
  }
  if ("price" in body) checkPrice(body.price, category, c);
  const price = typeof body.price === "number" ? roundPrice(item.site_id, body.price) : item.price;

  let quantity = item.available_quantity;
  if ("available_quantity" in body && mode !== "marketplace") {
    const q = body.available_quantity;
    if (item.variations.length && body.variations === undefined) {
      c.causes.push(
        cause(
          UNDOCUMENTED.variationStockOnItem,
          "item.available_quantity.invalid",
          ["item.available_quantity"],
          "The item has variations: update available_quantity on each variation.",
        ),
      );
    } else if (typeof q !== "number" || !Number.isInteger(q) || q < 0) {
      c.causes.push(
        cause(
          UNDOCUMENTED.quantityInvalid,
          "item.available_quantity.invalid",
          ["item.available_quantity"],
          "available_quantity must be a whole number >= 0.",
        ),
      );
    } else {
      quantity = q;
    }
  }
  const pictures = "pictures" in body ? readPictures(store, item.site_id, body.pictures, category, c) : item.pictures;
  if ("pictures" in body && !(Array.isArray(body.pictures) && body.pictures.length) && item.listing_type_id !== "free") {
    c.causes.push(
      cause(
        173,
        "item.listing_type_id.requiresPictures",
        ["item.pictures"],
        `Item pictures are mandatory for listing type ${item.listing_type_id}.`,
      ),
    );
  }
  const variations = readVariations(body.variations, item.variations, category, price, pictures, store, c);
  let attributes = item.attributes;
  if ("attributes" in body) {
    const changed = readAttributes(body.attributes, category, c, "item.attributes");
    attributes = [...item.attributes.filter((a) => !changed.some((x) => x.id === a.id)), ...changed];
  }
  if ("attributes" in body || "variations" in body) {
    checkRequired(category, attributes, variations, c);
    const owner = store.state.users.get(item.seller_id);
    if (owner) checkSizeGrid(store, owner, category, attributes, variations, c);
    if (item.site_id !== "CBT") checkGtin(store, category, attributes, variations, c, item.id);
  }
  let status: Item["status"] = item.status;
  if ("status" in body) {
    if (!["active", "paused", "closed"].includes(String(body.status))) {
      c.causes.push(
        cause(
          UNDOCUMENTED.statusInvalid,
          "item.status.invalid",
          ["item.status"],
          `Status ${String(body.status)} is not valid: use active, paused or closed.`,
        ),
      );
    } else {
      status = body.status as Item["status"];
      const stock = variations.length ? variations.reduce((s, v) => s + v.available_quantity, 0) : quantity;
      if (status === "active" && stock === 0) {
        c.causes.push(
          cause(UNDOCUMENTED.activateWithoutStock, "item.status.invalid", ["item.status"], "An item without stock cannot be activated."),
        );
      }
    }
  }
  // The package as Mercado Envíos takes it: shipping.dimensions "LxWxH,weight" (whole cm and grams).
  const dims =
    typeof body.shipping === "object" && body.shipping !== null ? (body.shipping as Record<string, unknown>).dimensions : undefined;
  if (dims !== undefined && !(typeof dims === "string" && /^[1-9]\d*x[1-9]\d*x[1-9]\d*,[1-9]\d*$/.test(dims))) {
    c.causes.push(
      cause(
        UNDOCUMENTED.shippingDimensions,
        "item.shipping.dimensions.invalid",
        ["item.shipping.dimensions"],
        "dimensions must be LxWxH,weight (cm, g).",
      ),
    );
  }
  throwIfErrors(c);

  if (typeof dims === "string") item.shipping = { ...item.shipping, dimensions: dims };
  item.title = title;
  item.price = price;
  item.base_price = price;
  if ("price" in body) for (const v of variations) v.price = price;
  item.available_quantity = quantity;
  item.pictures = storedPictures(pictures);
  item.thumbnail = item.pictures[0]?.url ?? "";
  item.variations = variations;
  item.attributes = attributes;
  if (Array.isArray(body.sale_terms)) item.sale_terms = body.sale_terms;
  if (typeof body.seller_custom_field === "string") item.seller_custom_field = body.seller_custom_field;
  if (status !== item.status) {
    item.status = status;
    item.sub_status = [];
  }
  settleStock(item);
  item.last_updated = store.iso();
  return c.warnings;
}

function descriptionJson(store: Store, itemId: string) {
  const d = store.state.descriptions.get(itemId);
  if (!d) throw notFound(`Item description not found for item ${itemId}`);
  return {
    text: "",
    plain_text: d.plain_text,
    last_updated: d.last_updated,
    date_created: d.date_created,
    snapshot: { url: `http://descriptions.mlstatic.com/D-${itemId}.jpg`, width: 0, height: 0, status: "" },
  };
}

function writeDescription(store: Store, itemId: string, body: Record<string, unknown>) {
  const problem = descriptionProblem(body.plain_text);
  if (problem) throw new MeliError(400, "validation_error", "Validation error", [problem]);
  const now = store.iso();
  const previous = store.state.descriptions.get(itemId);
  store.state.descriptions.set(itemId, {
    plain_text: body.plain_text as string,
    date_created: previous?.date_created ?? now,
    last_updated: now,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Pictures: the size of an upload read from its header, so a non-image or a tiny image is refused as the real one is.

function imageSize(buf: Buffer): { width: number; height: number; type: string } | null {
  if (buf.length >= 24 && buf.readUInt32BE(0) === 0x89504e47 && buf.toString("ascii", 12, 16) === "IHDR") {
    return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), type: "png" };
  }
  if (buf.length >= 10 && buf.toString("ascii", 0, 4) === "GIF8") {
    return { width: buf.readUInt16LE(6), height: buf.readUInt16LE(8), type: "gif" };
  }
  if (buf.length >= 30 && buf.toString("ascii", 0, 4) === "RIFF" && buf.toString("ascii", 8, 12) === "WEBP") {
    const chunk = buf.toString("ascii", 12, 16);
    if (chunk === "VP8X") return { width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3), type: "webp" };
    if (chunk === "VP8 ") return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff, type: "webp" };
    if (chunk === "VP8L") {
      const bits = buf.readUInt32LE(21);
      return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff), type: "webp" };
    }
    return null;
  }
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8) {
    let p = 2;
    while (p + 9 < buf.length) {
      if (buf[p] !== 0xff) return null;
      const marker = buf[p + 1];
      const length = buf.readUInt16BE(p + 2);
      // Start-of-frame markers (not DHT, JPG, DAC) carry the size.
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { width: buf.readUInt16BE(p + 7), height: buf.readUInt16BE(p + 5), type: "jpeg" };
      }
      p += 2 + length;
    }
  }
  return null;
}

function scaled(width: number, height: number, max: number): string {
  const f = Math.min(1, max / Math.max(width, height));
  return `${Math.round(width * f)}x${Math.round(height * f)}`;
}

// ---------------------------------------------------------------------------------------------------------------

export function registerItemRoutes(f: FastifyInstance, store: Store) {
  const auth = route({ auth: "required" });

  f.post("/items", auth, async (req, reply) => {
    const seller = caller(req);
    const body = objectBody(req);
    const c = newChecked();
    const found = typeof body.category_id === "string" ? findCategory(store, body.category_id) : null;
    if (seller.siteId === "CBT" && found?.category.site === "CBT") {
      throw forbidden("Global items are created through /global/items");
    }
    const built = buildItem(store, seller, body, found?.category ?? null, c);
    throwIfErrors(c);
    const { item, description, warnings } = built!;
    store.state.items.set(item.id, item);
    if (description !== null)
      store.state.descriptions.set(item.id, { plain_text: description, date_created: item.date_created, last_updated: item.date_created });
    recordCreation(store, req, seller.id, body, item.id);
    notifyItem(store, item);
    return reply.code(201).send({ ...itemJson(item), warnings });
  });

  // Item reads are public (a competitor's listing is read without its seller's token); a bad token is still a 401.
  const pub = route({ auth: "optional" });

  f.get("/items", pub, async (req) => {
    const q = query(req);
    const ids = (q.ids ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (!ids.length) throw badRequest("The ids param is required");
    if (ids.length > 20) throw badRequest("Too many ids: the maximum is 20 per request");
    const fields = q.attributes
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    return ids.map((id) => {
      const item = store.state.items.get(id);
      if (!item) return { code: 404, body: { message: `Item with id ${id} not found`, error: "not_found", status: 404, cause: [] } };
      const json = itemJson(item) as Record<string, unknown>;
      return { code: 200, body: fields?.length ? Object.fromEntries(fields.filter((k) => k in json).map((k) => [k, json[k]])) : json };
    });
  });

  f.get("/items/:id", pub, async (req) => {
    const item = store.state.items.get(params(req).id);
    if (!item) throw itemNotFound(params(req).id);
    return itemJson(item);
  });

  f.put("/items/:id", auth, async (req) => {
    const item = ownedItem(store, caller(req), params(req).id);
    // A marketplace item of a global item is changed through /global/items.
    if (item.site_id === "CBT" || item.parent_item_id) throw forbidden("Global selling items are updated through /global/items");
    updateItem(store, item, objectBody(req), "item");
    notifyItem(store, item);
    return itemJson(item);
  });

  f.get("/items/:id/description", auth, async (req) => {
    const id = params(req).id;
    if (!store.state.items.has(id)) throw itemNotFound(id);
    return descriptionJson(store, id);
  });

  f.post("/items/:id/description", auth, async (req, reply) => {
    const item = ownedItem(store, caller(req), params(req).id);
    if (store.state.descriptions.has(item.id)) {
      throw badRequest(`Item ${item.id} already has a description: use PUT to change it`, "bad_request");
    }
    writeDescription(store, item.id, objectBody(req));
    return reply.code(201).send(descriptionJson(store, item.id));
  });

  f.put("/items/:id/description", auth, async (req) => {
    const item = ownedItem(store, caller(req), params(req).id);
    writeDescription(store, item.id, objectBody(req));
    return descriptionJson(store, item.id);
  });

  // Variations (variaciones.md "Consultar variaciones", "Agregar nuevas variaciones", "Eliminar variaciones"): reads
  // leave out each variation's own attributes unless include_attributes=all; a change goes through the item's PUT
  // rules, naming every variation to keep.
  const variationJson = (v: Item["variations"][number], all: boolean) => {
    const { attributes, ...rest } = structuredClone(v);
    return { ...rest, catalog_product_id: null, ...(all ? { attributes } : {}) };
  };
  const localItem = (req: FastifyRequest) => {
    const item = ownedItem(store, caller(req), params(req).id);
    if (item.deleted) throw itemNotFound(item.id);
    if (item.site_id === "CBT" || item.parent_item_id) throw forbidden("Global selling items are updated through /global/items");
    return item;
  };

  f.get("/items/:id/variations", auth, async (req) => {
    const item = store.state.items.get(params(req).id);
    if (!item || item.deleted) throw itemNotFound(params(req).id);
    return item.variations.map((v) => variationJson(v, query(req).include_attributes === "all"));
  });

  f.get("/items/:id/variations/:variationId", auth, async (req) => {
    const item = store.state.items.get(params(req).id);
    if (!item || item.deleted) throw itemNotFound(params(req).id);
    const v = item.variations.find((x) => String(x.id) === params(req).variationId);
    if (!v) throw notFound(`Variation ${params(req).variationId} not found for item ${item.id}`);
    return variationJson(v, true);
  });

  f.post("/items/:id/variations", auth, async (req, reply) => {
    const item = localItem(req);
    const kept = item.variations.map((v) => ({ id: v.id }));
    updateItem(store, item, { variations: [...kept, objectBody(req)] }, "item");
    notifyItem(store, item);
    return reply.code(201).send(item.variations.map((v) => variationJson(v, true)));
  });

  f.delete("/items/:id/variations/:variationId", auth, async (req) => {
    const item = localItem(req);
    const gone = params(req).variationId;
    if (!item.variations.some((v) => String(v.id) === gone)) throw notFound(`Variation ${gone} not found for item ${item.id}`);
    updateItem(store, item, { variations: item.variations.filter((v) => String(v.id) !== gone).map((v) => ({ id: v.id })) }, "item");
    notifyItem(store, item);
    return itemJson(item);
  });

  f.get("/users/:id/items/search", auth, async (req) => {
    const me = caller(req);
    const sellerId = Number(params(req).id);
    if (!store.ownIds(me).includes(sellerId)) throw forbidden("Caller is not allowed to search items of another user");
    const q = query(req);
    const limit = intQuery(q.limit, "limit", 50, 0, 100);
    const sku = q.sku ?? q.seller_sku;
    // Newest first, as the real search lists.
    const ids = () =>
      [...store.state.items.values()]
        .filter((i) => i.seller_id === sellerId && !i.deleted)
        .filter((i) => !q.status || i.status === q.status)
        .filter((i) => !sku || skusOf(i).includes(sku))
        .map((i) => i.id)
        .reverse();

    if (q.search_type === "scan") {
      let id = q.scroll_id;
      let scroll = id ? store.state.scrolls.get(id) : undefined;
      if (id && (!scroll || scroll.expiresAt <= store.now())) {
        store.state.scrolls.delete(id);
        throw new MeliError(400, "invalid.scroll.id", "scroll_id is invalid or has expired");
      }
      if (!scroll) {
        id = randomBytes(16).toString("hex");
        scroll = { ids: ids(), position: 0, expiresAt: 0 };
        store.state.scrolls.set(id, scroll);
      }
      const results = scroll.ids.slice(scroll.position, scroll.position + limit);
      scroll.position += results.length;
      scroll.expiresAt = store.now() + SCROLL_MS;
      return { seller_id: String(sellerId), scroll_id: id, results, paging: { total: scroll.ids.length, limit } };
    }

    const offset = intQuery(q.offset, "offset", 0, 0, 1000);
    if (offset + limit > 1000) {
      throw badRequest("offset + limit must be lower than or equal to 1000: use search_type=scan to read further");
    }
    const all = ids();
    return {
      seller_id: String(sellerId),
      query: null,
      paging: { limit, offset, total: all.length },
      results: all.slice(offset, offset + limit),
      orders: [{ id: "stop_time_asc", name: "Order by stop time ascending" }],
      available_orders: [
        { id: "stop_time_asc", name: "Order by stop time ascending" },
        { id: "stop_time_desc", name: "Order by stop time descending" },
      ],
    };
  });

  f.post("/pictures/items/upload", auth, async (req, reply) => {
    const seller = caller(req);
    if (!req.isMultipart()) throw badRequest("The picture must be sent as multipart/form-data in the field file");
    const file = await req.file({ limits: { fileSize: PICTURE_MAX_BYTES, files: 1 } });
    if (!file || file.fieldname !== "file") throw badRequest("The picture must be sent as multipart/form-data in the field file");
    const buf = await file.toBuffer().catch((e: { code?: string }) => {
      if (e.code === "FST_REQ_FILE_TOO_LARGE") return null;
      throw e;
    });
    if (!buf || file.file.truncated) throw new MeliError(400, "bad_request", "The file is larger than 10 MB");
    // JPG, JPEG and PNG (trabajar-con-imagenes.md "Recomendaciones"). A picture under the 500 px minimum is kept at its
    // size ("no agrandaremos la imagen"); an item naming it is refused (item-rules.ts, validaciones.md 3703).
    const size = imageSize(buf);
    if (!size || (size.type !== "jpeg" && size.type !== "png")) {
      throw new MeliError(400, "bad_request", "The file is not a valid image: send a jpg, jpeg or png");
    }
    const site = seller.siteId;
    const id = store.newPictureId(site);
    const url = `http://http2.mlstatic.com/D_${id}-O.jpg`;
    store.state.pictures.set(id, { id, width: size.width, height: size.height, size: buf.length, url });
    const variant = (max: number, suffix: string) => ({
      size: scaled(size.width, size.height, max),
      url: `http://http2.mlstatic.com/D_${id}-${suffix}.jpg`,
      secure_url: `https://http2.mlstatic.com/D_${id}-${suffix}.jpg`,
    });
    return reply.code(201).send({
      id,
      dominant_color: "",
      max_size: `${size.width}x${size.height}`,
      variations: [variant(1200, "F"), variant(500, "O"), variant(250, "V"), variant(90, "I")],
    });
  });
}
