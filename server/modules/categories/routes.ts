// The category calls (spec §7 MeliCategory, and Product PredictMeliCategory). Methods and names as the spec lists them
// (several writes are GETs there). Reads: any logged-in user. Writes and jobs: the host only (platform data).
import { z } from "zod";
import type { Registrar } from "../../http/calls.ts";
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
} from "#shared/contract/category.ts";
import type { MeliSiteNumber } from "#shared/contract/meli.ts";
import type { CategoryService } from "./service.ts";
import type { SyncPart } from "./sync.ts";

const ALL_SITES: MeliSiteNumber[] = [1, 2, 3, 4, 5];
const sitesOf = (site: number | undefined): MeliSiteNumber[] => (site ? [site as MeliSiteNumber] : ALL_SITES);

export function registerCategories(r: Registrar, { categories }: { categories: CategoryService }) {
  const group = "MeliCategory";

  r.call({
    group,
    name: "GetAllCategory",
    method: "GET",
    access: "user",
    summary: "The site's category tree for the picker (enabled categories; leaves selectable), with its version as ETag",
    query: getAllCategoryQuery,
    result: categoryTreeAnswer,
    handler: (ctx, { query }) => categories.getAllCategory(ctx, query),
  });
  r.call({
    group,
    name: "GetCategoryBySiteId",
    method: "GET",
    access: "user",
    summary: "The category fetch by site id: the children of parentId (the roots without it) with every field",
    query: getCategoryBySiteIdQuery,
    result: z.array(meliCategory),
    handler: (ctx, { query }) => categories.getCategoryBySiteId(ctx, query),
  });
  r.call({
    group,
    name: "GetAttributes",
    method: "GET",
    access: "user",
    summary: "A category's attributes (read from Mercado Libre now for a leaf never read before)",
    query: getAttributesQuery,
    result: categoryAttributes,
    handler: (ctx, { query }) => categories.getAttributes(ctx, query),
  });
  r.call({
    group,
    name: "AckCategory",
    method: "GET",
    access: "host",
    summary: "Gives categories of the site (all sites without one) a Chinese name through the translation service (job)",
    query: optionalSiteQuery,
    result: categoryTaskResult,
    handler: (ctx, { query }) => categories.startChinese(ctx, "categories", sitesOf(query.site)),
  });
  r.call({
    group,
    name: "AckAttr",
    method: "GET",
    access: "host",
    summary: "Gives category attributes and their values a Chinese name through the translation service (job)",
    query: optionalSiteQuery,
    result: categoryTaskResult,
    handler: (ctx, { query }) => categories.startChinese(ctx, "attributes", sitesOf(query.site)),
  });
  r.call({
    group,
    name: "UpdateMeliAttrOne",
    method: "GET",
    access: "host",
    summary: "Reads one category's attributes from Mercado Libre again, now",
    query: updateMeliAttrOneQuery,
    result: categoryAttributes,
    handler: (ctx, { query }) => categories.updateMeliAttrOne(ctx, query),
  });
  r.call({
    group,
    name: "UpdateAllCateFee",
    method: "GET",
    access: "host",
    summary: "Reads the classic and premium sale fees of every leaf of the site (job)",
    query: siteQuery,
    result: categoryTaskResult,
    handler: (ctx, { query }) => categories.startSync(ctx, [query.site as MeliSiteNumber], ["fees"]),
  });
  r.call({
    group,
    name: "UpdateAllMeliAttr",
    method: "PUT",
    access: "host",
    summary: "Reads the attributes of every leaf of the site (job)",
    query: siteQuery,
    result: categoryTaskResult,
    handler: (ctx, { query }) => categories.startSync(ctx, [query.site as MeliSiteNumber], ["attributes"]),
  });
  r.call({
    group,
    name: "UpdateRefer",
    method: "PUT",
    access: "host",
    summary: "Sets a category's reference name for sellers (alias; blank clears it)",
    query: updateReferQuery,
    result: meliCategory,
    handler: (ctx, { query }) => categories.updateRefer(ctx, query),
  });
  r.call({
    group,
    name: "UpdateAllCategory",
    method: "POST",
    access: "host",
    summary: "Syncs the category trees (default all sites) with attributes and fees from Mercado Libre (job with progress)",
    body: updateAllCategoryInput,
    result: categoryTaskResult,
    handler: (ctx, { body }) => {
      const sites = body.sites?.length ? ([...new Set(body.sites)].sort() as MeliSiteNumber[]) : ALL_SITES;
      const parts: SyncPart[] = ["tree"];
      if (body.withAttributes !== false) parts.push("attributes");
      if (body.withFees !== false) parts.push("fees");
      return categories.startSync(ctx, sites, parts);
    },
  });
  r.call({
    group,
    name: "UpdateAllCategoryStatus",
    method: "POST",
    access: "host",
    summary: "Enables or disables categories (with their subtrees) of the site for the picker, or all of them with an explicit all: true",
    query: siteQuery,
    body: updateAllCategoryStatusInput,
    result: categoryStatusResult,
    handler: (ctx, { query, body }) => categories.updateAllCategoryStatus(ctx, query.site, body),
  });
  r.call({
    group,
    name: "GetCategorySyncStatus",
    method: "GET",
    access: "host",
    summary: "The host's sync screen: per site the tree version, counts of categories, attributes, fees and Chinese names, sync times",
    result: z.array(categorySiteStatus),
    handler: (ctx) => categories.getCategorySyncStatus(ctx),
  });
  r.call({
    group,
    name: "GetCategoriesByPage",
    method: "GET",
    access: "host",
    summary: "The host's sync screen: a page of the site's categories (disabled ones too), searched in names, Chinese names, refer and id",
    query: getCategoriesByPageQuery,
    result: categoryPage,
    handler: (ctx, { query }) => categories.getCategoriesByPage(ctx, query),
  });

  r.call({
    group: "Product",
    name: "PredictMeliCategory",
    method: "POST",
    access: "user",
    summary: "Mercado Libre's predicted categories for a title or a product's title, joined with the synced tree",
    body: predictMeliCategoryInput,
    result: predictMeliCategoryResult,
    handler: (ctx, { body }) => categories.predictMeliCategory(ctx, body),
  });
}
