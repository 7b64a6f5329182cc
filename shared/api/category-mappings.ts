// Category mapping calls (类目映射, issue 28).
import {
  categoryMapping,
  categoryMappingPage,
  deleteCategoryMappingQuery,
  deleteCategoryMappingResult,
  getCategoryMappingsQuery,
  getSuggestedCategoryQuery,
  suggestedCategory,
  updateCategoryMappingInput,
} from "../contract/category-mapping.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const categoryMappingCalls = {
  getCategoryMappings: call({
    method: "GET",
    path: "/api/CategoryMapping/GetCategoryMappings",
    query: getCategoryMappingsQuery,
    result: categoryMappingPage,
  }),
  updateCategoryMapping: call({
    method: "PUT",
    path: "/api/CategoryMapping/UpdateCategoryMapping",
    body: updateCategoryMappingInput,
    result: categoryMapping,
  }),
  deleteCategoryMapping: call({
    method: "DELETE",
    path: "/api/CategoryMapping/DeleteCategoryMapping",
    query: deleteCategoryMappingQuery,
    result: deleteCategoryMappingResult,
  }),
  getSuggestedCategory: call({
    method: "GET",
    path: "/api/CategoryMapping/GetSuggestedCategory",
    query: getSuggestedCategoryQuery,
    result: suggestedCategory,
  }),
};

export const createCategoryMappingApi = (client: ApiClient) => bindCalls(client, categoryMappingCalls);
export type CategoryMappingApi = ReturnType<typeof createCategoryMappingApi>;
