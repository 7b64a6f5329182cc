// Mercado Libre categories (spec §7 MeliCategory) and the category prediction (Product PredictMeliCategory). Methods
// and names as the spec lists them (several writes are GETs there). Reads: any logged-in user. Writes and jobs: the host
// only (platform data). The tree is fetched with the version the caller holds, so an unchanged tree comes back without
// its nodes.
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
import { call } from "./define.ts";

const group = "MeliCategory";

export const meliCategoryCalls = {
  /** The site's picker tree; with `version` still current the answer is notModified and carries no tree. */
  getAllCategory: call({
    group,
    name: "GetAllCategory",
    method: "GET",
    access: "user",
    summary: "The site's category tree for the picker (enabled categories; leaves selectable), with its version as ETag",
    query: getAllCategoryQuery,
    result: categoryTreeAnswer,
  }),
  /** The category fetch by site id: children of parentId, or the roots. */
  getCategoryBySiteId: call({
    group,
    name: "GetCategoryBySiteId",
    method: "GET",
    access: "user",
    summary: "The category fetch by site id: the children of parentId (the roots without it) with every field",
    query: getCategoryBySiteIdQuery,
    result: z.array(meliCategory),
  }),
  getAttributes: call({
    group,
    name: "GetAttributes",
    method: "GET",
    access: "user",
    summary: "A category's attributes (read from Mercado Libre now for a leaf never read before)",
    query: getAttributesQuery,
    result: categoryAttributes,
  }),
  /** Host: Chinese names for categories (a job). */
  ackCategory: call({
    group,
    name: "AckCategory",
    method: "GET",
    access: "host",
    summary: "Gives categories of the site (all sites without one) a Chinese name through the translation service (job)",
    query: optionalSiteQuery,
    result: categoryTaskResult,
  }),
  /** Host: Chinese names for attributes and values (a job). */
  ackAttr: call({
    group,
    name: "AckAttr",
    method: "GET",
    access: "host",
    summary: "Gives category attributes and their values a Chinese name through the translation service (job)",
    query: optionalSiteQuery,
    result: categoryTaskResult,
  }),
  updateMeliAttrOne: call({
    group,
    name: "UpdateMeliAttrOne",
    method: "GET",
    access: "host",
    summary: "Reads one category's attributes from Mercado Libre again, now",
    query: updateMeliAttrOneQuery,
    result: categoryAttributes,
  }),
  updateAllCateFee: call({
    group,
    name: "UpdateAllCateFee",
    method: "GET",
    access: "host",
    summary: "Reads the classic and premium sale fees of every leaf of the site (job)",
    query: siteQuery,
    result: categoryTaskResult,
  }),
  updateAllMeliAttr: call({
    group,
    name: "UpdateAllMeliAttr",
    method: "PUT",
    access: "host",
    summary: "Reads the attributes of every leaf of the site (job)",
    query: siteQuery,
    result: categoryTaskResult,
  }),
  updateRefer: call({
    group,
    name: "UpdateRefer",
    method: "PUT",
    access: "host",
    summary: "Sets a category's reference name for sellers (alias; blank clears it)",
    query: updateReferQuery,
    result: meliCategory,
  }),
  /** Host: the category sync (trees, attributes, fees) as a job with a task record. */
  updateAllCategory: call({
    group,
    name: "UpdateAllCategory",
    method: "POST",
    access: "host",
    summary: "Syncs the category trees (default all sites) with attributes and fees from Mercado Libre (job with progress)",
    body: updateAllCategoryInput,
    result: categoryTaskResult,
  }),
  updateAllCategoryStatus: call({
    group,
    name: "UpdateAllCategoryStatus",
    method: "POST",
    access: "host",
    summary: "Enables or disables categories (with their subtrees) of the site for the picker, or all of them with an explicit all: true",
    query: siteQuery,
    body: updateAllCategoryStatusInput,
    result: categoryStatusResult,
  }),
  /** Host: per site the tree version, counts and sync times (the category sync screen). */
  getCategorySyncStatus: call({
    group,
    name: "GetCategorySyncStatus",
    method: "GET",
    access: "host",
    summary: "The host's sync screen: per site the tree version, counts of categories, attributes, fees and Chinese names, sync times",
    result: z.array(categorySiteStatus),
  }),
  /** Host: a searched page of the site's categories (the category sync screen). */
  getCategoriesByPage: call({
    group,
    name: "GetCategoriesByPage",
    method: "GET",
    access: "host",
    summary: "The host's sync screen: a page of the site's categories (disabled ones too), searched in names, Chinese names, refer and id",
    query: getCategoriesByPageQuery,
    result: categoryPage,
  }),
  /** Mercado Libre's predicted categories for a title or a product. */
  predictMeliCategory: call({
    group: "Product",
    name: "PredictMeliCategory",
    method: "POST",
    access: "user",
    summary: "Mercado Libre's predicted categories for a title or a product's title, joined with the synced tree",
    body: predictMeliCategoryInput,
    result: predictMeliCategoryResult,
  }),
};
