// Global selling: a CBT item published on several marketplace sites at once, each site succeeding or failing on its
// own (a site the seller does not sell on, a price under that site's minimum). Stock lives on the global item and is
// shared by its marketplace items; updates answer {} with 200.
// Docs: Global Selling "Publish items" (global-selling.mercadolibre.com/devsite/global-listing, updated 2026-01-28):
// each entry of sites_to_sell names its price in USD or, since 2026-01-05, net_proceeds (what the seller receives, in
// USD; Mercado Libre computes the public price), never both; an entry with neither takes the global item's price. The
// page's bodies leave out buying_mode and listing_type_id (each site has its own); each site's answer names the
// marketplace item's seller_id. "Marketplace items" (devsite/marketplace-items): GET /items/{id}/marketplace_items.
import type { FastifyInstance } from "fastify";
import { findCategory } from "./catalog.ts";
import { cause, forbidden, validationError, type Cause } from "./errors.ts";
import { caller, objectBody, params, route } from "./http.ts";
import { buildItem, checkPrice, itemJson, newChecked, permalink, settleStock, throwIfErrors } from "./item-rules.ts";
import { ownedItem, recordCreation, updateItem } from "./items.ts";
import { notifyGlobalItem, notifyItem } from "./notify.ts";
import { isLocalSite, roundPrice, SITES } from "./sites.ts";
import type { Item, Store, User } from "./store.ts";

type SiteResult = { item_id: string; site_id: string; logistic_type: string; seller_id: number } | { site_id: unknown; error: unknown };

const siteError = (site: unknown, causes: Cause[], message = "Validation error", error = "validation_error") => ({
  site_id: site,
  error: { message, error, status: 400, cause: causes },
});

/** Marketplace items follow their global item's stock (and its variations' stock, by position). */
export function syncGlobalStock(store: Store, parent: Item) {
  for (const link of store.state.globalLinks.get(parent.id) ?? []) {
    const child = store.state.items.get(link.itemId);
    if (!child) continue;
    child.available_quantity = parent.available_quantity;
    child.variations.forEach((v, i) => {
      if (parent.variations[i]) v.available_quantity = parent.variations[i].available_quantity;
    });
    settleStock(child);
  }
}

/** Publishes the global item on one site: the marketplace item, or why this site failed. */
function publishSite(store: Store, seller: User, parent: Item, entry: unknown, globalPrice: number | null): SiteResult {
  if (!entry || typeof entry !== "object") return siteError(null, [], "Each sites_to_sell entry must be an object", "bad_request");
  const e = entry as Record<string, unknown>;
  const site = typeof e.site_id === "string" ? e.site_id : "";
  if (!isLocalSite(site)) return siteError(e.site_id ?? null, [], `Invalid site_id: ${String(e.site_id)}`, "bad_request");
  const market = seller.marketplaces.find((m) => m.siteId === site);
  if (!market) {
    return siteError(site, [
      cause(4100, "seller.site.not_enabled", ["sites_to_sell.site_id"], `The seller is not enabled to sell in site ${site}`),
    ]);
  }
  if ((store.state.globalLinks.get(parent.id) ?? []).some((l) => l.siteId === site)) {
    return siteError(site, [
      cause(4101, "item.site.already_published", ["sites_to_sell.site_id"], `Item ${parent.id} is already published in site ${site}`),
    ]);
  }
  const parentCategory = findCategory(store, parent.category_id)!.category;
  const category = store.trees[site].byKey.get(parentCategory.key);
  const c = newChecked();
  if (!category) {
    c.causes.push(
      cause(126, "item.category_id.invalid", ["item.category_id"], `Category ${parent.category_id} has no equivalent in site ${site}`),
    );
    return siteError(site, c.causes);
  }
  const listingType = typeof e.listing_type_id === "string" ? e.listing_type_id : parent.listing_type_id;
  if (listingType !== "gold_pro" && listingType !== "gold_special") {
    c.causes.push(
      cause(
        104,
        "item.listing_type_id.invalid",
        ["sites_to_sell.listing_type_id"],
        `Listing type ${listingType} is not valid for site ${site}.`,
      ),
    );
  }
  const logistic = typeof e.logistic_type === "string" ? e.logistic_type : market.logisticType;
  if (logistic !== "remote" && logistic !== "fulfillment") {
    c.causes.push(cause(4102, "item.logistic_type.invalid", ["sites_to_sell.logistic_type"], `Logistic type ${logistic} is not valid.`));
  }
  // Prices are in US dollars: a price converts at the site's rate; net_proceeds (what the seller receives) also adds
  // the site's sale fee on top. Both at once, or neither without a global price, is refused.
  const percent = category.feePercent[listingType === "gold_pro" ? "gold_pro" : "gold_special"];
  const usd = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null);
  let price: number | null = null;
  if (e.price != null && e.net_proceeds != null) {
    c.causes.push(
      cause(
        4103,
        "body.invalid_fields",
        ["sites_to_sell.price", "sites_to_sell.net_proceeds"],
        "The fields price and net_proceeds cannot be sent together: send one of them",
      ),
    );
  } else if (e.net_proceeds != null) {
    const net = usd(e.net_proceeds);
    if (net === null)
      c.causes.push(cause(101, "item.price.invalid", ["sites_to_sell.net_proceeds"], "net_proceeds must be a number greater than 0."));
    else price = roundPrice(site, (net * SITES[site].perUsd) / (1 - percent / 100));
  } else if (e.price != null) {
    const own = usd(e.price);
    if (own === null)
      c.causes.push(cause(101, "item.price.invalid", ["sites_to_sell.price"], "The price must be a number greater than 0."));
    else price = roundPrice(site, own * SITES[site].perUsd);
  } else if (globalPrice !== null) {
    price = roundPrice(site, globalPrice * SITES[site].perUsd);
  } else {
    c.causes.push(
      cause(369, "body.required_fields", ["sites_to_sell.net_proceeds"], "The sites_to_sell entry needs net_proceeds or price"),
    );
  }
  if (price !== null) checkPrice(price, category, c, "sites_to_sell.price");
  const title = typeof e.title === "string" && e.title ? e.title : parent.title;
  if (title.length > category.maxTitleLength) {
    c.causes.push(
      cause(
        117,
        "item.title.length.invalid",
        ["sites_to_sell.title"],
        `The title has ${title.length} characters: items in category ${category.id} allow at most ${category.maxTitleLength}.`,
      ),
    );
  }
  if (c.causes.length) return siteError(site, c.causes);

  const now = store.iso();
  const id = store.newItemId(site);
  const local = (attrs: Item["attributes"]) =>
    attrs.map((a) => ({ ...a, name: category.attributes.find((d) => d.id === a.id)?.name ?? a.name }));
  const item: Item = {
    ...structuredClone(parent),
    id,
    site_id: site,
    title,
    seller_id: market.userId,
    category_id: category.id,
    domain_id: category.domainId,
    price: price!,
    base_price: price!,
    currency_id: SITES[site].currency,
    listing_type_id: listingType,
    permalink: permalink(site, id, title),
    attributes: local(parent.attributes),
    variations: parent.variations.map((v) => ({
      ...structuredClone(v),
      id: store.newVariationId(),
      price: price!,
      attribute_combinations: local(v.attribute_combinations),
    })),
    tags: ["test_item", "immediate_payment"],
    parent_item_id: parent.id,
    logistic_type: logistic,
    sold_quantity: 0,
    date_created: now,
    last_updated: now,
  };
  store.state.items.set(id, item);
  const links = store.state.globalLinks.get(parent.id) ?? [];
  links.push({ siteId: site, itemId: id, logisticType: logistic, userId: market.userId, dateCreated: now });
  store.state.globalLinks.set(parent.id, links);
  const description = store.state.descriptions.get(parent.id);
  if (description) store.state.descriptions.set(id, { ...description });
  return { item_id: id, site_id: site, logistic_type: logistic, seller_id: market.userId };
}

function sitesToSell(body: Record<string, unknown>): unknown[] {
  const sites = body.sites_to_sell;
  if (!Array.isArray(sites) || !sites.length) {
    throw validationError([
      cause(
        369,
        "body.required_fields",
        ["sites_to_sell"],
        "The body does not contains some or none of the following properties [sites_to_sell]",
      ),
    ]);
  }
  return sites;
}

/**
 * The global item as buildItem checks it: what the page's bodies leave out filled in. Buying mode is buy_it_now, the
 * currency USD, the listing type the first site's; without a price of its own the global item takes the first site's
 * (price or net_proceeds, in USD), and with neither anywhere the body lacks a price (a 400).
 */
function globalDefaults(body: Record<string, unknown>, sites: unknown[]): Record<string, unknown> {
  const first = (sites.find((e) => e && typeof e === "object") ?? {}) as Record<string, unknown>;
  const firstPrice =
    typeof first.price === "number" ? first.price : typeof first.net_proceeds === "number" ? first.net_proceeds : undefined;
  return {
    buying_mode: "buy_it_now",
    currency_id: "USD",
    listing_type_id: typeof first.listing_type_id === "string" ? first.listing_type_id : "gold_special",
    ...(firstPrice !== undefined ? { price: firstPrice } : {}),
    ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== null)),
  };
}

function globalSeller(store: Store, user: User): User {
  if (user.siteId !== "CBT") throw forbidden("The user is not a global seller");
  return user;
}

export function registerGlobalItemRoutes(f: FastifyInstance, store: Store) {
  const auth = route({ auth: "required" });

  f.post("/global/items", auth, async (req, reply) => {
    const seller = globalSeller(store, caller(req));
    const body = objectBody(req);
    const sites = sitesToSell(body);
    const c = newChecked();
    const found = typeof body.category_id === "string" ? findCategory(store, body.category_id) : null;
    const { sites_to_sell: _ignored, ...itemBody } = body;
    void _ignored;
    const built = buildItem(store, seller, globalDefaults(itemBody, sites), found?.category ?? null, c);
    throwIfErrors(c);
    const parent = built!.item;
    parent.tags = [...parent.tags, "cbt_item"];
    store.state.items.set(parent.id, parent);
    if (built!.description !== null) {
      store.state.descriptions.set(parent.id, {
        plain_text: built!.description,
        date_created: parent.date_created,
        last_updated: parent.date_created,
      });
    }
    recordCreation(store, req, seller.id, body, parent.id);
    const globalPrice = typeof body.price === "number" ? parent.price : null;
    const site_items = sites.map((entry) => publishSite(store, seller, parent, entry, globalPrice));
    notifyGlobalItem(store, parent);
    return reply.code(201).send({ item_id: parent.id, site_id: "CBT", site_items });
  });

  f.post("/global/items/:id", auth, async (req, reply) => {
    const seller = globalSeller(store, caller(req));
    const parent = ownedItem(store, seller, params(req).id);
    if (parent.site_id !== "CBT") throw forbidden(`Item ${parent.id} is not a global item`);
    const sites = sitesToSell(objectBody(req));
    const site_items = sites.map((entry) => publishSite(store, seller, parent, entry, parent.price));
    for (const r of site_items) {
      const added = "item_id" in r ? store.state.items.get(r.item_id) : undefined;
      if (added) notifyItem(store, added);
    }
    return reply.code(201).send({ item_id: parent.id, site_id: "CBT", site_items });
  });

  f.put("/global/items/:id", auth, async (req) => {
    const seller = globalSeller(store, caller(req));
    const item = ownedItem(store, seller, params(req).id);
    const body = objectBody(req);
    if (item.site_id === "CBT") {
      updateItem(store, item, body, "global");
      // Stock and pictures are the global item's; its marketplace items follow.
      for (const link of store.state.globalLinks.get(item.id) ?? []) {
        const child = store.state.items.get(link.itemId);
        if (child && "pictures" in body) {
          child.pictures = structuredClone(item.pictures);
          child.thumbnail = item.thumbnail;
        }
      }
      syncGlobalStock(store, item);
      notifyGlobalItem(store, item);
    } else if (item.parent_item_id) {
      updateItem(store, item, body, "marketplace");
      notifyItem(store, item);
    } else {
      throw forbidden(`Item ${item.id} is not a global selling item`);
    }
    return {};
  });

  f.get("/marketplace/items/:id", auth, async (req) => itemJson(ownedItem(store, caller(req), params(req).id)));

  f.get("/items/:id/marketplace_items", auth, async (req) => {
    const parent = ownedItem(store, caller(req), params(req).id);
    if (parent.site_id !== "CBT") throw forbidden(`Item ${parent.id} is not a global item`);
    return {
      item_id: parent.id,
      user_id: parent.seller_id,
      site_id: "CBT",
      marketplace_items: (store.state.globalLinks.get(parent.id) ?? []).map((l) => ({
        item_id: l.itemId,
        site_id: l.siteId,
        user_id: l.userId,
        logistic_type: l.logisticType,
        date_created: l.dateCreated,
        status: store.state.items.get(l.itemId)?.status ?? null,
      })),
    };
  });
}
