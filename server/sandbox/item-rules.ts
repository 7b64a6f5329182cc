// Building and changing an item under the category's rules, with the causes the real API answers: every problem of a
// request is collected, errors block (400 validation_error), warnings do not. Shared by /items and /global/items.
import type { Attribute, Category } from "./categories.ts";
import { checkSizeGrid } from "./charts.ts";
import { cause, validationError, type Cause } from "./errors.ts";
import { listingTypesOf, roundPrice, SITES, type SiteId } from "./sites.ts";
import type { AttributeValue, Item, PictureRef, Store, User, Variation } from "./store.ts";

export type Checked = { causes: Cause[]; warnings: Cause[] };

export const newChecked = (): Checked => ({ causes: [], warnings: [] });

export function throwIfErrors(c: Checked) {
  if (c.causes.length) throw validationError([...c.causes, ...c.warnings]);
}

const MAX_PRICE = 9_999_999_999;
const CONDITIONS = ["new", "used", "not_specified"];

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);
const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .trim()
    .toLowerCase();

// ---------------------------------------------------------------------------------------------------------------
// Attributes.

function numberUnit(def: Attribute, raw: unknown): { number: number; unit: string } | null {
  if (isObject(raw) && typeof raw.number === "number" && typeof raw.unit === "string") {
    const unit = def.allowed_units?.find((u) => u.id.toLowerCase() === String(raw.unit).toLowerCase());
    return unit ? { number: raw.number, unit: unit.id } : null;
  }
  const m = /^\s*(\d+(?:[.,]\d+)?)\s*(\S.*?)?\s*$/.exec(str(raw) ?? "");
  if (!m) return null;
  const unit = def.allowed_units?.find((u) => u.id.toLowerCase() === (m[2] ?? "").toLowerCase());
  return unit ? { number: Number(m[1].replace(",", ".")), unit: unit.id } : null;
}

/** One attribute of the request against its definition; null when it is dropped or wrong (a cause says why). */
function attributeValue(def: Attribute, input: Record<string, unknown>, c: Checked, ref: string): AttributeValue | null {
  const id = def.id;
  const valueId = str(input.value_id);
  const valueName = str(input.value_name);
  const out = (value_id: string | null, value_name: string | null, struct: AttributeValue["value_struct"] = null): AttributeValue => ({
    id,
    name: def.name,
    value_id,
    value_name,
    value_struct: struct,
    values: [{ id: value_id, name: value_name, struct }],
  });
  if (valueId === null && valueName === null && !isObject(input.value_struct)) return out(null, null);
  if (valueName !== null && valueName.length > def.value_max_length) {
    c.causes.push(
      cause(
        154,
        "item.attributes.invalid_length",
        [ref],
        `Invalid value length for attribute ${id}. Maximum length is ${def.value_max_length}.`,
      ),
    );
    return null;
  }
  const invalid = (shown: string) => {
    c.causes.push(cause(3510, "item.attributes.invalid", [ref], `Attribute [${id}] is not valid, item values [${shown}]`));
    return null;
  };
  switch (def.value_type) {
    case "list":
    case "boolean":
    case "string": {
      const values = def.values ?? [];
      if (valueId !== null) {
        const v = values.find((x) => x.id === valueId);
        if (!v) return invalid(`(${valueId},${valueName ?? "null"})`);
        return out(v.id, v.name);
      }
      const v = values.find((x) => fold(x.name) === fold(valueName ?? ""));
      if (v) {
        if (v.name !== valueName) {
          c.warnings.push(
            cause(
              1212,
              "normalize.item.attribute.values",
              [ref],
              `Attribute [${id}] to be modified - values [(null,${valueName})] should be [(${v.id},${v.name})] - Normalized form: [migration]`,
              "warning",
            ),
          );
        }
        return out(v.id, v.name);
      }
      // Booleans take only their two values; lists and strings also take custom values, as the real API does.
      if (def.value_type === "boolean") return invalid(`(null,${valueName})`);
      return out(null, valueName);
    }
    case "number": {
      const n = Number((valueName ?? "").replace(",", "."));
      if (valueName === null || !Number.isFinite(n)) {
        c.causes.push(
          cause(3708, "item.attribute.number_invalid_format", [ref], `The value you entered in ${id} is incorrect. An example is: 10.`),
        );
        return null;
      }
      return out(null, String(n));
    }
    case "number_unit": {
      const v = numberUnit(def, input.value_struct ?? valueName);
      if (!v) {
        c.causes.push(
          cause(
            3708,
            "item.attribute.number_invalid_format",
            [ref],
            `The value you entered in ${id} is incorrect. An example is: 10 ${def.default_unit ?? ""}.`.replace(" .", "."),
          ),
        );
        return null;
      }
      return out(null, `${v.number} ${v.unit}`, v);
    }
  }
}

/** The request's attributes against the category: unknown ones dropped with a warning, read-only ones ignored. */
export function readAttributes(inputs: unknown, category: Category, c: Checked, prefix: string): AttributeValue[] {
  if (inputs === undefined || inputs === null) return [];
  if (!Array.isArray(inputs)) {
    c.causes.push(
      cause(101, "body.invalid_field_types", [prefix], `invalid property type: [${prefix}] expected List but was ${typeof inputs}`),
    );
    return [];
  }
  const out: AttributeValue[] = [];
  inputs.forEach((input, i) => {
    const ref = `${prefix}[${i}]`;
    if (!isObject(input) || typeof input.id !== "string") {
      c.causes.push(cause(101, "body.invalid_field_types", [ref], `invalid property type: [${ref}] expected Attribute`));
      return;
    }
    const def = category.attributes.find((a) => a.id === input.id);
    if (!def) {
      c.warnings.push(
        cause(
          3510,
          "item.attributes.dropped",
          [ref],
          `Attribute [${input.id}] does not exist in category ${category.id} and was dropped`,
          "warning",
        ),
      );
      return;
    }
    if (def.tags.read_only) return;
    const v = attributeValue(def, input, c, ref);
    if (v) out.push(v);
  });
  return out;
}

const hasValue = (a: AttributeValue | undefined) => !!a && (a.value_id !== null || a.value_name !== null);

/** Required attributes must be on the item, or on every variation (its combinations or its attributes). */
export function checkRequired(category: Category, attributes: AttributeValue[], variations: Variation[], c: Checked) {
  const missing = category.attributes
    .filter((def) => def.tags.required)
    .filter((def) => {
      if (hasValue(attributes.find((a) => a.id === def.id))) return false;
      if (!variations.length) return true;
      return !variations.every(
        (v) => hasValue(v.attribute_combinations.find((a) => a.id === def.id)) || hasValue(v.attributes.find((a) => a.id === def.id)),
      );
    })
    .map((def) => def.id);
  if (missing.length) {
    c.causes.push(
      cause(
        147,
        "item.attributes.missing_required",
        ["item.attributes"],
        `The attributes [${missing.join(", ")}] are required for category ${category.id} and channel marketplace. Check the attribute is present in the attributes list or in all variation's attributes_combination or attributes.`,
      ),
    );
  }
}

/** Global selling's package rules: every side at least 3 cm, at least 50 g. */
export function checkPackage(attributes: AttributeValue[], c: Checked) {
  const toCm: Record<string, number> = { cm: 1, in: 2.54 };
  const toG: Record<string, number> = { g: 1, kg: 1000, lb: 453.592 };
  for (const id of ["PACKAGE_LENGTH", "PACKAGE_WIDTH", "PACKAGE_HEIGHT", "PACKAGE_WEIGHT"]) {
    const v = attributes.find((a) => a.id === id)?.value_struct;
    if (!v) continue;
    const weight = id === "PACKAGE_WEIGHT";
    const value = v.number * ((weight ? toG : toCm)[v.unit] ?? 1);
    if (value < (weight ? 50 : 3)) {
      c.causes.push(
        cause(
          3510,
          "item.attributes.invalid",
          ["item.attributes"],
          `Attribute [${id}] is not valid, item values [${v.number} ${v.unit}]: ${weight ? "the package must weigh at least 50 g" : "each side of the package must measure at least 3 cm"}`,
        ),
      );
    }
  }
}

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
      // Mercado Libre's own URL, however the picture came (a source-made picture's record keeps its source).
      else out.push(pictureRef(picture.id, `http://http2.mlstatic.com/D_${picture.id}-O.jpg`));
    } else if (source && /^https?:\/\/\S+$/i.test(source)) {
      const pid = store.newPictureId(site);
      store.state.pictures.set(pid, { id: pid, width: 1200, height: 1200, size: 0, url: source });
      out.push({ ...pictureRef(pid, `http://http2.mlstatic.com/D_${pid}-O.jpg`), source });
    } else {
      c.causes.push(cause(101, "item.pictures.invalid", [`item.pictures[${i}]`], "Each picture needs an id or a source URL"));
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
    combos = readAttributes(input.attribute_combinations, category, c, `${ref}.attribute_combinations`);
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
    for (const a of combos) {
      if (!category.attributes.find((d) => d.id === a.id)?.tags.allow_variations) {
        c.causes.push(
          cause(
            372,
            "item.variations.attribute_combinations.invalid",
            [`${ref}.attribute_combinations`],
            `Attribute [${a.id}] cannot be used in attribute_combinations of category ${category.id}`,
          ),
        );
      }
    }
  }
  const quantity = input.available_quantity ?? base?.available_quantity ?? 0;
  if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 0) {
    c.causes.push(
      cause(
        101,
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
        206,
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
      input.attributes !== undefined ? readAttributes(input.attributes, category, c, `${ref}.attributes`) : (base?.attributes ?? []),
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
    c.causes.push(cause(360, "item.variations.not_allowed", ["item.variations"], `Category ${category.id} does not allow variations`));
    return existing;
  }
  if (inputs.length > 100) {
    c.causes.push(cause(361, "item.variations.max", ["item.variations"], `Items in category ${category.id} cannot exceed 100 variations.`));
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
            365,
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
        373,
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
  if (typeof price !== "number" || !Number.isFinite(price) || price <= 0) {
    c.causes.push(cause(101, "item.price.invalid", [ref], "The price must be a number greater than 0."));
  } else if (price > MAX_PRICE) {
    c.causes.push(cause(129, "item.price.invalid", [ref], `Price must be less than ${MAX_PRICE}.`));
  } else if (price < category.minimumPrice) {
    c.causes.push(
      cause(109, "item.price.invalid", [ref], `The category ${category.id} requires a minimum price of ${category.minimumPrice}.`),
    );
  }
}

/** Plain text only: no HTML, no emoji, at most 50,000 characters. */
export function descriptionProblem(text: unknown): Cause | null {
  const ref = ["item.description.plain_text"];
  if (typeof text !== "string") return cause(101, "body.invalid_field_types", ref, "invalid property type: [plain_text] expected String");
  if (/<\/?[a-z!][^>]*>/i.test(text)) {
    return cause(3720, "item.description.type.invalid", ref, "HTML is not allowed in the description: send plain_text only.");
  }
  if (/\p{Extended_Pictographic}/u.test(text)) {
    return cause(3721, "item.description.type.invalid", ref, "Emojis are not allowed in the description.");
  }
  if (text.length > 50000) {
    return cause(3707, "item.description.max", ref, "The description field is too long. More than 50000 characters is not allowed.");
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
      cause(108, "item.site_id.invalid", ["item.site_id"], `The seller cannot list in site ${site}: its site is ${seller.siteId}`),
    );
  }
  const title = String(body.title);
  if (title.length > category.maxTitleLength) {
    c.causes.push(
      cause(
        117,
        "item.title.length.invalid",
        ["item.title"],
        `The title has ${title.length} characters: items in category ${category.id} allow at most ${category.maxTitleLength}.`,
      ),
    );
  }
  checkPrice(body.price, category, c);
  if (body.currency_id !== SITES[site].currency) {
    c.causes.push(
      cause(111, "item.currency_id.invalid", ["item.currency_id"], `Currency ${String(body.currency_id)} is not valid for site ${site}.`),
    );
  }
  const quantity = body.available_quantity;
  if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 0) {
    c.causes.push(
      cause(101, "item.available_quantity.invalid", ["item.available_quantity"], "available_quantity must be a whole number >= 0."),
    );
  }
  if (body.buying_mode !== "buy_it_now") {
    c.causes.push(cause(103, "item.buying_mode.invalid", ["item.buying_mode"], `Buying mode ${String(body.buying_mode)} is not valid.`));
  }
  const listingType = String(body.listing_type_id);
  if (!(listingTypesOf(site) as string[]).includes(listingType)) {
    c.causes.push(
      cause(104, "item.listing_type_id.invalid", ["item.listing_type_id"], `Listing type ${listingType} is not valid for site ${site}.`),
    );
  }
  const condition = body.condition === undefined ? "not_specified" : String(body.condition);
  if (!CONDITIONS.includes(condition)) {
    c.causes.push(cause(105, "item.condition.invalid", ["item.condition"], `Condition ${condition} is not valid.`));
  }
  if (body.family_name !== undefined && Array.isArray(body.variations) && body.variations.length) {
    c.causes.push(cause(3790, "body.invalid_fields", ["item.variations"], "The field variations is invalid with family name"));
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
  if (site === "CBT") checkPackage(attributes, c);
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
