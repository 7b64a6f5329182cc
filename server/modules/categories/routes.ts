// The category calls, declared in shared/api/categories.ts (spec §7 MeliCategory, and Product PredictMeliCategory).
import type { Registrar } from "../../http/calls.ts";
import { meliCategoryCalls as calls } from "#shared/api/categories.ts";
import type { MeliSiteNumber } from "#shared/contract/meli.ts";
import type { CategoryService } from "./service.ts";
import type { SyncPart } from "./sync.ts";

const ALL_SITES: MeliSiteNumber[] = [1, 2, 3, 4, 5];
const sitesOf = (site: number | undefined): MeliSiteNumber[] => (site ? [site as MeliSiteNumber] : ALL_SITES);

export function registerCategories(r: Registrar, { categories }: { categories: CategoryService }) {
  r.handle(calls.getAllCategory, { handler: (ctx, { query }) => categories.getAllCategory(ctx, query) });
  r.handle(calls.getCategoryBySiteId, { handler: (ctx, { query }) => categories.getCategoryBySiteId(ctx, query) });
  r.handle(calls.getAttributes, { handler: (ctx, { query }) => categories.getAttributes(ctx, query) });
  r.handle(calls.ackCategory, { handler: (ctx, { query }) => categories.startChinese(ctx, "categories", sitesOf(query.site)) });
  r.handle(calls.ackAttr, { handler: (ctx, { query }) => categories.startChinese(ctx, "attributes", sitesOf(query.site)) });
  r.handle(calls.updateMeliAttrOne, { handler: (ctx, { query }) => categories.updateMeliAttrOne(ctx, query) });
  r.handle(calls.updateAllCateFee, {
    handler: (ctx, { query }) => categories.startSync(ctx, [query.site as MeliSiteNumber], ["fees"]),
  });
  r.handle(calls.updateAllMeliAttr, {
    handler: (ctx, { query }) => categories.startSync(ctx, [query.site as MeliSiteNumber], ["attributes"]),
  });
  r.handle(calls.updateRefer, { handler: (ctx, { query }) => categories.updateRefer(ctx, query) });
  r.handle(calls.updateAllCategory, {
    handler: (ctx, { body }) => {
      const sites = body.sites?.length ? ([...new Set(body.sites)].sort() as MeliSiteNumber[]) : ALL_SITES;
      const parts: SyncPart[] = ["tree"];
      if (body.withAttributes !== false) parts.push("attributes");
      if (body.withFees !== false) parts.push("fees");
      return categories.startSync(ctx, sites, parts);
    },
  });
  r.handle(calls.updateAllCategoryStatus, {
    handler: (ctx, { query, body }) => categories.updateAllCategoryStatus(ctx, query.site, body),
  });
  r.handle(calls.getCategorySyncStatus, { handler: (ctx) => categories.getCategorySyncStatus(ctx) });
  r.handle(calls.getCategoriesByPage, { handler: (ctx, { query }) => categories.getCategoriesByPage(ctx, query) });
  r.handle(calls.predictMeliCategory, { handler: (ctx, { body }) => categories.predictMeliCategory(ctx, body) });
}
