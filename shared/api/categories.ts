// Mercado Libre categories (spec §7 MeliCategory) and the category prediction (Product PredictMeliCategory). The tree
// is fetched with the version the caller holds, so an unchanged tree comes back without its nodes.
import { z } from "zod";
import {
  categoryAttributes,
  categoryPage,
  categorySiteStatus,
  categoryStatusResult,
  categoryTaskResult,
  categoryTreeAnswer,
  getAllCategoryQuery,
  getAttributesQuery,
  getCategoriesByPageQuery,
  getCategoryBySiteIdQuery,
  meliCategory,
  optionalSiteQuery,
  predictMeliCategoryInput,
  predictMeliCategoryResult,
  siteQuery,
  updateAllCategoryInput,
  updateAllCategoryStatusInput,
  updateMeliAttrOneQuery,
  updateReferQuery,
} from "../contract/category.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const meliCategoryCalls = {
  /** The site's picker tree; with `version` still current the answer is notModified and carries no tree. */
  getAllCategory: call({ method: "GET", path: "/api/MeliCategory/GetAllCategory", query: getAllCategoryQuery, result: categoryTreeAnswer }),
  /** The category fetch by site id: children of parentId, or the roots. */
  getCategoryBySiteId: call({
    method: "GET",
    path: "/api/MeliCategory/GetCategoryBySiteId",
    query: getCategoryBySiteIdQuery,
    result: z.array(meliCategory),
  }),
  getAttributes: call({ method: "GET", path: "/api/MeliCategory/GetAttributes", query: getAttributesQuery, result: categoryAttributes }),
  /** Host: Chinese names for categories (a job). */
  ackCategory: call({ method: "GET", path: "/api/MeliCategory/AckCategory", query: optionalSiteQuery, result: categoryTaskResult }),
  /** Host: Chinese names for attributes and values (a job). */
  ackAttr: call({ method: "GET", path: "/api/MeliCategory/AckAttr", query: optionalSiteQuery, result: categoryTaskResult }),
  updateMeliAttrOne: call({
    method: "GET",
    path: "/api/MeliCategory/UpdateMeliAttrOne",
    query: updateMeliAttrOneQuery,
    result: categoryAttributes,
  }),
  updateAllCateFee: call({ method: "GET", path: "/api/MeliCategory/UpdateAllCateFee", query: siteQuery, result: categoryTaskResult }),
  updateAllMeliAttr: call({ method: "PUT", path: "/api/MeliCategory/UpdateAllMeliAttr", query: siteQuery, result: categoryTaskResult }),
  updateRefer: call({ method: "PUT", path: "/api/MeliCategory/UpdateRefer", query: updateReferQuery, result: meliCategory }),
  /** Host: the category sync (trees, attributes, fees) as a job with a task record. */
  updateAllCategory: call({
    method: "POST",
    path: "/api/MeliCategory/UpdateAllCategory",
    body: updateAllCategoryInput,
    result: categoryTaskResult,
  }),
  updateAllCategoryStatus: call({
    method: "POST",
    path: "/api/MeliCategory/UpdateAllCategoryStatus",
    query: siteQuery,
    body: updateAllCategoryStatusInput,
    result: categoryStatusResult,
  }),
  /** Host: per site the tree version, counts and sync times (the category sync screen). */
  getCategorySyncStatus: call({ method: "GET", path: "/api/MeliCategory/GetCategorySyncStatus", result: z.array(categorySiteStatus) }),
  /** Host: a searched page of the site's categories (the category sync screen). */
  getCategoriesByPage: call({
    method: "GET",
    path: "/api/MeliCategory/GetCategoriesByPage",
    query: getCategoriesByPageQuery,
    result: categoryPage,
  }),
  /** Mercado Libre's predicted categories for a title or a product. */
  predictMeliCategory: call({
    method: "POST",
    path: "/api/Product/PredictMeliCategory",
    body: predictMeliCategoryInput,
    result: predictMeliCategoryResult,
  }),
};

export const createMeliCategoryApi = (client: ApiClient) => bindCalls(client, meliCategoryCalls);
export type MeliCategoryApi = ReturnType<typeof createMeliCategoryApi>;
