// Anyone's listings and a seller's public profile, read without a token through `meli.public` (the selection
// library). Docs: docs/04-items/items-y-busquedas.md (multiget GET /items?ids=, at most 20 ids, answered
// [{code, body}] in the order asked), docs/02-users/producto-consulta-usuarios.md (GET /users/{id}, public fields).
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";

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

/** Public item reads (anyone's listing), at most 20 ids a call: [{code, body}] in the order asked. */
export const getPublicItems = (s: MeliSession, ids: string[], o: CallOptions = {}) =>
  s.send("GET", "/items", { ...o, query: { ids: ids.join(",") }, schema: publicItemAnswer.array() });

/** A seller's public profile (country and site). */
export const getPublicUser = (s: MeliSession, id: string | number, o: CallOptions = {}) =>
  s.send("GET", `/users/${encodeURIComponent(String(id))}`, { ...o, schema: publicUser });
