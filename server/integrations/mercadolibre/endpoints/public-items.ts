// Anyone's listings and a seller's public profile, read without a token through `meli.public` (the selection
// library): the listing's fields it keeps (read through items.ts's multiget, items-y-busquedas.md) and
// GET /users/{id} (docs/02-users/producto-consulta-usuarios.md, the public fields).
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";
import { mlId } from "../types.ts";

/** An item as a public read answers it: the competitor listing's fields. */
export const publicItem = z.looseObject({
  id: z.string(),
  site_id: z.string(),
  title: z.string(),
  seller_id: mlId,
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

/** GET /users/{id} without a token: the public profile. */
const publicUser = z.looseObject({
  id: z.number(),
  nickname: z.string().optional(),
  country_id: z.string().nullish(),
  site_id: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
});

/** A seller's public profile (country and site). */
export const getPublicUser = (s: MeliSession, id: string | number, o: CallOptions = {}) =>
  s.send("GET", `/users/${encodeURIComponent(String(id))}`, { ...o, schema: publicUser });
