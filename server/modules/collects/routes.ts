// Collection centre calls (spec §7 Collect and AquiredUrl, names as the spec spells them), plus the collection task
// list and re-run that the /collects/task screen needs (additions, docs/decisions.md).
import { z } from "zod";
import type { AppDeps } from "../../app.ts";
import type { Registrar } from "../../http/calls.ts";
import { id, pagedResult } from "../../../shared/contract/common.ts";
import {
  batchUpdateCollectStatusInput,
  collectConfig,
  collectDetail,
  collectedProductInput,
  collectListItem,
  countResult,
  crawlProductByPluginResult,
  getCollectInput,
  getCrawledSkusInput,
  idBody,
  idsBody,
  infringementRuleSetting,
  migratToProductInput,
  migratToProductResult,
  screeningResult,
  updateCollectConfigInput,
  updateCollectInput,
  updateInfringementRuleSettingInput,
} from "../../../shared/contract/collect.ts";
import { registerCollectCleanup } from "./extensions.ts";
import * as service from "./service.ts";
import { registerCrawler } from "./crawler.ts";
import { registerUrlQueue } from "./urls.ts";

export function registerCollects(r: Registrar, deps: AppDeps) {
  const group = "Collect";
  r.call({
    group,
    name: "CrawlProductByPlugin",
    method: "POST",
    access: "user",
    summary: "Stores the product the extension extracted; the same source item from the same user updates its collection",
    body: collectedProductInput,
    result: crawlProductByPluginResult,
    handler: (ctx, { body }) => service.crawlProductByPlugin(ctx, body),
  });
  r.call({
    group,
    name: "GetCollect",
    method: "POST",
    access: "user",
    summary: "Collected products: the tenant's for a main account, its own for a sub-account; newest first",
    body: getCollectInput,
    result: pagedResult(collectListItem),
    handler: (ctx, { body }) => service.getCollect(ctx, body),
  });
  r.call({
    group,
    name: "GetCollectById",
    method: "GET",
    access: "user",
    query: z.object({ id }),
    result: collectDetail,
    handler: (ctx, { query }) => service.getCollectById(ctx, query.id),
  });
  r.call({
    group,
    name: "UpdateCollect",
    method: "POST",
    access: "user",
    body: updateCollectInput,
    result: collectDetail,
    handler: (ctx, { body }) => service.updateCollect(ctx, body),
  });
  r.call({
    group,
    name: "DeleteCollect",
    method: "POST",
    access: "user",
    body: idBody,
    handler: (ctx, { body }) => service.deleteCollect(ctx, body.id),
  });
  r.call({
    group,
    name: "BatchDeleteCollects",
    method: "POST",
    access: "user",
    body: idsBody,
    result: countResult,
    handler: (ctx, { body }) => service.batchDeleteCollects(ctx, body.ids),
  });
  r.call({
    group,
    name: "BatchUpdateCollectStatus",
    method: "POST",
    access: "user",
    body: batchUpdateCollectStatusInput,
    result: countResult,
    handler: (ctx, { body }) => service.batchUpdateCollectStatus(ctx, body),
  });
  r.call({
    group,
    name: "GetCrawledSkus",
    method: "POST",
    access: "user",
    summary: "Which of the given source item ids the caller has already collected",
    body: getCrawledSkusInput,
    result: z.array(z.string()),
    handler: (ctx, { body }) => service.getCrawledSkus(ctx, body),
  });
  r.call({
    group,
    name: "MigratToProduct",
    method: "POST",
    access: "user",
    summary: "Creates a product from each collection (not again from one already moved)",
    body: migratToProductInput,
    result: migratToProductResult,
    handler: (ctx, { body }) => service.migratToProduct(ctx, body.ids),
  });
  r.call({
    group,
    name: "ScreeningforInfringement",
    method: "POST",
    access: "user",
    summary: "Checks the collections' titles against the tenant's infringement words and flags them",
    body: idsBody,
    result: screeningResult,
    handler: (ctx, { body }) => service.screeningforInfringement(ctx, body.ids),
  });
  r.call({
    group,
    name: "GetCollectConfig",
    method: "GET",
    access: "user",
    result: collectConfig,
    handler: (ctx) => service.getCollectConfig(ctx),
  });
  r.call({
    group,
    name: "UpdateCollcetConfig",
    method: "POST",
    access: "main",
    body: updateCollectConfigInput,
    result: collectConfig,
    handler: (ctx, { body }) => service.updateCollectConfig(ctx, body),
  });
  r.call({
    group: "InfringementWord",
    name: "GetInfringementRuleSetting",
    method: "GET",
    access: "user",
    result: infringementRuleSetting,
    handler: (ctx) => service.getInfringementRuleSetting(ctx),
  });
  r.call({
    group: "InfringementWord",
    name: "UpdateInfringementRuleSetting",
    method: "POST",
    access: "main",
    body: updateInfringementRuleSettingInput,
    result: infringementRuleSetting,
    handler: (ctx, { body }) => service.updateInfringementRuleSetting(ctx, body),
  });
  registerCrawler(r, deps);
  registerUrlQueue(r, deps);
  registerCollectCleanup();
}
