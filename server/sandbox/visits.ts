// Visits: GET /visits/items?ids= answers each item's total visits as { "ID": n } (the real API's "total visits by
// item", up to 50 ids a call). Mercado Libre's docs name no owner check (any seller's token reads them), and visits
// exist only for items of local sites: a global (CBT) item, or an id the sandbox does not know, is left out of the
// answer. Tests add visits through the control (control.addVisits).
import type { FastifyInstance } from "fastify";
import { badRequest } from "./errors.ts";
import { query, route } from "./http.ts";
import type { Store } from "./store.ts";

/** Ids per visits call. */
const VISITS_MAX_IDS = 50;

export function registerVisitRoutes(f: FastifyInstance, store: Store) {
  f.get("/visits/items", route({ auth: "required" }), async (req) => {
    const ids = (query(req).ids ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (!ids.length) throw badRequest("The ids param is required");
    if (ids.length > VISITS_MAX_IDS) throw badRequest(`Too many ids: the maximum is ${VISITS_MAX_IDS} per request`);
    const out: Record<string, number> = {};
    for (const id of ids) {
      const item = store.state.items.get(id);
      if (item && item.site_id !== "CBT") out[id] = store.state.visits.get(id) ?? 0;
    }
    return out;
  });
}
