// The read-only live check (`npm run meli:check`): with the real application's settings and one seller's token, it
// makes the reads the product depends on through the adapter's own endpoint functions, so each answer is validated
// against the schema the product reads it with, and reports per call whether Mercado Libre's answer matched. Nothing
// is written on Mercado Libre.
import type { MeliSession } from "./client.ts";
import { getCategory, getCategoryAttributes, getSiteCategories, getSites } from "./endpoints/categories.ts";
import { getListingPrices } from "./endpoints/fees.ts";
import { getItem, searchSellerItems } from "./endpoints/items.ts";
import { getMarketplaceOrder, getOrder, orderIdsOf, searchOrders, searchPurchases } from "./endpoints/orders.ts";
import { getMarketplaceUser, getMe } from "./endpoints/users.ts";
import { MeliApiError } from "./errors.ts";
import { isMeliSiteCode, type MeliSiteCode } from "./types.ts";

type CheckOutcome = "matched" | "mismatch" | "refused" | "skipped";
export type CheckRow = { call: string; outcome: CheckOutcome; detail: string };

/** How far back the order read looks. */
const ORDER_WINDOW_DAYS = 30;
/** Levels walked down from a root to find a leaf; the real trees are at most about 7 deep. */
const MAX_DEPTH = 8;

/**
 * Runs every read in order; a refused or mismatched call is a row, not a stop, unless a later read needs its answer.
 * `seller` is the token's session, `open` the token-less one (public reads).
 */
export async function runLiveCheck(p: { seller: MeliSession; open: MeliSession; now?: Date }): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  const step = async <T>(call: string, run: () => Promise<T>, describe: (v: T) => string): Promise<T | null> => {
    try {
      const value = await run();
      rows.push({ call, outcome: "matched", detail: describe(value) });
      return value;
    } catch (err) {
      if (!(err instanceof MeliApiError)) throw err;
      const outcome = err.kind === "bad-response" ? "mismatch" : "refused";
      rows.push({ call, outcome, detail: err.kind === "bad-response" ? (err.meli.message ?? err.message) : (err.details ?? err.message) });
      return null;
    }
  };
  const skip = (call: string, why: string) => rows.push({ call, outcome: "skipped", detail: why });

  const me = await step(
    "GET /users/me",
    () => getMe(p.seller),
    (u) => `${u.nickname} (${u.id}), site ${u.site_id}`,
  );
  if (!me) return rows;
  const isGlobal = me.site_id === "CBT";
  if (isGlobal) {
    await step(
      `GET /marketplace/users/${me.id}`,
      () => getMarketplaceUser(p.seller, me.id),
      (m) => m.marketplaces.map((x) => x.site_id).join(", "),
    );
  }
  await step(
    "GET /sites",
    () => getSites(p.open),
    (s) => `${s.length} sites`,
  );

  const site: MeliSiteCode | null = isMeliSiteCode(me.site_id) ? me.site_id : null;
  const leaf = site ? await findLeaf(site, p.open, step) : null;
  if (!site) skip("GET /sites/{site}/categories", `site ${me.site_id} is not one the product publishes to`);
  if (leaf) {
    await step(
      `GET /categories/${leaf}/attributes`,
      () => getCategoryAttributes(p.open, leaf),
      (a) => `${a.length} attributes`,
    );
    if (site && site !== "CBT") {
      await step(
        `GET /sites/${site}/listing_prices`,
        () => getListingPrices(p.open, site, { price: 100, categoryId: leaf }),
        (l) => l.map((x) => `${x.listing_type_id} ${x.sale_fee_amount}`).join(", "),
      );
    } else skip("GET /sites/{site}/listing_prices", "global selling prices by net proceeds");
  }

  const search = await step(
    `GET /users/${me.id}/items/search`,
    () => searchSellerItems(p.seller, me.id, { limit: 5 }),
    (page) => `${page.paging.total} items`,
  );
  const firstItem = search?.results[0];
  if (firstItem)
    await step(
      `GET /items/${firstItem}`,
      () => getItem(p.seller, firstItem),
      (i) => `${i.id} ${i.status ?? ""}`.trim(),
    );
  else skip("GET /items/{id}", "the seller has no items");

  const from = new Date((p.now ?? new Date()).getTime() - ORDER_WINDOW_DAYS * 86_400_000);
  const orderIds = isGlobal
    ? await step(
        "GET /marketplace/orders/search",
        async () => orderIdsOf(await searchPurchases(p.seller, { field: "date_created", from, limit: 5, offset: 0 })),
        (ids) => `${ids.length} orders in ${ORDER_WINDOW_DAYS} days`,
      )
    : await step(
        "GET /orders/search",
        async () =>
          (await searchOrders(p.seller, { seller: me.id, field: "date_created", from, limit: 5, offset: 0 })).results.map((o) => o.id),
        (ids) => `${ids.length} orders in ${ORDER_WINDOW_DAYS} days`,
      );
  const lastOrder = orderIds?.at(-1);
  if (lastOrder) {
    await step(
      `GET ${isGlobal ? "/marketplace/orders" : "/orders"}/${lastOrder}`,
      () => (isGlobal ? getMarketplaceOrder : getOrder)(p.seller, String(lastOrder)),
      (o) => `${o.status}`,
    );
  } else skip("GET /orders/{id}", `no order in the last ${ORDER_WINDOW_DAYS} days`);
  return rows;
}

type Step = <T>(call: string, run: () => Promise<T>, describe: (v: T) => string) => Promise<T | null>;

/** A leaf of the site: its first root, then first children down (the site's whole dump is tens of MB on a real site). */
async function findLeaf(site: MeliSiteCode, open: MeliSession, step: Step): Promise<string | null> {
  const roots = await step(
    `GET /sites/${site}/categories`,
    () => getSiteCategories(open, site),
    (r) => `${r.length} roots`,
  );
  let id = roots?.[0]?.id;
  for (let depth = 0; id && depth < MAX_DEPTH; depth++) {
    const current = id;
    const detail = await step(
      `GET /categories/${current}`,
      () => getCategory(open, current),
      (c) => c.path_from_root.map((x) => x.name).join(" > "),
    );
    if (!detail) return null;
    if (!detail.children_categories.length) return current;
    id = detail.children_categories[0].id;
  }
  return null;
}

/** The rows as a fixed-width table, and the line that sums them up. */
export function checkTable(rows: CheckRow[]): string {
  const width = Math.max(...rows.map((r) => r.call.length), 4);
  const lines = rows.map((r) => `${r.call.padEnd(width)}  ${r.outcome.padEnd(8)}  ${r.detail}`);
  const count = (o: CheckOutcome) => rows.filter((r) => r.outcome === o).length;
  return [
    `${"call".padEnd(width)}  ${"outcome".padEnd(8)}  detail`,
    ...lines,
    `${count("matched")} matched, ${count("mismatch")} mismatched, ${count("refused")} refused, ${count("skipped")} skipped`,
  ].join("\n");
}
