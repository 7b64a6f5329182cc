// Category mapping calls (类目映射, issue 28; not in the spec): list, change, delete, and the suggestion for a product.
// Any logged-in user of the tenant; the mappings are the tenant's (a sub-account's picks teach the whole team).
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
import { call } from "./define.ts";

const group = "CategoryMapping";

export const categoryMappingCalls = {
  getCategoryMappings: call({
    group,
    name: "GetCategoryMappings",
    method: "GET",
    access: "user",
    summary: "The tenant's category mappings (source category → Mercado Libre category per site), searched and paged",
    query: getCategoryMappingsQuery,
    result: categoryMappingPage,
  }),
  updateCategoryMapping: call({
    group,
    name: "UpdateCategoryMapping",
    method: "PUT",
    access: "user",
    summary: "Points a mapping at another category of its site (a choosable leaf)",
    body: updateCategoryMappingInput,
    result: categoryMapping,
  }),
  deleteCategoryMapping: call({
    group,
    name: "DeleteCategoryMapping",
    method: "DELETE",
    access: "user",
    summary: "Deletes a mapping (the next pick for that source category makes a new one)",
    query: deleteCategoryMappingQuery,
    result: deleteCategoryMappingResult,
  }),
  getSuggestedCategory: call({
    group,
    name: "GetSuggestedCategory",
    method: "GET",
    access: "user",
    summary: "The category mapped to the product's source category on the site, suggested first (null without one)",
    query: getSuggestedCategoryQuery,
    result: suggestedCategory,
  }),
};
