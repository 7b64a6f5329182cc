// Size charts (spec §7 MeliSizeChart PullMeliChart, GetMeliSizeCharts, GetMeliSizeChartCategories): a shop group's
// charts pulled from Mercado Libre for the fashion domains; an item names one chart and one row through the attributes
// SIZE_GRID_ID / SIZE_GRID_ROW_ID, chosen in the publish screen and checked by the pre-flight.
import { z } from "zod";
import { id, queryList } from "./common.ts";
import { siteNumber } from "./meli.ts";

/** The item attributes that name the chart and its row (MERCADO-LIBRE.md "Size charts"). */
export const SIZE_GRID_ID = "SIZE_GRID_ID";
export const SIZE_GRID_ROW_ID = "SIZE_GRID_ROW_ID";

const sizeChartRow = z.object({ id: z.string(), label: z.string() });
export const sizeChart = z.object({
  id: z.string(),
  accountGroupId: z.string(),
  /** Mercado Libre's chart id: SIZE_GRID_ID's value. */
  chartId: z.string(),
  site: siteNumber,
  domainId: z.string(),
  name: z.string(),
  chartType: z.string(),
  gender: z.string().nullable(),
  mainAttributeId: z.string().nullable(),
  rows: z.array(sizeChartRow),
  fetchedAt: z.string(),
});
export type SizeChart = z.infer<typeof sizeChart>;

/**
 * Categories: domain ids (as GetMeliSizeChartCategories lists them) or category ids of those domains, 1-50 (none is
 * refused by the service once the group is found).
 */
export const pullMeliChartQuery = z.object({
  AccountGroupId: id,
  Categories: queryList(z.string().trim().min(1).max(100)).pipe(z.array(z.string()).max(50)).optional(),
  /** Ours: a brand to search with besides the group's (Mercado Libre's search needs one; default: the group's, else Genérica). */
  Brand: z.string().trim().max(100).optional(),
});
export const pullMeliChartResult = z.object({ count: z.number().int(), domains: z.number().int() });

/**
 * CreateMeliChart (ours; the spec's MeliSizeChart group has no creation): a SPECIFIC chart on Mercado Libre for the
 * category's fashion domain and a gender of it, one row per size (the product's sizes), stored for the group and
 * answered so it can be picked at once. With chartId, the sizes that chart lacks are added to it as rows instead.
 */
export const createMeliChartBody = z
  .object({
    accountGroupId: id,
    /** A marketplace site of the group (charts are a site's). */
    site: z.number().int().min(1).max(4),
    cateId: z.string().trim().min(1).max(64),
    name: z.string().trim().min(1, "请填写尺码表名称").max(60, "尺码表名称最多 60 个字符"),
    /** A GENDER value of the category (its name, or its id). */
    gender: z.string().trim().min(1, "请选择性别").max(60),
    sizes: z.array(z.string().trim().min(1, "尺码不能为空").max(30, "尺码最多 30 个字符")).min(1, "请至少填写一个尺码").max(60),
    chartId: z.string().trim().min(1).max(30).nullish(),
  })
  .refine((b) => new Set(b.sizes.map((x) => x.toLowerCase())).size === b.sizes.length, { message: "尺码不能重复", path: ["sizes"] });
export type CreateMeliChartBody = z.infer<typeof createMeliChartBody>;

export const getMeliSizeChartsQuery = z.object({ accountGroupId: id });
export const sizeChartList = z.array(sizeChart);

/** A fashion domain a chart can be pulled for: a domain whose categories have a GENDER attribute (gender mapping). */
const sizeChartCategory = z.object({
  site: siteNumber,
  domainId: z.string(),
  name: z.string(),
  genderAttrId: z.string(),
});
export const sizeChartCategoryList = z.array(sizeChartCategory);
export type SizeChartCategory = z.infer<typeof sizeChartCategory>;
