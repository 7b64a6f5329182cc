// A publish job's listings on a global-selling (CBT) shop: one global item for the product with a site to sell per
// listing (net_proceeds in USD, the site's own title); each site's result is stored on its listing, since a site can be
// refused while the others go live (Global Selling "Publish items"). The global item's publish key is the product's
// first listing id: a retried job finds the item by it and adds only the sites it does not have yet.
import { AppError } from "../../http/errors.ts";
import type { MeliExchange, MeliSession } from "../../integrations/mercadolibre/client.ts";
import {
  addGlobalItemSites,
  createGlobalItem,
  getMarketplaceItems,
  type SiteItem,
} from "../../integrations/mercadolibre/endpoints/global-items.ts";
import { searchSellerItems } from "../../integrations/mercadolibre/endpoints/items.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import { globalItemBody, siteToSell, type GlobalSite, type ItemPlan } from "./item-body.ts";
import { finish, gtinFor, logCalls, meliProblems, refusalOf, warningsOf, withCodes, type ListingRow, type OutcomeDeps } from "./outcome.ts";
import type { ListingPlan } from "./types.ts";

type Ready = { listing: ListingRow; plan: ListingPlan & { item: NonNullable<ListingPlan["item"]> } };

const siteOf = (site: number) => MELI_SITES[site as MeliSiteNumber].meli;

export async function submitGlobal(
  deps: OutcomeDeps,
  tenantId: string,
  pending: ListingRow[],
  plans: ListingPlan[],
  seller: { custId: string; listingType: string },
  shop: MeliSession,
): Promise<void> {
  const exchanges: MeliExchange[] = [];
  const observe = (x: MeliExchange) => exchanges.push(x);
  const ready: Ready[] = [];
  for (const listing of [...pending].sort((a, b) => a.id.localeCompare(b.id))) {
    const plan = plans.find((x) => x.accountId === listing.accountId && x.site === listing.site);
    const refusal = refusalOf(plan);
    if (refusal || !plan?.item) await finish(deps, tenantId, listing, [], { status: ListingStatus.Skipped, ...refusal });
    else ready.push({ listing, plan: plan as Ready["plan"] });
  }
  if (!ready.length) return;
  const first = ready[0];
  const key = first.listing.id;
  const sites = (rows: Ready[]): GlobalSite[] =>
    rows.map((r) => ({
      siteCode: siteOf(r.listing.site),
      listingType: seller.listingType,
      netProceeds: r.plan.item.price,
      title: r.plan.item.title,
      logisticType: "remote",
    }));
  try {
    let item: ItemPlan = { ...first.plan.item, key };
    if (first.plan.gtinNeeded > 0) item = withCodes(item, await gtinFor(deps, tenantId, key, first.plan.gtinNeeded));
    const earlier = pending.some((l) => l.attempts > 0) ? await searchSellerItems(shop, seller.custId, { sku: key }, { observe }) : null;
    // A retried site of a global item that exists (its other sites live) is added to it: its listing keeps the cbtId.
    let parentId = earlier?.results[0] ?? pending.find((l) => l.cbtId)?.cbtId ?? null;
    let siteItems: Pick<SiteItem, "site_id" | "item_id" | "error">[] = [];
    if (!parentId) {
      const answer = await createGlobalItem(shop, globalItemBody(item, first.plan.globalTitle ?? item.title, sites(ready)), key, {
        observe,
      });
      parentId = answer.item_id;
      siteItems = answer.site_items;
    } else {
      siteItems = (await getMarketplaceItems(shop, parentId, { observe })).marketplace_items;
      const missing = ready.filter((r) => !siteItems.some((x) => x.site_id === siteOf(r.listing.site)));
      if (missing.length) {
        const added = await addGlobalItemSites(shop, parentId, sites(missing).map(siteToSell), { observe });
        siteItems = [...siteItems, ...added.site_items];
      }
    }
    for (const r of ready) {
      const si = siteItems.find((x) => x.site_id === siteOf(r.listing.site));
      if (si?.item_id) {
        await finish(deps, tenantId, r.listing, exchanges, {
          status: ListingStatus.Active,
          cbtId: parentId,
          itemId: si.item_id,
          title: r.plan.item.title,
          reason: null,
          ...warningsOf(r.plan.problems),
        });
      } else {
        const refusal = new MeliApiError("validation", si?.error ?? { message: "美客多未返回该站点的结果" });
        await finish(deps, tenantId, r.listing, exchanges, {
          status: ListingStatus.Refused,
          cbtId: parentId,
          reason: refusal.message,
          problems: meliProblems(refusal),
        });
      }
    }
  } catch (err) {
    if (err instanceof AppError && err.code === "Gtin.PoolExhausted") {
      for (const r of ready) await finish(deps, tenantId, r.listing, exchanges, { status: ListingStatus.Skipped, reason: err.message });
      return;
    }
    if (!(err instanceof MeliApiError)) throw err;
    if (err.retryable) {
      await logCalls(deps, tenantId, first.listing, exchanges);
      throw err;
    }
    for (const r of ready) {
      await finish(deps, tenantId, r.listing, exchanges, {
        status: err.status === 400 ? ListingStatus.Refused : ListingStatus.Failed,
        reason: err.message,
        problems: meliProblems(err),
      });
    }
  }
}
