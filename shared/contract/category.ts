// Mercado Libre categories (spec §3 Categories, §7 MeliCategory, Product PredictMeliCategory): the category, its
// attributes, the picker's tree and the sync calls. Categories are platform data: the host syncs them, every user reads.
import { z } from "zod";
import { id, pagedQuery, pagedResult, queryBool } from "./common.ts";
import { MELI_SITES, type MeliSiteNumber } from "./meli.ts";

/** What a site that is not one of 1-5 (or mx…cbt, MLM…CBT) is refused with (spec §8). */
export const INVALID_SITE_ID = "Invalid site ID";

const siteByCode = new Map<string, MeliSiteNumber>(
  Object.entries(MELI_SITES).flatMap(([n, s]) => [
    [s.code.toLowerCase(), Number(n) as MeliSiteNumber],
    [s.meli.toLowerCase(), Number(n) as MeliSiteNumber],
  ]),
);

/** Our site number for 1-5, a site code (mx) or Mercado Libre's site id (MLM); null for anything else. */
function parseSite(value: unknown): MeliSiteNumber | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 && value <= 5 ? (value as MeliSiteNumber) : null;
  if (typeof value !== "string") return null;
  const s = value.trim().toLowerCase();
  if (/^[1-5]$/.test(s)) return Number(s) as MeliSiteNumber;
  return siteByCode.get(s) ?? null;
}

/** A site in a query or body: 1-5, mx…cbt or MLM…CBT; anything else is "Invalid site ID". */
export const siteParam = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? undefined : (parseSite(v) ?? v)),
  z
    .number({ error: (issue) => (issue.input === undefined ? undefined : INVALID_SITE_ID) })
    .int(INVALID_SITE_ID)
    .min(1, INVALID_SITE_ID)
    .max(5, INVALID_SITE_ID),
);

/** A Mercado Libre category id (MLM1055, CBT1234): letters, digits, - and _; an unknown one is a 404. */
export const cateIdParam = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "类目ID格式不正确（如 MLM1055）");

// ---------------------------------------------------------------------------------------------------------------
// The category and its attributes.

/** How the seller meets an attribute (the spec's modelType). */
export const CategoryAttributeModelType = {
  /** Describes the product (brand, model, material): one value per listing. */
  Item: 1,
  /** Variations are made of it (Mercado Libre's allow_variations: colour, size). */
  Variation: 2,
  /** A value each variation carries (variation_attribute: SKU, GTIN). */
  VariationData: 3,
  /** Hidden or read-only: Mercado Libre fills it, the seller does not. */
  Hidden: 4,
} as const;
export type CategoryAttributeModelType = (typeof CategoryAttributeModelType)[keyof typeof CategoryAttributeModelType];

/** Spec §3 Marketplace category. Fees are sale fee percentages; meliStatus "removed" once Mercado Libre dropped it. */
export const meliCategory = z.object({
  id: z.string(),
  site: z.number().int(),
  cateId: z.string(),
  level: z.number().int(),
  name: z.string(),
  zh: z.string().nullable(),
  pId: z.string().nullable(),
  isLeaf: z.boolean(),
  fullZh: z.string().nullable(),
  fullName: z.string(),
  alias: z.string().nullable(),
  pathName: z.string(),
  classicFee: z.number().nullable(),
  premiumFee: z.number().nullable(),
  enable: z.boolean(),
  variantKeys: z.array(z.string()),
  domain: z.string().nullable(),
  listingAllowed: z.boolean(),
  meliStatus: z.string(),
  maxTitleLength: z.number().int().nullable(),
  maxPictures: z.number().int().nullable(),
  minimumPrice: z.number().nullable(),
  currency: z.string().nullable(),
  syncTime: z.string(),
});
export type MeliCategory = z.infer<typeof meliCategory>;

const attributeValue = z.object({ id: z.string(), name: z.string(), zh: z.string().nullable() });

/**
 * Spec §3 Category attribute. `alias` names the product field that fills it when publishing (brand, sku, gtin, size,
 * weight, condition), null when the seller fills it; Mercado Libre's own words (tags, value type, units) are kept.
 */
const categoryAttribute = z.object({
  id: z.string(),
  modelType: z.number().int(),
  isRequired: z.boolean(),
  name: z.string(),
  alias: z.string().nullable(),
  zh: z.string().nullable(),
  values: z.array(attributeValue),
  units: z.array(z.object({ id: z.string(), name: z.string() })),
  defaultUnit: z.string().nullable(),
  valueType: z.string(),
  valueMaxLength: z.number().int().nullable(),
  /** Mercado Libre's tags that are set: required, catalog_required, conditional_required, allow_variations, … */
  tags: z.array(z.string()),
  hierarchy: z.string().nullable(),
  relevance: z.number().int().nullable(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
});
export type CategoryAttribute = z.infer<typeof categoryAttribute>;

export const getAttributesQuery = z.object({ site: siteParam, cateId: cateIdParam });

/** GetAttributes / UpdateMeliAttrOne: the category and its attribute list (empty until a leaf's attributes are read). */
export const categoryAttributes = z.object({
  site: z.number().int(),
  cateId: z.string(),
  fullName: z.string(),
  isLeaf: z.boolean(),
  variantKeys: z.array(z.string()),
  syncTime: z.string().nullable(),
  attributes: z.array(categoryAttribute),
});
export type CategoryAttributes = z.infer<typeof categoryAttributes>;

// ---------------------------------------------------------------------------------------------------------------
// The picker's tree.

/**
 * A tree node (spec §3: id, name, fullName, children). Only enabled categories appear; a leaf (the only choice a
 * product can take) has `isLeaf: true` and no children. zh and alias are there when set, for search.
 */
export type CategoryTreeNode = {
  id: string;
  name: string;
  fullName: string;
  zh?: string;
  alias?: string;
  isLeaf?: true;
  children?: CategoryTreeNode[];
};

export const getAllCategoryQuery = z.object({
  site: siteParam,
  /** The version the caller holds: when it is still current the answer carries no tree (notModified). */
  version: z.string().trim().max(64).optional(),
});

/** GetAllCategory. version is null (and the tree empty) until the site is synced. */
export const categoryTreeAnswer = z.object({
  site: z.number().int(),
  version: z.string().nullable(),
  syncTime: z.string().nullable(),
  nodeCount: z.number().int(),
  notModified: z.boolean(),
  /** Nodes {id, name, fullName, zh?, alias?, isLeaf?, children?}; null when notModified. */
  tree: z.array(z.looseObject({ id: z.string(), name: z.string(), fullName: z.string() })).nullable(),
});
export type CategoryTreeAnswer = Omit<z.infer<typeof categoryTreeAnswer>, "tree"> & { tree: CategoryTreeNode[] | null };

/** The category fetch by site id: the children of parentId (the roots without it), spec §3 fields. */
export const getCategoryBySiteIdQuery = z.object({
  siteId: siteParam,
  parentId: cateIdParam.optional(),
  /** Also categories disabled by the host or dropped by Mercado Libre. */
  includeDisabled: queryBool.optional(),
});

// ---------------------------------------------------------------------------------------------------------------
// The host's calls.

export const siteQuery = z.object({ site: siteParam });
export const optionalSiteQuery = z.object({ site: siteParam.optional() });

/** UpdateAllCategory: the sites (default all five), and whether attributes and fees are read too (default yes). */
export const updateAllCategoryInput = z.object({
  sites: z.array(siteParam).max(5).optional(),
  withAttributes: z.boolean().optional(),
  withFees: z.boolean().optional(),
});

/** A job the call queued (or the category job already queued or running: started false). */
export const categoryTaskResult = z.object({ taskId: id, started: z.boolean() });
export type CategoryTaskResult = z.infer<typeof categoryTaskResult>;

export const updateMeliAttrOneQuery = z.object({ site: siteParam, cateId: cateIdParam });

/** UpdateRefer: the category's reference name for sellers (its alias); blank clears it. */
export const updateReferQuery = z.object({
  site: siteParam,
  cateId: cateIdParam,
  refer: z.string().trim().max(200).optional(),
});

/**
 * UpdateAllCategoryStatus: enable or disable the given categories (with their subtrees), or every category of the site
 * when `all` says so explicitly (issue 29: a call without ids disabled a whole site; the host's screen confirms first).
 */
export const updateAllCategoryStatusInput = z
  .object({
    enable: z.boolean(),
    cateIds: z.array(cateIdParam).min(1).max(10_000).optional(),
    /** Every category of the site: required instead of cateIds, never with them. */
    all: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.all && v.cateIds) ctx.addIssue({ code: "custom", message: "指定了类目时不能同时修改全部类目（all）", path: ["all"] });
    if (!v.all && !v.cateIds)
      ctx.addIssue({ code: "custom", message: "请指定要修改的类目（cateIds），修改站点全部类目须明确传 all: true", path: ["cateIds"] });
  });
export const categoryStatusResult = z.object({ count: z.number().int(), version: z.string().nullable() });

// ---------------------------------------------------------------------------------------------------------------
// The host's category sync screen.

/** GetCategorySyncStatus: per site, what the last sync stored (counts are 0 and times null before the first sync). */
export const categorySiteStatus = z.object({
  site: z.number().int(),
  version: z.string().nullable(),
  categoryCount: z.number().int(),
  leafCount: z.number().int(),
  /** Leaves whose attributes were read. */
  attributeCount: z.number().int(),
  /** Leaves with a sale fee. */
  feeCount: z.number().int(),
  /** Categories with a Chinese name (AckCategory). */
  zhCount: z.number().int(),
  syncTime: z.string().nullable(),
  attrSyncTime: z.string().nullable(),
  feeSyncTime: z.string().nullable(),
});
export type CategorySiteStatus = z.infer<typeof categorySiteStatus>;

/** GetCategoriesByPage: the site's categories (disabled ones too) whose name, Chinese name, refer or id contains Filter. */
export const getCategoriesByPageQuery = pagedQuery(["cateId", "name", "zh"]).extend({
  site: siteParam,
  Filter: z.string().trim().max(200).optional(),
});
export const categoryPage = pagedResult(meliCategory);

// ---------------------------------------------------------------------------------------------------------------
// PredictMeliCategory.

/** The title to predict from: given, or the product's title in the site's language (else its display title). */
export const predictMeliCategoryInput = z
  .object({
    site: siteParam,
    title: z.string().trim().min(1).max(1000).optional(),
    productId: id.optional(),
    limit: z.number().int().min(1).max(8).optional(),
  })
  .refine((v) => v.title !== undefined || v.productId !== undefined, { message: "请输入标题或商品ID", path: ["title"] });

const predictedCategory = z.object({
  cateId: z.string(),
  name: z.string(),
  /** Our stored path; Mercado Libre's category name when the category is not synced yet. */
  fullName: z.string(),
  fullZh: z.string().nullable(),
  domainId: z.string(),
  domainName: z.string(),
  /** Whether the category is in our synced tree and can be chosen (an enabled leaf). */
  known: z.boolean(),
  selectable: z.boolean(),
  /** Attribute values Mercado Libre read from the title (brand, colour…). */
  attributes: z.array(
    z.object({ id: z.string(), name: z.string().nullable(), valueId: z.string().nullable(), valueName: z.string().nullable() }),
  ),
});
export type PredictedCategory = z.infer<typeof predictedCategory>;
/**
 * How the categories were found: Mercado Libre's predictor on the title as it is ("direct"); a Chinese title translated
 * into the site's language by the configured translation service first ("translated"); or, without a translation service
 * (or a connected shop), a Chinese title matched against the categories' Chinese names from AckCategory ("chineseNames").
 */
const categoryPredictionMethods = ["direct", "translated", "chineseNames"] as const;
export type CategoryPredictionMethod = (typeof categoryPredictionMethods)[number];

export const predictMeliCategoryResult = z.object({
  /** The title predicted from: the one given, or the product's. */
  title: z.string(),
  site: z.number().int(),
  method: z.enum(categoryPredictionMethods),
  /** The title's translation into the site's language that Mercado Libre was asked with ("translated" only). */
  translatedTitle: z.string().nullable(),
  /** For the seller: why the Chinese names were matched instead, or why nothing could be predicted. */
  note: z.string().nullable(),
  items: z.array(predictedCategory),
});
export type PredictMeliCategoryResult = z.infer<typeof predictMeliCategoryResult>;
