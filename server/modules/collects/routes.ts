// Collection centre calls (spec §7 Collect and AquiredUrl, names as the spec spells them), plus the collection task
// list and re-run that the /collects/task screen needs (additions, docs/decisions.md).
import { z } from "zod";
import type { Registrar } from "../../http/calls.ts";
import { id, pagedResult } from "#shared/contract/common.ts";
import {
  aquiredUrl,
  aquiredUrlFilter,
  aquiredUrlStatics,
  collectRequest,
  collectTask,
  crawlProductByToolResult,
  createUrlsInput,
  deleteUrlsInput,
  getAquiredUrlsInput,
  getCollectTasksQuery,
  getUrlSataticsInput,
  IMPORT_MAX_BYTES,
  importResult,
  importUrlsQuery,
  reCrawlTasksInput,
  reCrwalUrlsInput,
  setUrlSortInput,
  setUrlSortQuery,
  urlSataticsRow,
  batchUpdateCollectStatusInput,
  collectConfig,
  collectDetail,
  collectedProductInput,
  collectPage,
  countResult,
  crawlProductByPluginResult,
  getCollectInput,
  getCrawledSkusInput,
  idBody,
  idsBody,
  infringementRuleSetting,
  migrateToProductInput,
  migrateToProductResult,
  screeningResult,
  updateCollectConfigInput,
  updateCollectInput,
  updateInfringementRuleSettingInput,
} from "#shared/contract/collect.ts";
import type { CollectService } from "./service.ts";

export function registerCollects(r: Registrar, { collects }: { collects: CollectService }) {
  const group = "Collect";
  r.call({
    group,
    name: "CrawlProductByPlugin",
    method: "POST",
    access: "user",
    summary: "Stores the product the extension extracted; the same source item from the same user updates its collection",
    body: collectedProductInput,
    result: crawlProductByPluginResult,
    handler: (ctx, { body }) => collects.crawlProductByPlugin(ctx, body),
  });
  r.call({
    group,
    name: "GetCollect",
    method: "POST",
    access: "user",
    summary: "Collected products: the tenant's for a main account, its own for a sub-account; newest first",
    body: getCollectInput,
    result: collectPage,
    handler: (ctx, { body }) => collects.getCollect(ctx, body),
  });
  r.call({
    group,
    name: "GetCollectById",
    method: "GET",
    access: "user",
    query: z.object({ id }),
    result: collectDetail,
    handler: (ctx, { query }) => collects.getCollectById(ctx, query.id),
  });
  r.call({
    group,
    name: "UpdateCollect",
    method: "POST",
    access: "user",
    body: updateCollectInput,
    result: collectDetail,
    handler: (ctx, { body }) => collects.updateCollect(ctx, body),
  });
  r.call({
    group,
    name: "DeleteCollect",
    method: "POST",
    access: "user",
    body: idBody,
    handler: (ctx, { body }) => collects.deleteCollect(ctx, body.id),
  });
  r.call({
    group,
    name: "BatchDeleteCollects",
    method: "POST",
    access: "user",
    idempotent: true,
    bulk: true,
    body: idsBody,
    result: countResult,
    handler: (ctx, { body }) => collects.batchDeleteCollects(ctx, body.ids),
  });
  r.call({
    group,
    name: "BatchUpdateCollectStatus",
    method: "POST",
    access: "user",
    idempotent: true,
    bulk: true,
    body: batchUpdateCollectStatusInput,
    result: countResult,
    handler: (ctx, { body }) => collects.batchUpdateCollectStatus(ctx, body),
  });
  r.call({
    group,
    name: "GetCrawledSkus",
    method: "POST",
    access: "user",
    summary: "Which of the given source item ids the caller has already collected",
    body: getCrawledSkusInput,
    result: z.array(z.string()),
    handler: (ctx, { body }) => collects.getCrawledSkus(ctx, body),
  });
  r.call({
    group,
    name: "MigratToProduct",
    method: "POST",
    access: "user",
    idempotent: true,
    bulk: true,
    summary: "Creates a product from each collection (not again from one already moved)",
    body: migrateToProductInput,
    result: migrateToProductResult,
    handler: (ctx, { body }) => collects.migrateToProduct(ctx, body.ids),
  });
  r.call({
    group,
    name: "ScreeningforInfringement",
    method: "POST",
    access: "user",
    summary: "Checks the collections' titles against the tenant's infringement words and flags them",
    body: idsBody,
    result: screeningResult,
    handler: (ctx, { body }) => collects.screeningforInfringement(ctx, body.ids),
  });
  r.call({
    group,
    name: "GetCollectConfig",
    method: "GET",
    access: "user",
    result: collectConfig,
    handler: (ctx) => collects.getCollectConfig(ctx),
  });
  r.call({
    group,
    name: "UpdateCollcetConfig",
    method: "POST",
    access: "main",
    body: updateCollectConfigInput,
    result: collectConfig,
    handler: (ctx, { body }) => collects.updateCollectConfig(ctx, body),
  });
  r.call({
    group: "InfringementWord",
    name: "GetInfringementRuleSetting",
    method: "GET",
    access: "user",
    result: infringementRuleSetting,
    handler: (ctx) => collects.getInfringementRuleSetting(ctx),
  });
  r.call({
    group: "InfringementWord",
    name: "UpdateInfringementRuleSetting",
    method: "POST",
    access: "main",
    body: updateInfringementRuleSettingInput,
    result: infringementRuleSetting,
    handler: (ctx, { body }) => collects.updateInfringementRuleSetting(ctx, body),
  });
  r.call({
    group: "Collect",
    name: "CrawlProductByTool",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Creates a collection task per URL (duplicates ignored) and queues the crawl; platformType may be left out",
    body: collectRequest,
    result: crawlProductByToolResult,
    handler: (ctx, { body }) => collects.crawlProductByTool(ctx, body),
  });
  r.call({
    group: "Collect",
    name: "GetCollectTasks",
    method: "GET",
    access: "user",
    summary: "Collection tasks (/collects/task): the tenant's for a main account, its own for a sub-account; newest first",
    query: getCollectTasksQuery,
    result: pagedResult(collectTask),
    handler: (ctx, { query }) => collects.getCollectTasks(ctx, query),
  });
  r.call({
    group: "Collect",
    name: "ReCrawlTasks",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Runs finished collection tasks again",
    body: reCrawlTasksInput,
    result: countResult,
    handler: (ctx, { body }) => collects.reCrawlTasks(ctx, body.ids),
  });
  r.call({
    group: "AquiredUrl",
    name: "GetList",
    method: "POST",
    access: "user",
    body: getAquiredUrlsInput,
    result: pagedResult(aquiredUrl),
    handler: (ctx, { body }) => collects.getList(ctx, body),
  });
  r.call({
    group: "AquiredUrl",
    name: "GetStatics",
    method: "POST",
    access: "user",
    summary: "URLs by status, with the list's filter",
    body: aquiredUrlFilter,
    result: aquiredUrlStatics,
    handler: (ctx, { body }) => collects.getStatics(ctx, body),
  });
  r.call({
    group: "AquiredUrl",
    name: "GetUrlSatatics",
    method: "POST",
    access: "user",
    summary: "URLs per UTC day of their creation: total, succeeded, failed",
    body: getUrlSataticsInput,
    result: urlSataticsRow.array(),
    handler: (ctx, { body }) => collects.getUrlSatatics(ctx, body),
  });
  r.call({
    group: "AquiredUrl",
    name: "CreateUrls",
    method: "POST",
    access: "user",
    idempotent: true,
    body: createUrlsInput,
    result: importResult,
    handler: (ctx, { body }) => collects.createUrls(ctx, body),
  });
  r.call({
    group: "AquiredUrl",
    name: "ReCrwalUrls",
    method: "POST",
    access: "user",
    idempotent: true,
    body: reCrwalUrlsInput,
    result: countResult,
    handler: (ctx, { body }) => collects.reCrwalUrls(ctx, body.ids),
  });
  r.call({
    group: "AquiredUrl",
    name: "ImportUrls",
    method: "POST",
    access: "user",
    summary: "Imports URLs from an uploaded xlsx, csv or txt file (multipart field file), read by content",
    query: importUrlsQuery,
    multipart: { fileSizeBytes: IMPORT_MAX_BYTES },
    result: importResult,
    handler: (ctx, { query }) => collects.importUrls(ctx, query),
  });
  r.call({
    group: "AquiredUrl",
    name: "Delete",
    method: "DELETE",
    access: "user",
    body: deleteUrlsInput,
    result: countResult,
    handler: (ctx, { body }) => collects.deleteUrls(ctx, body.ids),
  });
  r.call({
    group: "AquiredUrl",
    name: "SetUrlSort",
    method: "PUT",
    access: "user",
    summary: "Sets the queue order (higher first) of the given URLs",
    query: setUrlSortQuery,
    body: setUrlSortInput,
    result: countResult,
    handler: (ctx, { query, body }) => collects.setUrlSort(ctx, query.tenantId, body),
  });
}
