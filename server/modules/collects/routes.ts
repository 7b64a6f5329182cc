// Collection centre calls (spec §7 Collect and AquiredUrl, names as the spec spells them), plus the collection task
// list and re-run that the /collects/task screen needs (additions, docs/decisions.md); declared in shared/api/collects.ts.
import type { Registrar } from "../../http/calls.ts";
import { aquiredUrlCalls as urls, collectCalls as calls } from "#shared/api/collects.ts";
import { IMPORT_MAX_BYTES } from "#shared/contract/collect.ts";
import type { CollectService } from "./service.ts";

export function registerCollects(r: Registrar, { collects }: { collects: CollectService }) {
  r.handle(calls.crawlProductByPlugin, { handler: (ctx, { body }) => collects.crawlProductByPlugin(ctx, body) });
  r.handle(calls.getCollect, { handler: (ctx, { body }) => collects.getCollect(ctx, body) });
  r.handle(calls.getCollectById, { handler: (ctx, { query }) => collects.getCollectById(ctx, query.id) });
  r.handle(calls.updateCollect, { handler: (ctx, { body }) => collects.updateCollect(ctx, body) });
  r.handle(calls.deleteCollect, { handler: (ctx, { body }) => collects.deleteCollect(ctx, body.id) });
  r.handle(calls.batchDeleteCollects, { bulk: true, handler: (ctx, { body }) => collects.batchDeleteCollects(ctx, body.ids) });
  r.handle(calls.batchUpdateCollectStatus, { bulk: true, handler: (ctx, { body }) => collects.batchUpdateCollectStatus(ctx, body) });
  r.handle(calls.getCrawledSkus, { handler: (ctx, { body }) => collects.getCrawledSkus(ctx, body) });
  r.handle(calls.migrateToProduct, { bulk: true, handler: (ctx, { body }) => collects.migrateToProduct(ctx, body.ids) });
  r.handle(calls.screeningforInfringement, { handler: (ctx, { body }) => collects.screeningforInfringement(ctx, body.ids) });
  r.handle(calls.getCollectConfig, { handler: (ctx) => collects.getCollectConfig(ctx) });
  r.handle(calls.updateCollcetConfig, { handler: (ctx, { body }) => collects.updateCollectConfig(ctx, body) });
  r.handle(calls.getInfringementRuleSetting, { handler: (ctx) => collects.getInfringementRuleSetting(ctx) });
  r.handle(calls.updateInfringementRuleSetting, { handler: (ctx, { body }) => collects.updateInfringementRuleSetting(ctx, body) });
  r.handle(calls.crawlProductByTool, { handler: (ctx, { body }) => collects.crawlProductByTool(ctx, body) });
  r.handle(calls.getCollectTasks, { handler: (ctx, { query }) => collects.getCollectTasks(ctx, query) });
  r.handle(calls.reCrawlTasks, { handler: (ctx, { body }) => collects.reCrawlTasks(ctx, body.ids) });

  r.handle(urls.getList, { handler: (ctx, { body }) => collects.getList(ctx, body) });
  r.handle(urls.getStatics, { handler: (ctx, { body }) => collects.getStatics(ctx, body) });
  r.handle(urls.getUrlSatatics, { handler: (ctx, { body }) => collects.getUrlSatatics(ctx, body) });
  r.handle(urls.createUrls, { handler: (ctx, { body }) => collects.createUrls(ctx, body) });
  r.handle(urls.reCrwalUrls, { handler: (ctx, { body }) => collects.reCrwalUrls(ctx, body.ids) });
  r.handle(urls.importUrls, {
    multipart: { fileSizeBytes: IMPORT_MAX_BYTES },
    handler: (ctx, { query }) => collects.importUrls(ctx, query),
  });
  r.handle(urls.delete, { handler: (ctx, { body }) => collects.deleteUrls(ctx, body.ids) });
  r.handle(urls.setUrlSort, { handler: (ctx, { query, body }) => collects.setUrlSort(ctx, query.tenantId, body) });
}
