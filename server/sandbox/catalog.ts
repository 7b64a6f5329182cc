// Sites, categories, attributes, listing types, fees and the category predictor. Category reads are public as on the
// real API (a token, when sent, must still be valid); the predictor needs a token.
import { gzipSync } from "node:zlib";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { categoryJson, predict, treeDump, type Category, type SiteTree } from "./categories.ts";
import { badRequest, MeliError, notFound } from "./errors.ts";
import { intQuery, params, query, route } from "./http.ts";
import {
  isSiteId,
  LISTING_TYPES,
  listingTypeName,
  listingTypesOf,
  roundPrice,
  SITE_IDS,
  SITES,
  type ListingTypeId,
  type SiteId,
} from "./sites.ts";
import type { Store } from "./store.ts";

/** The real API's answer for a site id it does not know. */
const invalidSite = (site: string) => new MeliError(404, "not_found", `Invalid site_id: ${site}`);

function siteOf(req: FastifyRequest): SiteId {
  const site = params(req).site;
  if (!isSiteId(site)) throw invalidSite(site);
  return site;
}

export function findCategory(store: Store, id: string): { category: Category; tree: SiteTree } | null {
  const site = id.slice(0, 3);
  if (!isSiteId(site)) return null;
  const tree = store.trees[site];
  const category = tree.byId.get(id);
  return category ? { category, tree } : null;
}

export type Fee = {
  listing_type_id: ListingTypeId;
  listing_type_name: string;
  listing_exposure: string;
  requires_picture: boolean;
  currency_id: string;
  listing_fee_amount: number;
  sale_fee_amount: number;
  free_relist: boolean;
  stop_time: string;
  sale_fee_details: {
    period: string;
    percentage_fee: number;
    gross_amount: number;
    fixed_fee: number;
    financing_add_on_fee: number;
    meli_percentage_fee: number;
  };
};

/** What the fixed fee depends on (comision-por-vender.md "Parámetros": logistic_type, shipping_mode). */
export type FeeShipping = { logisticType?: string; shippingMode?: string };

/** comision-por-vender.md "Parámetros": each logistic type's shipping mode. */
const MODE_OF_LOGISTIC: Record<string, string> = {
  drop_off: "me2",
  cross_docking: "me2",
  xd_drop_off: "me2",
  self_service: "me2",
  turbo: "me2",
  fulfillment: "me2",
  default: "me1",
  custom: "custom",
  not_specified: "not_specified",
};
const LOGISTIC_TYPES = Object.keys(MODE_OF_LOGISTIC);
const SHIPPING_MODES = ["me2", "me1", "custom", "not_specified"];

/**
 * Whether a sale at this price pays the site's fixed fee (comision-por-vender.md "Lógica de cálculo", Brazil, Colombia,
 * Chile, Mexico): never at or above the threshold; under it, with ME2 only Flex (self_service) pays it, and ME1,
 * custom or not specified always do. Asked without logistic type or shipping mode, the price alone decides (the old
 * structure, which the page warns will not match what is charged).
 */
function paysFixedFee(price: number, threshold: number, shipping: FeeShipping): boolean {
  if (price >= threshold) return false;
  const mode = shipping.shippingMode ?? (shipping.logisticType ? MODE_OF_LOGISTIC[shipping.logisticType] : undefined) ?? "not_specified";
  return mode !== "me2" || shipping.logisticType === "self_service";
}

/** The fee of selling at price in the category (or the site's average without one) on the listing type. */
export function feeFor(
  site: SiteId,
  price: number,
  type: ListingTypeId,
  category: Category | null,
  stopTime: string,
  shipping: FeeShipping = {},
): Fee {
  const info = SITES[site];
  const percent = category ? category.feePercent[type] : { gold_special: 13, gold_pro: 18, free: 0 }[type];
  const fixed = type !== "free" && paysFixedFee(price, info.fixedFeeUnder, shipping) ? info.fixedFee : 0;
  const gross = roundPrice(site, (price * percent) / 100);
  return {
    listing_type_id: type,
    listing_type_name: listingTypeName(site, type),
    listing_exposure: type === "free" ? "lowest" : "highest",
    requires_picture: type !== "free",
    currency_id: info.currency,
    listing_fee_amount: 0,
    sale_fee_amount: roundPrice(site, gross + fixed),
    free_relist: false,
    stop_time: stopTime,
    sale_fee_details: {
      period: "month",
      percentage_fee: percent,
      gross_amount: gross,
      fixed_fee: fixed,
      financing_add_on_fee: 0,
      meli_percentage_fee: percent,
    },
  };
}

const dumps = new Map<string, { json: string; gzip: Buffer }>();

function dumpOf(store: Store, site: SiteId) {
  const key = `${store.seed}:${site}`;
  let d = dumps.get(key);
  if (!d) {
    const json = JSON.stringify(treeDump(store.trees[site]));
    d = { json, gzip: gzipSync(json) };
    dumps.set(key, d);
  }
  return d;
}

/** The warranty's units in the site's language (publica-productos.md's MLA example lists días, meses, años). */
const warrantyUnits: Record<"es" | "pt" | "en", string[]> = {
  es: ["días", "meses", "años"],
  pt: ["dias", "meses", "anos"],
  en: ["days", "months", "years"],
};

/**
 * GET /categories/{id}/sale_terms (publica-productos.md "Garantía del producto"): WARRANTY_TYPE with the documented
 * value ids (2230279 factory warranty, 2230280 seller warranty) and WARRANTY_TIME in days, months or years.
 */
function saleTermsOf(category: Category) {
  const lang = SITES[category.site].language;
  const names = {
    es: ["Tipo de garantía", "Garantía de fábrica", "Garantía del vendedor", "Tiempo de garantía", "Otros"],
    pt: ["Tipo de garantia", "Garantia de fábrica", "Garantia do vendedor", "Tempo de garantia", "Outros"],
    en: ["Warranty type", "Factory warranty", "Seller warranty", "Warranty time", "Others"],
  }[lang];
  const units = warrantyUnits[lang];
  return [
    {
      id: "WARRANTY_TYPE",
      name: names[0],
      tags: {},
      hierarchy: "SALE_TERMS",
      relevance: 2,
      value_type: "list",
      values: [
        { id: "2230279", name: names[1] },
        { id: "2230280", name: names[2] },
      ],
      attribute_group_id: "OTHERS",
      attribute_group_name: names[4],
    },
    {
      id: "WARRANTY_TIME",
      name: names[3],
      tags: {},
      hierarchy: "SALE_TERMS",
      relevance: 2,
      value_type: "number_unit",
      value_max_length: 255,
      allowed_units: units.map((u) => ({ id: u, name: u })),
      default_unit: units[0],
      attribute_group_id: "OTHERS",
      attribute_group_name: names[4],
    },
  ];
}

export function registerCatalogRoutes(f: FastifyInstance, store: Store) {
  const pub = route({ auth: "optional" });
  const rootsOf = (site: SiteId) => store.trees[site].roots.map((c) => ({ id: c.id, name: c.name }));

  f.get("/sites", pub, async () => SITE_IDS.map((id) => ({ default_currency_id: SITES[id].currency, id, name: SITES[id].name })));

  f.get("/sites/:site", pub, async (req) => {
    const site = siteOf(req);
    const info = SITES[site];
    return { id: site, name: info.name, country_id: info.countryId, default_currency_id: info.currency, categories: rootsOf(site) };
  });

  f.get("/sites/:site/categories", pub, async (req) => rootsOf(siteOf(req)));

  f.get("/sites/:site/categories/all", pub, async (req, reply) => {
    const dump = dumpOf(store, siteOf(req));
    reply.type("application/json; charset=utf-8");
    if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
      return reply.header("content-encoding", "gzip").header("vary", "accept-encoding").send(dump.gzip);
    }
    return reply.send(dump.json);
  });

  f.get("/categories/:id", pub, async (req) => {
    const found = findCategory(store, params(req).id);
    if (!found) throw notFound("Category not found");
    return categoryJson(found.category, found.tree);
  });

  f.get("/categories/:id/sale_terms", pub, async (req) => {
    const found = findCategory(store, params(req).id);
    if (!found) throw notFound(`Category not found: ${params(req).id}`);
    return saleTermsOf(found.category);
  });

  f.get("/categories/:id/attributes", pub, async (req) => {
    const found = findCategory(store, params(req).id);
    if (!found) throw notFound("Category not found");
    return found.category.attributes;
  });

  f.get("/sites/:site/listing_types", pub, async (req) => {
    const site = siteOf(req);
    return listingTypesOf(site).map((id) => ({ site_id: site, id, name: listingTypeName(site, id) }));
  });

  f.get("/sites/:site/listing_types/:type", pub, async (req) => {
    const site = siteOf(req);
    const type = params(req).type as ListingTypeId;
    if (!listingTypesOf(site).includes(type)) throw notFound("Listing type not found");
    return {
      id: type,
      not_available_in_categories: [],
      configuration: {
        name: listingTypeName(site, type),
        listing_exposure: type === "free" ? "lowest" : "highest",
        requires_picture: type !== "free",
        max_stock_per_item: type === "free" ? 1 : 99999,
        duration_days: { buy_it_now: type === "free" ? 60 : 7300 },
      },
    };
  });

  // comision-por-vender.md: a list with one entry per listing type (one entry when listing_type_id is asked), for a
  // price and optionally a category, currency, logistic type and shipping mode (which decide the fixed fee).
  f.get("/sites/:site/listing_prices", pub, async (req) => {
    const site = siteOf(req);
    const q = query(req);
    const price = Number(q.price);
    if (q.price === undefined || q.price === "" || !Number.isFinite(price) || price < 0) {
      throw badRequest("The parameter 'price' has to be a number");
    }
    if (q.currency_id !== undefined && q.currency_id !== SITES[site].currency) {
      throw badRequest(`The currency ${q.currency_id} is not valid for site ${site}`);
    }
    if (q.logistic_type !== undefined && !LOGISTIC_TYPES.includes(q.logistic_type)) {
      throw badRequest(`The parameter 'logistic_type' has an invalid value: ${q.logistic_type}`);
    }
    // The page's examples spell it shipping_mode and shipping_modes.
    const shippingMode = q.shipping_mode ?? q.shipping_modes;
    if (shippingMode !== undefined && !SHIPPING_MODES.includes(shippingMode)) {
      throw badRequest(`The parameter 'shipping_mode' has an invalid value: ${shippingMode}`);
    }
    let category: Category | null = null;
    if (q.category_id) {
      const found = findCategory(store, q.category_id);
      if (!found || found.category.site !== site) throw notFound(`Category ${q.category_id} not found`);
      category = found.category;
    }
    const stopTime = store.iso(store.now() + 20 * 365 * 24 * 3600_000);
    const shipping = { logisticType: q.logistic_type, shippingMode };
    let types = listingTypesOf(site);
    if (q.listing_type_id) {
      const type = q.listing_type_id as ListingTypeId;
      if (!(LISTING_TYPES as readonly string[]).includes(type) || !types.includes(type)) {
        throw notFound(`Listing type ${q.listing_type_id} not found`);
      }
      types = [type];
    }
    return types.map((t) => feeFor(site, price, t, category, stopTime, shipping));
  });

  const discover = (site: SiteId, req: FastifyRequest) => {
    const q = query(req);
    if (!q.q || !q.q.trim()) throw badRequest("The q param is required");
    const limit = intQuery(q.limit, "limit", 4, 1, 8);
    return predict(store.trees[site], q.q, limit);
  };

  f.get("/sites/:site/domain_discovery/search", route({ auth: "required" }), async (req) => discover(siteOf(req), req));
  f.get("/marketplace/domain_discovery/search", route({ auth: "required" }), async (req) => discover("CBT", req));
}
