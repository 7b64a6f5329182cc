// Category mapping (类目映射, issue 28): the Mercado Libre category a seller picked for a product of a source category
// (the 1688/Taobao/AliExpress category collected with it), per site. Remembered when a product with a source category
// is saved or published with a category, suggested first for the next product of that source category (the editor,
// the publish screen and the side panel ask the same call), listed and edited on the 类目映射 screen.
import { z } from "zod";
import { id, pagedQuery, queryInt } from "./common.ts";
import { cateIdParam, siteParam } from "./category.ts";
import { siteNumber } from "./meli.ts";

/** A product's source category as collected: the platform's category id, and its path where the page names it. */
export type SourceCategory = { id?: string; path?: string };

/** The mapping key of a source category: its id, else its path; null when the product has neither. */
export function sourceKeyOf(c: SourceCategory | null | undefined): string | null {
  return c?.id?.trim() || c?.path?.trim() || null;
}

export const categoryMapping = z.object({
  id: z.string(),
  /** The source platform (PlatformType). */
  platformType: z.number().int(),
  /** The source category's id (or its path when the page gave no id). */
  sourceKey: z.string(),
  sourcePath: z.string().nullable(),
  site: siteNumber,
  cateId: z.string(),
  /** The category's full name on the site, and its Chinese path where known. */
  categoryName: z.string(),
  fullZh: z.string().nullable(),
  /** How many times a seller chose this category for this source category. */
  useCount: z.number().int(),
  lastModificationTime: z.string(),
});
export type CategoryMapping = z.infer<typeof categoryMapping>;

export const getCategoryMappingsQuery = pagedQuery(["lastModificationTime", "useCount", "site", "platformType"]).extend({
  Site: queryInt(1, 5).optional(),
  PlatformType: queryInt(1, 99).optional(),
  /** Searched in the source category, the category's name and id. */
  Filter: z.string().trim().max(200).optional(),
});
export const categoryMappingPage = z.object({ items: z.array(categoryMapping), totalCount: z.number().int() });
export type CategoryMappingPage = z.infer<typeof categoryMappingPage>;

export const updateCategoryMappingInput = z.object({ id, cateId: cateIdParam });
export const deleteCategoryMappingQuery = z.object({ id });
export const deleteCategoryMappingResult = z.object({ count: z.number().int() });

export const getSuggestedCategoryQuery = z.object({ site: siteParam, productId: id });
/** The mapping for the product's source category on the site; null without one (or without a source category). */
export const suggestedCategory = categoryMapping.nullable();
