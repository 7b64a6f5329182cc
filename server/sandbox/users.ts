// The seller's account: /users/me, /users/{id}, and for a global seller its marketplaces and listing caps.
import type { FastifyInstance } from "fastify";
import { forbidden, notFound } from "./errors.ts";
import { caller, params, principalOf, route } from "./http.ts";
import { SITES } from "./sites.ts";
import type { Store, User } from "./store.ts";

function userJson(store: Store, u: User, full: boolean) {
  const site = SITES[u.siteId];
  const base = {
    id: u.id,
    nickname: u.nickname,
    registration_date: store.iso(u.createdAt),
    country_id: site.countryId,
    address: { city: null, state: null },
    user_type: "normal",
    tags: u.siteId === "CBT" ? ["normal", "test_user", "global_seller"] : ["normal", "test_user", "user_info_verified"],
    logo: null,
    points: 100,
    site_id: u.siteId,
    permalink: `http://perfil.mercadolibre.com/${encodeURIComponent(u.nickname)}`,
    seller_reputation: {
      level_id: null,
      power_seller_status: null,
      transactions: { canceled: 0, completed: 0, period: "historic", ratings: { negative: 0, neutral: 0, positive: 0 }, total: 0 },
    },
    status: { site_status: "active" },
  };
  if (!full) return base;
  return {
    ...base,
    first_name: "Test",
    last_name: "Seller",
    email: `test_user_${u.id}@testuser.com`,
    identification: { number: String(u.id), type: "RFC" },
    status: {
      site_status: "active",
      list: { allow: true, codes: [], immediate_payment: { reasons: [], required: false } },
      buy: { allow: true, codes: [], immediate_payment: { reasons: [], required: false } },
      sell: { allow: true, codes: [], immediate_payment: { reasons: [], required: false } },
      billing: { allow: true, codes: [] },
      mercadopago_account_type: "personal",
      mercadoenvios: "accepted",
      immediate_payment: false,
      confirmed_email: true,
      user_type: "eventual",
      required_action: "",
    },
  };
}

export function registerUserRoutes(f: FastifyInstance, store: Store) {
  f.get("/users/me", route({ auth: "required" }), async (req) => userJson(store, caller(req), true));

  // Public: another seller's public profile (country, site) without a token; the caller's own in full.
  f.get("/users/:id", route({ auth: "optional" }), async (req) => {
    const me = principalOf(req)?.user ?? null;
    const id = Number(params(req).id);
    const user = store.state.users.get(id);
    if (!user) throw notFound(`User not found`);
    return userJson(store, user, !!me && store.ownIds(me).includes(id));
  });

  f.get("/marketplace/users/cap", route({ auth: "required" }), async (req) => {
    const me = caller(req);
    if (me.siteId !== "CBT") throw forbidden("The user is not a global seller");
    return me.marketplaces.map((m) => ({
      site_id: m.siteId,
      quota: 10000,
      total_items: [...store.state.items.values()].filter((i) => i.seller_id === m.userId && i.status !== "closed").length,
    }));
  });

  f.get("/marketplace/users/:id", route({ auth: "required" }), async (req) => {
    const me = caller(req);
    const id = Number(params(req).id);
    const user = store.state.users.get(id);
    if (!user || user.siteId !== "CBT") throw notFound("User not found");
    if (user.id !== me.id) throw forbidden();
    return {
      user_id: user.id,
      site_id: "CBT",
      marketplaces: user.marketplaces.map((m) => ({ user_id: m.userId, site_id: m.siteId, logistic_type: m.logisticType })),
    };
  });
}
