// Categories, their attributes and the category predictor: public reads (no token) through `meli.public`, except the
// predictor, which takes the seller's session. Docs: docs/03-domains-categories/dominios-y-categorias.md (sites'
// categories, GET /categories/{id}, the full dump /sites/{SITE}/categories/all), docs/04-items/atributos.md
// (GET /categories/{id}/attributes and its tags), docs/12-products/categoriza-productos.md (domain_discovery);
// Global Selling's predictor is /marketplace/domain_discovery/search.
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";
import type { MeliSiteCode } from "../types.ts";

const categoryRef = z.looseObject({ id: z.string(), name: z.string() });

/** GET /categories/{id}; also each value of /sites/{SITE}/categories/all. */
const categoryDetail = z.looseObject({
  id: z.string(),
  name: z.string(),
  path_from_root: z.array(categoryRef),
  children_categories: z.array(z.looseObject({ id: z.string(), name: z.string(), total_items_in_this_category: z.number().optional() })),
  attribute_types: z.string().optional(),
  settings: z.looseObject({
    listing_allowed: z.boolean().optional(),
    max_title_length: z.number().optional(),
    max_pictures_per_item: z.number().optional(),
    minimum_price: z.number().nullish(),
    minimum_price_currency: z.string().nullish(),
    catalog_domain: z.string().nullish(),
  }),
});
export type CategoryDetail = z.infer<typeof categoryDetail>;

const categoryAttribute = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** required, catalog_required, conditional_required, allow_variations, variation_attribute, hidden, read_only, ... */
  tags: z.record(z.string(), z.unknown()),
  value_type: z.string(),
  value_max_length: z.number().optional(),
  values: z.array(z.looseObject({ id: z.string(), name: z.string() })).optional(),
  allowed_units: z.array(z.looseObject({ id: z.string(), name: z.string() })).optional(),
  default_unit: z.string().optional(),
  hierarchy: z.string().optional(),
  relevance: z.number().optional(),
  attribute_group_id: z.string().optional(),
});
export type CategoryAttribute = z.infer<typeof categoryAttribute>;

/** GET /sites/{SITE}/domain_discovery/search and /marketplace/domain_discovery/search. */
const domainPrediction = z.looseObject({
  domain_id: z.string(),
  domain_name: z.string(),
  category_id: z.string(),
  category_name: z.string(),
  attributes: z.array(
    z.looseObject({ id: z.string(), name: z.string().optional(), value_id: z.string().nullish(), value_name: z.string().nullish() }),
  ),
});
export type DomainPrediction = z.infer<typeof domainPrediction>;

const enc = encodeURIComponent;

/** A site's top-level categories. */
export const getSiteCategories = (s: MeliSession, site: MeliSiteCode, o: CallOptions = {}) =>
  s.send("GET", `/sites/${site}/categories`, { ...o, schema: categoryRef.array() });

/** One category: its path, children and settings. */
export const getCategory = (s: MeliSession, id: string, o: CallOptions = {}) =>
  s.send("GET", `/categories/${enc(id)}`, { ...o, schema: categoryDetail });

/** A category's attributes with their tags (required, conditional_required, allow_variations…). */
export const getCategoryAttributes = (s: MeliSession, id: string, o: CallOptions = {}) =>
  s.send("GET", `/categories/${enc(id)}/attributes`, { ...o, schema: categoryAttribute.array() });

/** The whole tree of a site at once, keyed by category id (large; sent gzip). */
export const getAllCategories = (s: MeliSession, site: MeliSiteCode, o: CallOptions = {}) =>
  s.send("GET", `/sites/${site}/categories/all`, { ...o, schema: z.record(z.string(), categoryDetail) });

/** Category prediction for a title (limit 1..8); CBT through the marketplace predictor. */
export const predictCategory = (s: MeliSession, site: MeliSiteCode, q: string, limit = 4, o: CallOptions = {}) =>
  s.send("GET", site === "CBT" ? "/marketplace/domain_discovery/search" : `/sites/${site}/domain_discovery/search`, {
    ...o,
    query: { q, limit },
    schema: domainPrediction.array(),
  });

/** GET /sites (dominios-y-categorias.md): every site Mercado Libre runs, with its default currency. */
const meliSite = z.looseObject({ id: z.string(), name: z.string(), default_currency_id: z.string().nullish() });

export const getSites = (s: MeliSession, o: CallOptions = {}) => s.send("GET", "/sites", { ...o, schema: meliSite.array() });
