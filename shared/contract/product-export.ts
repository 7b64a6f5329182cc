// Product export (spec §7 Product ExportProduct): the selected products (ids or the list's filter) as an xlsx file,
// written by a job; the task centre shows its progress and DownloadExport hands out the finished file.
import { z } from "zod";
import { id } from "./common.ts";
import { selecting } from "./product.ts";

/** Every column the export can write, in the file's default order, with its Chinese header. */
export const productExportColumns = {
  id: "商品ID",
  title: "标题",
  titleEs: "标题(西语)",
  titlePt: "标题(葡语)",
  titleEn: "标题(英语)",
  sku: "SKU",
  price: "价格",
  currency: "币种",
  weight: "重量(g)",
  size: "尺寸(cm)",
  stock: "库存",
  brand: "品牌",
  status: "状态",
  label: "标签",
  platform: "来源平台",
  sourceUrl: "来源链接",
  infringementWord: "侵权词",
  image: "主图",
  creationTime: "创建时间",
  owner: "所属账号",
} as const;
export type ProductExportColumn = keyof typeof productExportColumns;
export const productExportColumnKeys = Object.keys(productExportColumns) as [ProductExportColumn, ...ProductExportColumn[]];

/** Exports at most this many products; a larger selection is refused (narrow the filter). */
export const PRODUCT_EXPORT_MAX_ROWS = 1_000_000;
/** Days a finished export can be downloaded; older files are removed. */
export const PRODUCT_EXPORT_KEEP_DAYS = 7;

/**
 * ExportProduct: productIds (or ids) or filter, as every bulk edit selects; columns to write, in that order (default:
 * all, in the order above); utcOffsetMinutes: the time zone 创建时间 and the file name are written in (default UTC+8).
 */
export const exportProductInput = selecting(
  z.object({
    columns: z
      .array(z.enum(productExportColumnKeys))
      .min(1)
      .max(productExportColumnKeys.length * 2)
      .nullish(),
    utcOffsetMinutes: z.number().int().min(-720).max(840).nullish(),
  }),
);

/** The queued export's task (task centre, TaskType.ExportProducts); poll it, then download with its id. */
export const exportProductResult = z.object({ taskId: z.string() });

/** DownloadExport: the export task's id; only its creator downloads it. */
export const downloadExportQuery = z.object({ taskId: id });
