// Building and changing an item under the category's rules, with the causes the real API answers: every problem of a
// request is collected, errors block (400 validation_error), warnings do not. Shared by /items and /global/items.
import type { Category } from "./categories.ts";
import { checkSizeGrid } from "./charts.ts";
import { cause, UNDOCUMENTED, validationError, type Cause } from "./errors.ts";
import { checkGtin, checkPackage, checkRequired, fold, isObject, readAttributes, str } from "./item-attributes.ts";
import { listingTypesOf, roundPrice, SITES, type SiteId } from "./sites.ts";
import type { AttributeValue, Item, PictureRef, Store, User, Variation } from "./store.ts";

export type Checked = { causes: Cause[]; warnings: Cause[] };

export const newChecked = (): Checked => ({ causes: [], warnings: [] });

export function throwIfErrors(c: Checked) {
  if (c.causes.length) throw validationError([...c.causes, ...c.warnings]);
}

const MAX_PRICE = 9_999_999_999;
/** The smallest picture an item takes: 500 px on its longer side (validaciones.md 3703, trabajar-con-imagenes.md). */
const MIN_PICTURE_SIDE = 500;
const CONDITIONS = ["new", "used", "not_specified"];

const invalidQuantity = (ref: string) =>
  cause(UNDOCUMENTED.quantityInvalid, "item.available_quantity.invalid", [ref], "available_quantity must be a whole number >= 0.");

// ---------------------------------------------------------------------------------------------------------------
// Pictures.

function pictureRef(id: string, url: string): PictureRef {
  return { id, url, secure_url: url.replace(/^http:/, "https:"), size: "500x500", max_size: "1200x1200", quality: "" };
}

/** A picture of the request: a variation's picture_ids may name it by the source URL it came from. */
export type RequestPicture = PictureRef & { source?: string };

/** Pictures as stored on the item (the source a picture came from is only for matching variation picture_ids). */
export function storedPictures(refs: RequestPicture[]): PictureRef[] {
  return refs.map(({ id, url, secure_url, size, max_size, quality }) => ({ id, url, secure_url, size, max_size, quality }));
}

/** The item's pictures from [{id}|{source}]; a source becomes a new picture, as the real API downloads it. */
export function readPictures(store: Store, site: SiteId, inputs: unknown, category: Category, c: Checked): RequestPicture[] {
  if (inputs === undefined || inputs === null) return [];
  if (!Array.isArray(inputs)) {
    c.causes.push(cause(101, "body.invalid_field_types", ["item.pictures"], "invalid property type: [pictures] expected List"));
    return [];
  }
  if (inputs.length > category.maxPictures) {
    c.causes.push(
      cause(
        201,
        "item.pictures.max",
        ["item.pictures"],
        `Items in category ${category.id} cannot exceeds ${category.maxPictures} pictures.`,
      ),
    );
  }
  const out: RequestPicture[] = [];
  inputs.forEach((p, i) => {
    const id = isObject(p) ? str(p.id) : null;
    const source = isObject(p) ? str(p.source) : null;
    if (id) {
      const picture = store.state.pictures.get(id);
      if (!picture)
        c.causes.push(cause(204, "item.pictures.picture_not_found", [`item.pictures[${i}]`], `Picture id ${id} does not exist.`));
      // An upload smaller than 500 px is kept as it is (trabajar-con-imagenes.md: "no agrandaremos la imagen"); the item
      // naming it is refused (validaciones.md 3703).
      else if (Math.max(picture.width, picture.height) < MIN_PICTURE_SIDE)
        c.causes.push(
          cause(
            3703,
            "item.pictures.invalid_size",
            [`item.pictures[${i}]`],
            "The photos must have a minimum size of 500 pixels on at least one side.",
          ),
        );
      // Mercado Libre's own URL, however the picture came (a source-made picture's record keeps its source).
      else out.push(pictureRef(picture.id, `http://http2.mlstatic.com/D_${picture.id}-O.jpg`));
    } else if (source && /^https?:\/\/\S+$/i.test(source)) {
      const pid = store.newPictureId(site);
      store.state.pictures.set(pid, { id: pid, width: 1200, height: 1200, size: 0, url: source });
      out.push({ ...pictureRef(pid, `http://http2.mlstatic.com/D_${pid}-O.jpg`), source });
    } else {
      c.causes.push(
        cause(UNDOCUMENTED.pictureInvalid, "item.pictures.invalid", [`item.pictures[${i}]`], "Each picture needs an id or a source URL"),
      );
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Variations.

function variationFrom(
  input: Record<string, unknown>,
  base: Variation | null,
  i: number,
  category: Category,
  itemPrice: number,
  pictures: RequestPicture[],
  store: Store,
  c: Checked,
): Variation {
  const ref = `item.variations[${i}]`;
  let combos = base?.attribute_combinations ?? [];
  if (input.attribute_combinations !== undefined || !base) {
    combos = readAttributes(input.attribute_combinations, category, c, `${ref}.attribute_combinations`, "combination");
    if (!combos.length) {
      c.causes.push(
        cause(
          369,
          "body.required_fields",
          [ref],
          `The variations[${i}] does not contains some or none of the following properties [attribute_combinations].`,
        ),
      );
    }
    // A category attribute varies only with allow_variations (atributos.md; 161 as variaciones-para-inmuebles.md
    // answers it); one attribute the category does not have is a custom one (readAttributes).
    const fixed = combos.filter((a) => {
      const def = category.attributes.find((d) => d.id === a.id);
      return def && !def.tags.allow_variations;
    });
    if (fixed.length) {
      c.causes.push(
        cause(
          161,
          "item.variations.variation_attributes.invalid",
          [`${ref}.attribute_combinations`, "item.category_id"],
          `Attributes [${fixed.map((a) => a.id).join(", ")}] are invalid in variation attributes for category ${category.id} and channels [marketplace]. Check that they exist and have the tag variation_attribute.`,
        ),
      );
    }
  }
  const quantity = input.available_quantity ?? base?.available_quantity ?? 0;
  if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 0) {
    c.causes.push(
      cause(
        UNDOCUMENTED.quantityInvalid,
        "item.variations.available_quantity.invalid",
        [`${ref}.available_quantity`],
        "available_quantity must be a whole number >= 0",
      ),
    );
  }
  const pictureIds = Array.isArray(input.picture_ids) ? input.picture_ids.map(String) : (base?.picture_ids ?? []);
  const resolved = pictureIds.map((p) => pictures.find((x) => x.id === p || x.source === p)?.id ?? null);
  if (resolved.some((p) => p === null)) {
    c.causes.push(
      cause(
        UNDOCUMENTED.variationPictures,
        "item.variations.picture_ids.invalid",
        [`${ref}.picture_ids`],
        `The picture_ids of variations[${i}] must be pictures of the item: [${pictureIds.filter((_, k) => resolved[k] === null).join(", ")}]`,
      ),
    );
  }
  const price = typeof input.price === "number" ? input.price : (base?.price ?? itemPrice);
  return {
    id: base?.id ?? store.newVariationId(),
    price,
    attribute_combinations: combos,
    available_quantity: typeof quantity === "number" ? quantity : 0,
    sold_quantity: base?.sold_quantity ?? 0,
    picture_ids: resolved.filter((p): p is string => p !== null),
    attributes:
      input.attributes !== undefined
        ? readAttributes(input.attributes, category, c, `${ref}.attributes`, "variation")
        : (base?.attributes ?? []),
    seller_custom_field: str(input.seller_custom_field) ?? base?.seller_custom_field ?? null,
  };
}

/**
 * The item's variations from the request. Entries with an id update that variation, entries without one are new, and
 * existing variations the request does not name are removed (the real API's PUT rule).
 */
export function readVariations(
  inputs: unknown,
  existing: Variation[],
  category: Category,
  itemPrice: number,
  pictures: RequestPicture[],
  store: Store,
  c: Checked,
): Variation[] {
  if (inputs === undefined || inputs === null) return existing;
  if (!Array.isArray(inputs)) {
    c.causes.push(cause(101, "body.invalid_field_types", ["item.variations"], "invalid property type: [variations] expected List"));
    return existing;
  }
  if (inputs.length && !category.attributes.some((a) => a.tags.allow_variations)) {
    c.causes.push(
      cause(
        UNDOCUMENTED.variationsNotAllowed,
        "item.variations.not_allowed",
        ["item.variations"],
        `Category ${category.id} does not allow variations`,
      ),
    );
    return existing;
  }
  if (inputs.length > 100) {
    c.causes.push(
      cause(
        UNDOCUMENTED.variationsMax,
        "item.variations.max",
        ["item.variations"],
        `Items in category ${category.id} cannot exceed 100 variations.`,
      ),
    );
  }
  const out: Variation[] = [];
  inputs.forEach((input, i) => {
    if (!isObject(input)) {
      c.causes.push(cause(101, "body.invalid_field_types", [`item.variations[${i}]`], "invalid property type: expected Variation"));
      return;
    }
    let base: Variation | null = null;
    if (input.id !== undefined) {
      base = existing.find((v) => String(v.id) === String(input.id)) ?? null;
      if (!base) {
        c.causes.push(
          cause(
            UNDOCUMENTED.variationIdInvalid,
            "item.variations.id.invalid",
            [`item.variations[${i}].id`],
            `Variation ${String(input.id)} does not exist in the item`,
          ),
        );
        return;
      }
    }
    out.push(variationFrom(input, base, i, category, itemPrice, pictures, store, c));
  });
  const keys = out.map((v) =>
    v.attribute_combinations
      .map((a) => `${a.id}=${fold(a.value_name ?? a.value_id ?? "")}`)
      .sort()
      .join("|"),
  );
  if (new Set(keys).size !== keys.length) {
    c.causes.push(
      cause(
        UNDOCUMENTED.combinationsDuplicated,
        "item.variations.attribute_combinations.duplicated",
        ["item.variations"],
        "There are variations with the same attribute_combinations",
      ),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Prices, descriptions.

export function checkPrice(price: unknown, category: Category, c: Checked, ref = "item.price") {
  if (typeof price !== "number" || !Number.isFinite(price)) {
    c.causes.push(cause(101, "body.invalid_field_types", [ref], `invalid property type: [price] expected Number but was ${typeof price}`));
  } else if (price <= 0) {
    c.causes.push(cause(UNDOCUMENTED.priceNotPositive, "item.price.invalid", [ref], "The price must be a number greater than 0."));
  } else if (price > MAX_PRICE) {
    c.causes.push(cause(129, "item.price.invalid", [ref], `Price must be less than ${MAX_PRICE}.`));
  } else if (price < category.minimumPrice) {
    c.causes.push(
      cause(109, "item.price.invalid", [ref], `The category ${category.id} requires a minimum price of ${category.minimumPrice}.`),
    );
  }
}

/** The longest description (validaciones.md 3707). */
const DESCRIPTION_MAX = 50000;

/**
 * Plain text only (descripcion-de-articulos.md): HTML or an emoji is 398 naming the position of the first one
 * ("plain_text[7]"); more than DESCRIPTION_MAX characters is 3707 (validaciones.md).
 */
export function descriptionProblem(text: unknown): Cause | null {
  if (typeof text !== "string") {
    return cause(101, "body.invalid_field_types", ["plain_text"], "invalid property type: [plain_text] expected String");
  }
  const html = /<\/?[a-z!][^>]*>/i.exec(text);
  const emoji = /\p{Extended_Pictographic}/u.exec(text);
  const at = [html?.index, emoji?.index].filter((n): n is number => n !== undefined).sort((a, b) => a - b)[0];
  if (at !== undefined) return cause(398, "item.description.type.invalid", [`plain_text[${at}]`], "The description must be in plain text");
  if (text.length > DESCRIPTION_MAX) {
    return cause(
      3707,
      "item.descriptions.length_exceeded",
      ["plain_text"],
      `You exceeded the ${DESCRIPTION_MAX} character limit. Shorten the description.`,
    );
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Items.

const slug = (s: string) =>
  fold(s)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);

export function permalink(site: SiteId, id: string, title: string): string {
  return `https://${SITES[site].permalinkHost}/${id.slice(0, 3)}-${id.slice(3)}-${slug(title)}-_JM`;
}

/** Quantity is the variations' sum when there are some; stock at zero pauses an active item (out_of_stock). */
export function settleStock(item: Item) {
  if (item.variations.length) item.available_quantity = item.variations.reduce((s, v) => s + v.available_quantity, 0);
  if (item.status === "active" && item.available_quantity === 0) {
    item.status = "paused";
    item.sub_status = ["out_of_stock"];
  } else if (item.status === "paused" && item.sub_status.includes("out_of_stock") && item.available_quantity > 0) {
    item.status = "active";
    item.sub_status = [];
  }
}

export type NewItem = { item: Item; description: string | null; warnings: Cause[] };

/**
 * An item built from a POST body for the seller on the category's site, or a 400 with every cause. The category is
 * the request's own unless given (a global item's marketplace copy).
 */
export function buildItem(
  store: Store,
  seller: User,
  body: Record<string, unknown>,
  category: Category | null,
  c: Checked,
): NewItem | null {
  const required = ["title", "category_id", "price", "currency_id", "available_quantity", "buying_mode", "listing_type_id"];
  const missing = required.filter((k) => body[k] === undefined || body[k] === null || body[k] === "");
  if (missing.length) {
    c.causes.push(
      cause(
        369,
        "body.required_fields",
        missing.map((k) => `item.${k}`),
        `The body does not contains some or none of the following properties [${missing.join(", ")}]`,
      ),
    );
    return null;
  }
  if (!category) {
    c.causes.push(cause(126, "item.category_id.invalid", ["item.category_id"], `Category ${String(body.category_id)} does not exist.`));
    return null;
  }
  const site = category.site;
  if (!category.leaf) {
    c.causes.push(
      cause(
        126,
        "item.category_id.invalid",
        ["item.category_id"],
        `Is not allowed to post in category ${category.id}. Make sure you're posting in a leaf category`,
      ),
    );
  }
  if (site !== seller.siteId) {
    c.causes.push(
      cause(
        UNDOCUMENTED.siteInvalid,
        "item.site_id.invalid",
        ["item.site_id"],
        `The seller cannot list in site ${site}: its site is ${seller.siteId}`,
      ),
    );
  }
  const title = String(body.title);
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
  checkPrice(body.price, category, c);
  if (body.currency_id !== SITES[site].currency) {
    c.causes.push(
      cause(
        UNDOCUMENTED.currencyInvalid,
        "item.currency_id.invalid",
        ["item.currency_id"],
        `Currency ${String(body.currency_id)} is not valid for site ${site}.`,
      ),
    );
  }
  const quantity = body.available_quantity;
  if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 0) {
    c.causes.push(invalidQuantity("item.available_quantity"));
  }
  if (body.buying_mode !== "buy_it_now") {
    c.causes.push(
      cause(
        UNDOCUMENTED.buyingModeInvalid,
        "item.buying_mode.invalid",
        ["item.buying_mode"],
        `Buying mode ${String(body.buying_mode)} is not valid.`,
      ),
    );
  }
  const listingType = String(body.listing_type_id);
  if (!(listingTypesOf(site) as string[]).includes(listingType)) {
    c.causes.push(
      cause(
        UNDOCUMENTED.listingTypeInvalid,
        "item.listing_type_id.invalid",
        ["item.listing_type_id"],
        `Listing type ${listingType} is not valid for site ${site}.`,
      ),
    );
  }
  const condition = body.condition === undefined ? "not_specified" : String(body.condition);
  if (!CONDITIONS.includes(condition)) {
    c.causes.push(
      cause(UNDOCUMENTED.conditionInvalid, "item.condition.invalid", ["item.condition"], `Condition ${condition} is not valid.`),
    );
  }
  if (body.family_name !== undefined && Array.isArray(body.variations) && body.variations.length) {
    c.causes.push(
      cause(
        UNDOCUMENTED.familyNameVariations,
        "body.invalid_fields",
        ["item.variations"],
        "The field variations is invalid with family name",
      ),
    );
  }
  const pictures = readPictures(store, site, body.pictures, category, c);
  if (!(Array.isArray(body.pictures) && body.pictures.length) && listingType !== "free") {
    c.causes.push(
      cause(
        173,
        "item.listing_type_id.requiresPictures",
        ["item.pictures"],
        `Item pictures are mandatory for listing type ${listingType}.`,
      ),
    );
  }
  const attributes = readAttributes(body.attributes, category, c, "item.attributes");
  const price = typeof body.price === "number" ? roundPrice(site, body.price) : 0;
  const variations = readVariations(body.variations, [], category, price, pictures, store, c);
  checkRequired(category, attributes, variations, c);
  checkSizeGrid(store, seller, category, attributes, variations, c);
  // identificadores-de-productos.md is a local sites' page; global items follow Global Selling's own rules.
  if (site === "CBT") checkPackage(attributes, c);
  else checkGtin(store, category, attributes, variations, c, null);
  let description: string | null = null;
  if (body.description !== undefined) {
    const text = isObject(body.description) ? body.description.plain_text : body.description;
    const problem = descriptionProblem(text);
    if (problem) c.causes.push(problem);
    else description = text as string;
  }
  const shipping = isObject(body.shipping) ? body.shipping : {};
  if (shipping.mode !== undefined && shipping.mode !== "me2") {
    c.warnings.push(
      cause(4029, "shipping.me2_adoption_mandatory", ["shipping.modes"], "ME2 adoption is mandatory for the user", "warning"),
    );
  }
  if (c.causes.length) return null;

  const now = store.iso();
  const id = store.newItemId(site);
  const item: Item = {
    id,
    site_id: site,
    title,
    seller_id: seller.id,
    category_id: category.id,
    price,
    base_price: price,
    original_price: null,
    currency_id: SITES[site].currency,
    initial_quantity: quantity as number,
    available_quantity: quantity as number,
    sold_quantity: 0,
    buying_mode: "buy_it_now",
    listing_type_id: listingType,
    condition,
    permalink: permalink(site, id, title),
    thumbnail: pictures[0]?.url ?? "",
    pictures: storedPictures(pictures),
    video_id: null,
    accepts_mercadopago: true,
    shipping: {
      mode: "me2",
      free_shipping: shipping.free_shipping === true,
      local_pick_up: false,
      logistic_type: "cross_docking",
      tags: [],
    },
    seller_custom_field: str(body.seller_custom_field),
    attributes,
    variations,
    sale_terms: Array.isArray(body.sale_terms) ? body.sale_terms : [],
    warranty: null,
    status: "active",
    sub_status: [],
    tags: ["test_item", "immediate_payment"],
    domain_id: category.domainId,
    catalog_listing: false,
    channels: ["marketplace"],
    date_created: now,
    last_updated: now,
  };
  settleStock(item);
  return { item, description, warnings: c.warnings };
}

/** A seller SKU of the item: the SELLER_SKU attribute, seller_custom_field, or a variation's. */
export function skusOf(item: Item): string[] {
  const out: string[] = [];
  const fromAttrs = (attrs: AttributeValue[]) => attrs.filter((a) => a.id === "SELLER_SKU" && a.value_name).map((a) => a.value_name!);
  out.push(...fromAttrs(item.attributes));
  if (item.seller_custom_field) out.push(item.seller_custom_field);
  for (const v of item.variations) {
    out.push(...fromAttrs(v.attributes));
    if (v.seller_custom_field) out.push(v.seller_custom_field);
  }
  return out;
}

/** The item as the API answers it (internal marks dropped). */
export function itemJson(item: Item) {
  const { deleted, warnings, ...rest } = item;
  void warnings;
  return deleted ? { ...rest, sub_status: ["deleted"] } : rest;
}
