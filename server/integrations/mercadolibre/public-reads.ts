// Answers of the public reads the freight rules and the selection library use (the adapter's `catalog`): a site's
// freight table, anyone's items (multiget) and a seller's public profile. Loose: fields not named here pass through.
import { z } from "zod";

/** GET /sites/{SITE}/shipping_costs: the site's freight by weight band (grams), in currency_id. */
export const shippingCosts = z.looseObject({
  site_id: z.string(),
  currency_id: z.string(),
  weight_unit: z.literal("g"),
  costs: z.array(z.looseObject({ from_weight: z.number().min(0), to_weight: z.number().positive(), cost: z.number().min(0) })),
});
export type ShippingCosts = z.infer<typeof shippingCosts>;

/** An item as a public read answers it: the competitor listing's fields. */
export const publicItem = z.looseObject({
  id: z.string(),
  site_id: z.string(),
  title: z.string(),
  seller_id: z.number(),
  price: z.number().nullish(),
  original_price: z.number().nullish(),
  currency_id: z.string().nullish(),
  sold_quantity: z.number().nullish(),
  status: z.string().nullish(),
  permalink: z.string().nullish(),
  thumbnail: z.string().nullish(),
  pictures: z.array(z.looseObject({ url: z.string().optional(), secure_url: z.string().optional() })).nullish(),
  date_created: z.string().nullish(),
  /** A marketplace item of a global (CBT) item. */
  parent_item_id: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
});
export type PublicItem = z.infer<typeof publicItem>;

/** GET /items?ids=: one entry per id asked, its status code and the item or the error body. */
export const publicItemAnswer = z.looseObject({ code: z.number(), body: z.unknown() });

/** GET /users/{id} without a token: the public profile. */
export const publicUser = z.looseObject({
  id: z.number(),
  nickname: z.string().optional(),
  country_id: z.string().nullish(),
  site_id: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
});
