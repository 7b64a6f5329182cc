// Collection centre calls (spec §7 Collect, AquiredUrl; the infringement rule setting; the collection task list).
import { z } from "zod";
import { id, pagedResult } from "../contract/common.ts";
import {
  aquiredUrl,
  aquiredUrlFilter,
  aquiredUrlStatics,
  batchUpdateCollectStatusInput,
  collectConfig,
  collectDetail,
  collectedProductInput,
  collectPage,
  collectRequest,
  collectTask,
  countResult,
  crawlProductByPluginResult,
  crawlProductByToolResult,
  createUrlsInput,
  deleteUrlsInput,
  getAquiredUrlsInput,
  getCollectInput,
  getCollectTasksQuery,
  getCrawledSkusInput,
  getUrlSataticsInput,
  idBody,
  idsBody,
  importResult,
  importUrlsQuery,
  infringementRuleSetting,
  migrateToProductInput,
  migrateToProductResult,
  reCrawlTasksInput,
  reCrwalUrlsInput,
  screeningResult,
  setUrlSortInput,
  setUrlSortQuery,
  updateCollectConfigInput,
  updateCollectInput,
  updateInfringementRuleSettingInput,
  urlSataticsRow,
} from "../contract/collect.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

/** A multipart upload: a FormData with the file under "file". */
const upload = z.custom<FormData>((v) => typeof FormData !== "undefined" && v instanceof FormData, "must be FormData");

export const collectCalls = {
  crawlProductByPlugin: call({
    method: "POST",
    path: "/api/Collect/CrawlProductByPlugin",
    body: collectedProductInput,
    result: crawlProductByPluginResult,
  }),
  crawlProductByTool: call({
    method: "POST",
    path: "/api/Collect/CrawlProductByTool",
    idempotent: true,
    body: collectRequest,
    result: crawlProductByToolResult,
  }),
  getCollect: call({ method: "POST", path: "/api/Collect/GetCollect", body: getCollectInput, result: collectPage }),
  getCollectById: call({ method: "GET", path: "/api/Collect/GetCollectById", query: z.object({ id }), result: collectDetail }),
  updateCollect: call({ method: "POST", path: "/api/Collect/UpdateCollect", body: updateCollectInput, result: collectDetail }),
  deleteCollect: call({ method: "POST", path: "/api/Collect/DeleteCollect", body: idBody }),
  batchDeleteCollects: call({
    idempotent: true,
    method: "POST",
    path: "/api/Collect/BatchDeleteCollects",
    body: idsBody,
    result: countResult,
  }),
  batchUpdateCollectStatus: call({
    method: "POST",
    path: "/api/Collect/BatchUpdateCollectStatus",
    idempotent: true,
    body: batchUpdateCollectStatusInput,
    result: countResult,
  }),
  getCrawledSkus: call({ method: "POST", path: "/api/Collect/GetCrawledSkus", body: getCrawledSkusInput, result: z.array(z.string()) }),
  migrateToProduct: call({
    method: "POST",
    path: "/api/Collect/MigratToProduct",
    idempotent: true,
    body: migrateToProductInput,
    result: migrateToProductResult,
  }),
  screeningforInfringement: call({ method: "POST", path: "/api/Collect/ScreeningforInfringement", body: idsBody, result: screeningResult }),
  getCollectConfig: call({ method: "GET", path: "/api/Collect/GetCollectConfig", result: collectConfig }),
  updateCollcetConfig: call({
    method: "POST",
    path: "/api/Collect/UpdateCollcetConfig",
    body: updateCollectConfigInput,
    result: collectConfig,
  }),
  getCollectTasks: call({
    method: "GET",
    path: "/api/Collect/GetCollectTasks",
    query: getCollectTasksQuery,
    result: pagedResult(collectTask),
  }),
  reCrawlTasks: call({ idempotent: true, method: "POST", path: "/api/Collect/ReCrawlTasks", body: reCrawlTasksInput, result: countResult }),
  getInfringementRuleSetting: call({
    method: "GET",
    path: "/api/InfringementWord/GetInfringementRuleSetting",
    result: infringementRuleSetting,
  }),
  updateInfringementRuleSetting: call({
    method: "POST",
    path: "/api/InfringementWord/UpdateInfringementRuleSetting",
    body: updateInfringementRuleSettingInput,
    result: infringementRuleSetting,
  }),
};

export const aquiredUrlCalls = {
  getList: call({ method: "POST", path: "/api/AquiredUrl/GetList", body: getAquiredUrlsInput, result: pagedResult(aquiredUrl) }),
  getStatics: call({ method: "POST", path: "/api/AquiredUrl/GetStatics", body: aquiredUrlFilter, result: aquiredUrlStatics }),
  getUrlSatatics: call({
    method: "POST",
    path: "/api/AquiredUrl/GetUrlSatatics",
    body: getUrlSataticsInput,
    result: z.array(urlSataticsRow),
  }),
  createUrls: call({ idempotent: true, method: "POST", path: "/api/AquiredUrl/CreateUrls", body: createUrlsInput, result: importResult }),
  reCrwalUrls: call({ idempotent: true, method: "POST", path: "/api/AquiredUrl/ReCrwalUrls", body: reCrwalUrlsInput, result: countResult }),
  /** `form` carries the file under "file"; isDiscountPrice and platformType go in the query. */
  importUrls: call({ method: "POST", path: "/api/AquiredUrl/ImportUrls", query: importUrlsQuery, body: upload, result: importResult }),
  delete: call({ method: "DELETE", path: "/api/AquiredUrl/Delete", body: deleteUrlsInput, result: countResult }),
  setUrlSort: call({
    method: "PUT",
    path: "/api/AquiredUrl/SetUrlSort",
    query: setUrlSortQuery,
    body: setUrlSortInput,
    result: countResult,
  }),
};

export const createCollectApi = (client: ApiClient) => bindCalls(client, collectCalls);
export type CollectApi = ReturnType<typeof createCollectApi>;
export const createAquiredUrlApi = (client: ApiClient) => bindCalls(client, aquiredUrlCalls);
export type AquiredUrlApi = ReturnType<typeof createAquiredUrlApi>;
