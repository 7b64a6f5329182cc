// The Mercado Libre bodies the adapter reads, as zod schemas: the fields we use are checked, the rest of each object is
// kept as sent (loose objects), so later areas (category sync, publishing) find every field Mercado Libre answered.
import { z } from "zod";

/** Mercado Libre's site ids: the four local sites and global selling. */
export const MELI_SITE_CODES = ["MLM", "MLB", "MLC", "MCO", "CBT"] as const;
export type MeliSiteCode = (typeof MELI_SITE_CODES)[number];
export const isMeliSiteCode = (s: string): s is MeliSiteCode => (MELI_SITE_CODES as readonly string[]).includes(s);

/** An id Mercado Libre sends as a number or a digit string, read as a string. */
export const mlId = z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform((v) => String(v));

/** POST /oauth/token. */
export const tokenAnswer = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive(),
  scope: z.string().optional(),
  user_id: mlId,
  refresh_token: z.string().min(1).optional(),
});
export type TokenAnswer = z.infer<typeof tokenAnswer>;

export const categoryRef = z.looseObject({ id: z.string(), name: z.string() });
export type CategoryRef = z.infer<typeof categoryRef>;

/** GET /categories/{id}; also each value of /sites/{SITE}/categories/all. */
export const categoryDetail = z.looseObject({
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

export const categoryAttribute = z.looseObject({
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

/** GET /sites/{SITE}/listing_prices: one per listing type. */
export const listingPrice = z.looseObject({
  listing_type_id: z.string(),
  listing_type_name: z.string().optional(),
  listing_fee_amount: z.number(),
  sale_fee_amount: z.number(),
  currency_id: z.string(),
  sale_fee_details: z.looseObject({ percentage_fee: z.number(), fixed_fee: z.number() }).optional(),
});
export type ListingPrice = z.infer<typeof listingPrice>;

/** GET /sites/{SITE}/domain_discovery/search and /marketplace/domain_discovery/search. */
export const domainPrediction = z.looseObject({
  domain_id: z.string(),
  domain_name: z.string(),
  category_id: z.string(),
  category_name: z.string(),
  attributes: z.array(
    z.looseObject({ id: z.string(), name: z.string().optional(), value_id: z.string().nullish(), value_name: z.string().nullish() }),
  ),
});
export type DomainPrediction = z.infer<typeof domainPrediction>;

/** Mercado Libre's error body (the token endpoint adds error_description). */
export const errorBody = z.looseObject({
  message: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  status: z.number().optional(),
  cause: z
    .array(
      z.looseObject({
        cause_id: z.number().optional(),
        type: z.string().optional(),
        code: z.string().optional(),
        references: z.array(z.string()).optional(),
        message: z.string().optional(),
      }),
    )
    .optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;
export type MeliCause = NonNullable<ErrorBody["cause"]>[number];
