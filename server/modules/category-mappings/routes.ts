// Category mapping calls, declared in shared/api/category-mappings.ts (类目映射, issue 28).
import type { Registrar } from "../../http/calls.ts";
import { categoryMappingCalls as calls } from "#shared/api/category-mappings.ts";
import type { CategoryMappingService } from "./service.ts";

export function registerCategoryMappings(r: Registrar, { categoryMappings }: { categoryMappings: CategoryMappingService }) {
  r.handle(calls.getCategoryMappings, { handler: (ctx, { query }) => categoryMappings.getCategoryMappings(ctx, query) });
  r.handle(calls.updateCategoryMapping, { handler: (ctx, { body }) => categoryMappings.updateCategoryMapping(ctx, body) });
  r.handle(calls.deleteCategoryMapping, { handler: (ctx, { query }) => categoryMappings.deleteCategoryMapping(ctx, query.id) });
  r.handle(calls.getSuggestedCategory, { handler: (ctx, { query }) => categoryMappings.getSuggestedCategory(ctx, query) });
}
