// Users: the seller behind a token and a global seller's users per marketplace.
// Docs: docs/02-users/producto-consulta-usuarios.md (GET /users/me, /users/{id}); Global Selling "Users"
// (GET /marketplace/users/{cbt_user_id}).
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";
import { mlId } from "../types.ts";

/** GET /users/me (and /users/{id} with the owner's token). */
const meliUser = z.looseObject({
  id: mlId,
  nickname: z.string(),
  site_id: z.string(),
  country_id: z.string().nullish(),
  email: z.string().nullish(),
  tags: z.array(z.string()).optional(),
  company: z.looseObject({ corporate_name: z.string().nullish(), brand_name: z.string().nullish() }).nullish(),
});
export type MeliUser = z.infer<typeof meliUser>;

/** GET /marketplace/users/{cbt_user_id}: a global seller's user on each marketplace. */
const marketplaceUser = z.looseObject({
  user_id: mlId,
  site_id: z.string(),
  marketplaces: z.array(z.looseObject({ user_id: mlId, site_id: z.string(), logistic_type: z.string().nullish() })),
});
export type MarketplaceUser = z.infer<typeof marketplaceUser>;

/** The seller the session's token belongs to. */
export const getMe = (s: MeliSession, o: CallOptions = {}) => s.send("GET", "/users/me", { ...o, schema: meliUser });

/** A global seller's user id on each local site. */
export const getMarketplaceUser = (s: MeliSession, cbtUserId: string, o: CallOptions = {}) =>
  s.send("GET", `/marketplace/users/${encodeURIComponent(cbtUserId)}`, { ...o, schema: marketplaceUser });
