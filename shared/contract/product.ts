// The product centre (spec §3 Products; §7 Product): the list and its filter, the detail and its editor, and the bulk
// edits. A bulk edit selects products by ids or by the list's filter ("all matching"), and answers how many it changed
// and the edit's id, which the user's undo refers to.
import { z } from "zod";
import { id, isoDate, MAX_PAGE_SIZE, pagedBody } from "./common.ts";
import { price, textByLanguage, webUrl } from "./collect.ts";
import { PlatformType, ProductStatus, Site, ThirdPlatformType } from "./enums.ts";

const oneOf = (e: Record<string, number>) =>
  z
    .number()
    .int()
    .refine((v) => Object.values(e).includes(v), `must be one of ${Object.values(e).join(", ")}`);

const productStatusValue = oneOf(ProductStatus);
const siteValue = oneOf(Site);
const thirdPlatformTypeValue = oneOf(ThirdPlatformType);

/** Grams: 0 to 1,000 kg, or a numeric string. */
const weight = z.preprocess(
  (v) => (typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z.number().min(0).max(1_000_000),
);
/** Centimetres as "LxWxH" (x, X, * or × between), each 0-10,000. */
const size = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?\s*[xX*×]\s*\d+(\.\d+)?\s*[xX*×]\s*\d+(\.\d+)?$/, "must be length x width x height in cm, e.g. 30x20x10")
  .transform((s) =>
    s
      .split(/\s*[xX*×]\s*/)
      .map((n) => String(Number(n)))
      .join("x"),
  )
  .refine((s) => s.split("x").every((n) => Number(n) <= 10_000), "each side at most 10000 cm");
const currencyCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, "must be a 3-letter currency code")
  .transform((s) => s.toUpperCase());
const stock = z.number().int().min(0).max(10_000_000);
const imageList = z.array(webUrl).max(50);

// ---------------------------------------------------------------------------------------------------------------
// The filter (spec §3 Product filter).

const productSortFields = ["creationTime", "lastModificationTime", "price", "weight", "stock", "status"] as const;

/** Every filter of the product list; also how a bulk edit selects "all matching". */
export const productFilter = z.object({
  /** Creation time from (inclusive) and to (exclusive). */
  startTime: isoDate.nullish(),
  endTime: isoDate.nullish(),
  status: productStatusValue.nullish(),
  /** Source country code as collected (e.g. CN). */
  country: z.string().trim().max(8).nullish(),
  /** The product's sku (exact). */
  sku: z.string().trim().max(128).nullish(),
  /** The site and category of its category info. */
  site: siteValue.nullish(),
  cateId: z.string().trim().max(64).nullish(),
  ids: z.array(id).max(MAX_PAGE_SIZE).nullish(),
  /** The host only: whose products (a tenant's id); ignored for everyone else, who always see their own tenant. */
  tenantId: id.nullish(),
  /** A main account's filter by owner; a sub-account always sees its own. */
  userId: id.nullish(),
  /** Part of a title in any language, case-insensitive. */
  title: z.string().trim().max(200).nullish(),
  labelId: id.nullish(),
  /** The spec's spelling. */
  currrency: z.string().trim().max(3).nullish(),
  minPrice: price.nullish(),
  maxPrice: price.nullish(),
  minWeight: weight.nullish(),
  maxWeight: weight.nullish(),
  /** Source item ids (the platform's offer/item id), any of them. */
  sourceIds: z.array(z.string().trim().min(1).max(128)).max(MAX_PAGE_SIZE).nullish(),
  platformType: oneOf(PlatformType).nullish(),
  /** true: only products with an infringement word; false: only those without. */
  hasInfringement: z.boolean().nullish(),
});
export type ProductFilter = z.output<typeof productFilter>;

export const getProductsByPageInput = pagedBody(productSortFields).extend(productFilter.shape);

// ---------------------------------------------------------------------------------------------------------------
// List row and detail.

export const productListItem = z.object({
  id: z.string(),
  platformType: z.number().int().nullable(),
  status: z.number().int(),
  country: z.string().nullable(),
  image: z.string().nullable(),
  images: z.array(z.string()),
  sourceUrl: z.string().nullable(),
  currency: z.string().nullable(),
  price: z.string().nullable(),
  /** Titles by language. */
  title: z.record(z.string(), z.string()),
  /** The display title (zh, then en, es, pt, then any). */
  titleText: z.string(),
  creationTime: z.string(),
  /** The owner's user name. */
  owner: z.string().nullable(),
  userId: z.string(),
  labelId: z.string().nullable(),
  labelName: z.string().nullable(),
  infringementWord: z.string().nullable(),
  /** Publishing records of the product (filled by the publishing area). */
  logs: z.array(z.string()),
  sku: z.string().nullable(),
  /** Grams. */
  weight: z.string().nullable(),
  stock: z.number().int().nullable(),
  site: z.number().int().nullable(),
  cateId: z.string().nullable(),
});
export type ProductListItem = z.infer<typeof productListItem>;

/** The list answer: totalCount is exact up to PRODUCT_COUNT_CAP matching rows, then capped (totalCountCapped). */
// 1,000: counting further reads rows a page never shows (a common title word: 41 ms for 10,001 matches, ~4 ms
// for 1,001; a price range has no index since migration 0006). The bulk dialogs count exactly (CountProducts).
export const PRODUCT_COUNT_CAP = 1_000;
export const productPage = z.object({
  items: z.array(productListItem),
  totalCount: z.number().int(),
  totalCountCapped: z.boolean(),
});
export type ProductPage = z.infer<typeof productPage>;

/** A category attribute value chosen for the product. */
const cateAttr = z.object({
  nameId: z.string().trim().min(1).max(64),
  name: z.string().trim().max(200).default(""),
  valueId: z.string().trim().max(64).nullish(),
  value: z.string().trim().max(500).nullish(),
});
const cateInfo = z.object({
  cateId: z.string().trim().min(1).max(64),
  site: siteValue,
  attrs: z.array(cateAttr).max(200).default([]),
});

/** A variant as the spec lists it: its option names (variant_Key) and values (variant_Values), in option order. */
const productVariantItem = z.object({
  sku: z.string(),
  price: z.string().nullable(),
  stock: z.number().int().nullable(),
  images: z.array(z.string()),
  variant_Key: z.array(z.string()),
  variant_Values: z.array(z.string()),
});

/**
 * The editor's grid (spec variantModel): one header per option with its values, one item per variant; kvId is the
 * variant's values joined by ";" in header order, and `values` the same values as a list.
 */
const variantModel = z.object({
  headers: z.array(z.object({ vairantKey: z.string(), vairantValues: z.array(z.string()) })),
  items: z.array(
    z.object({
      kvId: z.string(),
      values: z.array(z.string()),
      price: z.string().nullable(),
      stock: z.number().int().nullable(),
      sku: z.string().nullable(),
      images: z.array(z.string()),
    }),
  ),
});
export type VariantModel = z.infer<typeof variantModel>;

export const productDetail = productListItem.extend({
  variants: z.array(productVariantItem),
  variantModel,
  attributes: z.array(z.object({ name: z.string(), value: z.string() })),
  brand: z.string().nullable(),
  /** Centimetres "LxWxH". */
  size: z.string().nullable(),
  description: z.record(z.string(), z.string()),
  cateInfo: z.object({ cateId: z.string(), site: z.number().int(), attrs: z.array(cateAttr) }).nullable(),
  categoryName: z.string().nullable(),
  lastModificationTime: z.string().nullable(),
  videoUrl: z.string().nullable(),
  profit: z.string().nullable(),
  itemId: z.string().nullable(),
  concurrencyStamp: z.string(),
});
export type ProductDetail = z.infer<typeof productDetail>;

// ---------------------------------------------------------------------------------------------------------------
// Create and edit.

const variantModelInput = z.object({
  headers: z
    .array(
      z.object({
        vairantKey: z.string().trim().min(1).max(100),
        vairantValues: z.array(z.string().trim().min(1).max(200)).min(1).max(500),
      }),
    )
    .max(5),
  items: z
    .array(
      z.object({
        /** The variant's values in header order (or kvId, the same joined by ";"). */
        values: z.array(z.string().trim().min(1).max(200)).max(5).optional(),
        kvId: z.string().max(1100).optional(),
        price: price.nullish(),
        stock: stock.nullish(),
        sku: z.string().trim().max(128).nullish(),
        images: imageList.default([]),
      }),
    )
    .max(5000),
});
export type VariantModelInput = z.output<typeof variantModelInput>;

/** CreateOrUpdateProduct: no id creates; an id edits (fields left out keep their value). */
export const createOrUpdateProductInput = z.object({
  id: id.nullish(),
  /** The stamp the editor read; a newer save in between answers 409. */
  concurrencyStamp: z.string().max(64).nullish(),
  title: textByLanguage(1000).optional(),
  description: textByLanguage(500_000).optional(),
  sku: z.string().trim().max(128).nullish(),
  price: price.nullish(),
  currency: currencyCode.nullish(),
  stock: stock.nullish(),
  brand: z.string().trim().max(200).nullish(),
  size: size.nullish(),
  weight: weight.nullish(),
  videoUrl: webUrl.nullish(),
  profit: z.number().min(-100).max(10_000).nullish(),
  image: webUrl.nullish(),
  images: imageList.optional(),
  country: z.string().trim().max(8).nullish(),
  sourceUrl: webUrl.nullish(),
  platformType: oneOf(PlatformType).nullish(),
  status: productStatusValue.optional(),
  labelId: id.nullish(),
  cateInfo: cateInfo.nullish(),
  categoryName: z.string().trim().max(500).nullish(),
  attributes: z
    .array(z.object({ name: z.string().trim().min(1).max(200), value: z.string().trim().max(2000) }))
    .max(500)
    .optional(),
  variantModel: variantModelInput.optional(),
});

/** UpdateProductAttr: the category attributes of one product. */
export const updateProductAttrInput = z.object({ productId: id, attrs: z.array(cateAttr).max(200) });

/** UpdateProductPrice: one product's price and currency (spec: productId, price, cur); variants follow the same change. */
export const updateProductPriceInput = z.object({ productId: id, price, cur: currencyCode.nullish() });

// ---------------------------------------------------------------------------------------------------------------
// Bulk edits.

/**
 * Which products a bulk edit touches: the ids (spec productIds; some calls say ids) and/or all matching the list's
 * filter. Given together they narrow each other (the ids that match the filter); at least one is required.
 */
export const productSelection = z.object({
  productIds: z.array(id).max(MAX_PAGE_SIZE).nullish(),
  ids: z.array(id).max(MAX_PAGE_SIZE).nullish(),
  filter: productFilter.nullish(),
});
export type ProductSelection = z.output<typeof productSelection>;

/** A bulk body: the call's own fields plus the selection; at least one way of selecting, and no empty id list. */
export const selecting = <S extends z.ZodRawShape>(fields: z.ZodObject<S>) =>
  z.object({ ...fields.shape, ...productSelection.shape }).superRefine((v, ctx) => {
    const s = v as ProductSelection;
    if (s.productIds == null && s.ids == null && s.filter == null)
      ctx.addIssue({ code: "custom", path: ["productIds"], message: "give productIds (or ids) or filter" });
    for (const key of ["productIds", "ids"] as const)
      if (s[key] && s[key].length === 0) ctx.addIssue({ code: "custom", path: [key], message: "must not be empty" });
  });

/**
 * A bulk edit (or its undo) whose selection holds more products than this runs as a task (TaskType.BulkEditProducts):
 * the call answers at once with the task's id, the task changes the rows in batches of BULK_EDIT_BATCH_SIZE by id,
 * each batch committed with its undo backups under the one edit id, and its progress reaches the console live.
 * Selections up to this many are changed in the call itself.
 */
export const BULK_EDIT_TASK_THRESHOLD = 5000;
/** Products per batch of a bulk edit task (or its undo), each batch one transaction. */
export const BULK_EDIT_BATCH_SIZE = 5000;

/**
 * Every bulk edit's answer: rows changed, and the edit's id (null when nothing changed, so nothing to undo). A large
 * selection answers its task's id instead of waiting: count is then 0 (the task's remark says how many it changed)
 * and editId is the id every batch is recorded under (UndoProductEdit undoes them all once the task has ended).
 */
export const bulkEditResult = z.object({
  count: z.number().int(),
  editId: z.string().nullable(),
  taskId: z.string().nullish(),
});
export type BulkEditResult = z.infer<typeof bulkEditResult>;

/** The price rate (multiplier): 0.01-100. */
const rate = z.number().min(0.01).max(100);
/** The cents a price ends on, e.g. 0.99 (0 ≤ tinyPrice < 1). */
const tinyPrice = z.number().min(0).lt(1);

/** BatchUpdateProductSamePrice: every selected product (and its variants) at one price: fixPrice × rate, ending on tinyPrice. */
export const batchUpdateProductSamePriceInput = selecting(
  z.object({ fixPrice: price, rate: rate.nullish(), tinyPrice: tinyPrice.nullish() }),
);

/** BatchUpdateProductPrice: each price (and variant price) becomes price × rate + price (spec: ids, price, rate). */
export const batchUpdateProductPriceInput = selecting(
  z.object({ price: z.number().min(-1_000_000).max(1_000_000).default(0), rate: rate.default(1), tinyPrice: tinyPrice.nullish() }),
);

/**
 * BatchUpdateProductWeight / WebBatchUpdateProductWeight: a weight (or a random one between min and max) and/or a
 * size. `weight` is always sent (null: keep the weights, e.g. to change only the size or to pick random ones).
 */
export const batchUpdateProductWeightInput = selecting(
  z.object({
    weight: z.number().min(0).max(1_000_000).nullable(),
    size: size.nullish(),
    isRandom: z.boolean().default(false),
    minRandomWeight: weight.nullish(),
    maxRandomWeight: weight.nullish(),
  }),
).superRefine((v, ctx) => {
  if (v.isRandom) {
    if (v.minRandomWeight == null || v.maxRandomWeight == null)
      ctx.addIssue({ code: "custom", path: ["minRandomWeight"], message: "give minRandomWeight and maxRandomWeight" });
    else if (v.minRandomWeight > v.maxRandomWeight)
      ctx.addIssue({ code: "custom", path: ["maxRandomWeight"], message: "must not be below minRandomWeight" });
  } else if (v.weight == null && v.size == null) ctx.addIssue({ code: "custom", path: ["weight"], message: "give weight or size" });
});

export const batchUpdateProductStatusInput = selecting(z.object({ status: productStatusValue }));

/** LinkProductLabel: the label on every selected product. CancelLinkProductLabel: the label off (only that label when given). */
export const linkProductLabelInput = selecting(z.object({ labelId: id }));
export const cancelLinkProductLabelInput = selecting(z.object({ labelId: id.nullish() }));

export const batchUpdateProductCategoryInput = selecting(
  z.object({ productCateInfo: cateInfo.extend({ categoryName: z.string().trim().max(500).nullish() }) }),
);

/** ReplaceKeyword: find-and-replace in titles and/or descriptions, every language. */
export const replaceKeywordInput = selecting(
  z.object({
    keyword: z.string().min(1).max(200),
    replaceText: z.string().max(1000).default(""),
    isReplaceTitle: z.boolean().default(true),
    isReplaceDescription: z.boolean().default(false),
    isIgnoreCase: z.boolean().default(true),
  }),
).refine((v) => v.isReplaceTitle || v.isReplaceDescription, { path: ["isReplaceTitle"], message: "replace in title or description" });

/** TranslateProduct: titles (and descriptions) from one language to es / pt / en, through a translation service. */
export const translateLanguages = ["es", "pt", "en"] as const;
export const translateProductInput = selecting(
  z.object({
    /** The source language (a key of the titles, e.g. zh); null: each product's display title's language. */
    from: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/, "must be a language code")
      .nullish(),
    to: z.enum(translateLanguages),
    isContainsDescription: z.boolean().default(false),
    /** The service to use; default: the one the settings choose. */
    thirdPlatformType: thirdPlatformTypeValue.nullish(),
  }),
);

/** TranslateProduct's answer: how many products it will translate, the undo record, and the task to follow. */
export const translateProductResult = z.object({ count: z.number().int(), editId: z.string().nullable(), taskId: z.string().nullable() });
export type TranslateProductResult = z.infer<typeof translateProductResult>;

/** AssignProduct: the selected products to a user of the tenant (main account only). */
export const assignProductInput = selecting(z.object({ userId: id }));

export const deleteProductsInput = z.object({ ids: z.array(id).min(1).max(MAX_PAGE_SIZE) });
export const batchDeleteProductsInput = selecting(z.object({}));

export const copyProductInput = z.object({ productIds: z.array(id).min(1).max(MAX_PAGE_SIZE) });
export const copyProductResult = z.object({ count: z.number().int(), productIds: z.array(z.string()) });

/** CountProducts: how many products a filter matches (the bulk dialogs' preview), exact. */
export const countProductsResult = z.object({ count: z.number().int() });

/** The caller's last bulk edit and whether it can still be undone (within 24 hours, not undone yet). */
export const UNDO_WINDOW_HOURS = 24;
export const productEditInfo = z.object({
  id: z.string(),
  kind: z.string(),
  rowCount: z.number().int(),
  creationTime: z.string(),
  undoneTime: z.string().nullable(),
  canUndo: z.boolean(),
  /** When undo stops being possible. */
  undoUntil: z.string(),
});
export type ProductEditInfo = z.infer<typeof productEditInfo>;

/** Each bulk edit's name as the seller reads it (GetLastProductEdit's kind, a bulk edit task's remark). */
const productEditKindNames: Record<string, string> = {
  batchupdateproductsameprice: "统一价格",
  batchupdateproductprice: "调整价格",
  updateproductprice: "修改价格",
  batchupdateproductweight: "重量尺寸",
  webbatchupdateproductweight: "重量尺寸",
  batchupdateproductstatus: "修改状态",
  linkproductlabel: "设置标签",
  cancellinkproductlabel: "取消标签",
  batchupdateproductcategory: "修改类目",
  replacekeyword: "查找替换",
  translateproduct: "翻译",
  assignproduct: "分配给子账号",
  deleteproducts: "删除",
  batchdeleteproducts: "删除",
};
export const productEditKindName = (kind: string) => productEditKindNames[kind.toLowerCase()] ?? kind;
export const undoProductEditInput = z.object({ id });
/** Rows restored, or (an edit of more than BULK_EDIT_TASK_THRESHOLD rows) 0 and the task restoring them. */
export const undoProductEditResult = z.object({ count: z.number().int(), taskId: z.string().nullish() });

/** PredictWightByTitle: the weight of similar products of the tenant with a known weight. */
export const predictWeightByTitleInput = z.object({ title: z.string().trim().min(1).max(1000), productId: id.nullish() });
export const predictWeightByTitleResult = z.object({
  /** Grams; null when there is no basis. */
  weight: z.number().nullable(),
  hasBasis: z.boolean(),
  message: z.string(),
  /** The nearest products the prediction rests on. */
  neighbours: z.array(z.object({ id: z.string(), title: z.string(), weight: z.number(), similarity: z.number() })),
});
export type PredictWeightByTitleResult = z.infer<typeof predictWeightByTitleResult>;
