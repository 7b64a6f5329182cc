// The collection centre (spec §3 Collection, Collected product; §7 Collect, AquiredUrl): collected products, collect
// requests and tasks, the per-tenant collect settings, the infringement rule setting and the URL queue.
import { z } from "zod";
import { id, isoDate, MAX_PAGE_SIZE, pagedBody, pagedQuery, pagedResult } from "./common.ts";
import { CollectStatus, InfringementRuleType, PlatformType, TaskStatus } from "./enums.ts";
import {
  extractedProduct,
  incompleteField,
  platform,
  platforms,
  productAttribute,
  productVariant,
  type ExtractedProduct,
  type IncompleteField,
} from "../extract/product.ts";

const values = (e: Record<string, number>) => Object.values(e);
/** A JSON integer that must be one of an enum's values. */
const enumNumber = (e: Record<string, number>) =>
  z
    .number()
    .int()
    .refine((v) => values(e).includes(v), `must be one of ${values(e).join(", ")}`);
/** A query integer that must be one of an enum's values. */
const enumQuery = (e: Record<string, number>) =>
  z.coerce
    .number()
    .int()
    .refine((v) => values(e).includes(v), `must be one of ${values(e).join(", ")}`);

const platformTypeValue = enumNumber(PlatformType);
const collectStatusValue = enumNumber(CollectStatus);

/** The platform type of an extractor platform id (unknown or missing: Generic). */
export function platformTypeOf(platform: string | null | undefined): PlatformType {
  const i = platform ? (platforms as readonly string[]).indexOf(platform.trim().toLowerCase()) : -1;
  return i < 0 ? PlatformType.Generic : ((i + 1) as PlatformType);
}

const MAX_URL_LENGTH = 2048;

/** An http(s) URL; a protocol-relative one ("//img…") is read as https. */
export const webUrl = z.preprocess(
  (v) => (typeof v === "string" && v.startsWith("//") ? `https:${v}` : v),
  z
    .string()
    .trim()
    .min(1)
    .max(MAX_URL_LENGTH)
    .refine((s) => {
      try {
        const u = new URL(s);
        return (u.protocol === "http:" || u.protocol === "https:") && !!u.hostname;
      } catch {
        return false;
      }
    }, "must be an http or https URL"),
);

/** A price: a non-negative number or a numeric string ("12.50"). */
export const price = z.preprocess(
  (v) => (typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z.number().min(0).max(1_000_000_000),
);

/** Text by language code: {"zh": "…", "es": "…"}. */
export const textByLanguage = (max: number) =>
  z
    .record(z.string().regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/, "must be a language code"), z.string().max(max))
    .refine((r) => Object.keys(r).length <= 20, "at most 20 languages");

const collectOption = z.object({
  name: z.string(),
  values: z.array(z.object({ id: z.string(), name: z.string(), image: z.string().optional() })),
});
const collectAttribute = z.object({ name: z.string().max(200), value: z.string().max(2000) });

/**
 * The product the extension sends to CrawlProductByPlugin: the shared extractor's product (shared/extract/product.ts,
 * its fields and rules; the cross-field rules are checked by the service, which answers 400 naming the field), plus
 * what the extractor said about it and the discount choice.
 */
export const collectedProductInput = z.object(extractedProduct.shape).extend({
  sources: z.record(z.string().max(64), z.string().max(64)).optional(),
  missingFields: z.array(z.string().max(64)).max(100).optional(),
  warnings: z.array(z.string().max(500)).max(100).optional(),
  /** What the page showed but did not come out (the extractor's "partial" result): "price", "variants". */
  incompleteFields: z.array(incompleteField).max(10).optional(),
  /** Take the discounted price (true) or the original price (false); default: the tenant's collect setting. */
  isDiscountPrice: z.boolean().optional(),
});
export type CollectedProductInput = z.input<typeof collectedProductInput>;
export type CollectedProduct = ExtractedProduct & {
  sources?: Record<string, string>;
  missingFields?: string[];
  warnings?: string[];
  incompleteFields?: IncompleteField[];
  isDiscountPrice?: boolean;
};

export const crawlProductByPluginResult = z.object({
  id: z.string(),
  /** False when the same user had already collected the same source item: the collection was updated. */
  isNew: z.boolean(),
  /** The infringement word found in the title, if any (the product was stored and flagged). */
  infringementWord: z.string().nullable(),
});

// ---------------------------------------------------------------------------------------------------------------
// Collected products.

export const collectListItem = z.object({
  id: z.string(),
  platformType: z.number().int(),
  status: z.number().int(),
  country: z.string().nullable(),
  image: z.string().nullable(),
  images: z.array(z.string()),
  sourceUrl: z.string(),
  currency: z.string().nullable(),
  price: z.string().nullable(),
  priceMax: z.string().nullable(),
  title: z.record(z.string(), z.string()),
  creationTime: z.string(),
  /** The owner's user name. */
  owner: z.string().nullable(),
  userId: z.string(),
  labelId: z.string().nullable(),
  labelName: z.string().nullable(),
  infringementWord: z.string().nullable(),
  /** Fields the source page showed but the collection lacks ("price", "variants"): the list marks the row. */
  incompleteFields: z.array(z.string()),
  logs: z.array(z.string()),
  /** The source item id. */
  sku: z.string(),
});
export type CollectListItem = z.infer<typeof collectListItem>;

/**
 * GetCollect's answer. totalCount is exact when the filter is one index range (none, dates, the owner or the status,
 * a sku or ids); under a filter the index cannot count (title, platform, currency, price, infringement, owner with
 * status) it is exact up to COLLECT_COUNT_CAP matching rows, then capped (totalCountCapped), as the product list.
 */
export const COLLECT_COUNT_CAP = 1_000;
export const collectPage = pagedResult(collectListItem).extend({ totalCountCapped: z.boolean() });
export type CollectPage = z.infer<typeof collectPage>;

const collectDetailVariant = z.object({
  sku: z.string(),
  price: z.string().nullable(),
  originalPrice: z.string().nullable(),
  /** The price a buyer pays now, kept beside the original whichever the discount setting chose as `price`. */
  discountPrice: z.string().nullable(),
  stock: z.number().int().nullable(),
  images: z.array(z.string()),
  variant_Key: z.array(z.string()),
  variant_Values: z.array(z.string()),
  weight: z.number().nullable(),
});

export const collectDetail = collectListItem.extend({
  itemId: z.string(),
  variants: z.array(collectDetailVariant),
  options: z.array(collectOption),
  attributes: z.array(collectAttribute),
  stock: z.number().int().nullable(),
  brand: z.string().nullable(),
  size: z.string().nullable(),
  /** Grams. */
  weight: z.string().nullable(),
  description: z.record(z.string(), z.string()),
  descriptionUrl: z.string().nullable(),
  lastModificationTime: z.string().nullable(),
  videoUrl: z.string().nullable(),
  shop: z.object({ id: z.string().nullish(), name: z.string().nullish(), url: z.string().nullish() }).nullable(),
  isDiscountPrice: z.boolean(),
  source: z.number().int(),
  extractInfo: z.record(z.string(), z.unknown()),
  concurrencyStamp: z.string(),
});
export type CollectDetail = z.infer<typeof collectDetail>;

const collectSortFields = ["creationTime", "lastModificationTime", "price", "status", "platformType"] as const;

/** GetCollect's filter (spec §3 product filter, the parts a collection has). */
export const getCollectInput = pagedBody(collectSortFields).extend({
  startDate: isoDate.nullish(),
  endDate: isoDate.nullish(),
  status: collectStatusValue.nullish(),
  platformType: platformTypeValue.nullish(),
  /** The source item id (exact). */
  sku: z.string().trim().max(128).nullish(),
  /** Part of the title. */
  title: z.string().trim().max(200).nullish(),
  userId: id.nullish(),
  ids: z.array(id).max(MAX_PAGE_SIZE).nullish(),
  currrency: z.string().trim().max(3).nullish(),
  minPrice: price.nullish(),
  maxPrice: price.nullish(),
  /** true: only products with an infringement word; false: only those without. */
  hasInfringement: z.boolean().nullish(),
});

export const updateCollectInput = z.object({
  id,
  title: textByLanguage(1000).optional(),
  price: price.nullish(),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, "must be a 3-letter currency code")
    .nullish(),
  images: z.array(webUrl).max(100).optional(),
  description: textByLanguage(500_000).optional(),
  weight: z.number().min(0).max(10_000_000).nullish(),
  size: z.string().max(100).nullish(),
  stock: z.number().int().min(0).max(100_000_000).nullish(),
  brand: z.string().max(200).nullish(),
  status: collectStatusValue.optional(),
  attributes: z.array(productAttribute).max(300).optional(),
  variants: z.array(productVariant).max(2000).optional(),
  /** When given, a stale stamp answers 409. */
  concurrencyStamp: z.string().max(64).optional(),
});

export const idBody = z.object({ id });
export const idsBody = z.object({ ids: z.array(id).min(1).max(MAX_PAGE_SIZE) });
export const batchUpdateCollectStatusInput = z.object({ ids: z.array(id).min(1).max(MAX_PAGE_SIZE), status: collectStatusValue });
export const countResult = z.object({ count: z.number().int() });

export const getCrawledSkusInput = z.object({
  skus: z.array(z.string().trim().min(1).max(128)).max(1000),
  platformType: platformTypeValue.nullish(),
  platform: platform.nullish(),
});

export const migrateToProductInput = z.object({ ids: z.array(id).min(1).max(MAX_PAGE_SIZE) });
export const migrateToProductResult = z.object({
  successCount: z.number().int(),
  /** Already moved (a product from the collection exists). */
  ignoreCount: z.number().int(),
  productIds: z.array(z.string()),
});

export const screeningResult = z.object({ count: z.number().int(), flagged: z.number().int() });

// ---------------------------------------------------------------------------------------------------------------
// Settings.

export const collectConfig = z.object({
  isDiscountPrice: z.boolean(),
  maxImageCount: z.number().int(),
  maxVariantCount: z.number().int(),
  isCollectDescription: z.boolean(),
  isCollectVideo: z.boolean(),
  lastModificationTime: z.string().nullable(),
});
export type CollectConfig = z.infer<typeof collectConfig>;

export const updateCollectConfigInput = z.object({
  isDiscountPrice: z.boolean().optional(),
  maxImageCount: z.number().int().min(1).max(100).optional(),
  maxVariantCount: z.number().int().min(1).max(2000).optional(),
  isCollectDescription: z.boolean().optional(),
  isCollectVideo: z.boolean().optional(),
});

export const infringementRuleSetting = z.object({
  id: z.string().nullable(),
  /** true: a product with an infringement word is stored and flagged; false: it is refused. */
  isAllowCollected: z.boolean(),
  infringementRuleType: z.number().int(),
});
export const updateInfringementRuleSettingInput = z.object({
  isAllowCollected: z.boolean(),
  infringementRuleType: enumNumber(InfringementRuleType),
});

// ---------------------------------------------------------------------------------------------------------------
// Collect requests and tasks.

export const MAX_URLS_PER_REQUEST = 500;

const collectUrl = z.object({
  /** The caller's own id for the row (echoed on the task). */
  id: z.union([z.string().max(64), z.number()]).nullish(),
  url: webUrl,
  title: z.string().max(1000).nullish(),
  image: webUrl.nullish(),
  /** Grams; overrides the extracted weight. */
  weight: z.number().min(0).max(10_000_000).nullish(),
});

/** Collect request (spec §3): platformType may be left out, the server detects it from each URL. */
export const collectRequest = z.object({
  urls: z.array(collectUrl).min(1).max(MAX_URLS_PER_REQUEST),
  platformType: platformTypeValue.nullish(),
  isDiscountPrice: z.boolean().nullish(),
});

/** Import result (spec §3). */
export const importResult = z.object({
  successCount: z.number().int(),
  ignoreCount: z.number().int(),
  /** True when the URLs are queued and crawled in the background over time. */
  isDelayImport: z.boolean(),
  message: z.string(),
});
export const crawlProductByToolResult = importResult.extend({ taskIds: z.array(z.string()) });

export const collectTask = z.object({
  id: z.string(),
  tenantId: z.string(),
  userId: z.string(),
  owner: z.string().nullable(),
  platformType: z.number().int(),
  url: z.string(),
  title: z.string().nullable(),
  sku: z.string().nullable(),
  taskStatus: z.number().int(),
  image: z.string().nullable(),
  message: z.string().nullable(),
  attempts: z.number().int(),
  nextRunAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  collectionId: z.string().nullable(),
  creationTime: z.string(),
  lastModificationTime: z.string(),
});
export type CollectTask = z.infer<typeof collectTask>;

/** Task filter (spec §3). */
export const getCollectTasksQuery = pagedQuery(["creationTime", "lastModificationTime", "taskStatus"]).extend({
  UserId: id.optional(),
  Sku: z.string().trim().max(128).optional(),
  /** Part of the URL or title. */
  Search: z.string().trim().max(200).optional(),
  StartDate: isoDate.optional(),
  EndDate: isoDate.optional(),
  TaskStatus: enumQuery(TaskStatus).optional(),
});

export const reCrawlTasksInput = z.object({ ids: z.array(id).min(1).max(MAX_PAGE_SIZE) });

// ---------------------------------------------------------------------------------------------------------------
// The URL queue (AquiredUrl).

export const aquiredUrl = z.object({
  id: z.string(),
  userId: z.string(),
  owner: z.string().nullable(),
  url: z.string(),
  platformType: z.number().int(),
  status: z.number().int(),
  sort: z.number().int(),
  isDiscountPrice: z.boolean(),
  message: z.string().nullable(),
  crawlCount: z.number().int(),
  collectTaskId: z.string().nullable(),
  collectionId: z.string().nullable(),
  creationTime: z.string(),
  lastModificationTime: z.string(),
});
export type AquiredUrl = z.infer<typeof aquiredUrl>;

const urlStatusValue = enumNumber({ Pending: 1, Running: 2, Succeeded: 3, Failed: 4 });

export const aquiredUrlFilter = z.object({
  status: urlStatusValue.nullish(),
  platformType: platformTypeValue.nullish(),
  /** Part of the URL. */
  search: z.string().trim().max(200).nullish(),
  startDate: isoDate.nullish(),
  endDate: isoDate.nullish(),
  userId: id.nullish(),
});
export const getAquiredUrlsInput = pagedBody(["creationTime", "sort", "status", "lastModificationTime"]).extend(aquiredUrlFilter.shape);

export const aquiredUrlStatics = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  running: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
});

export const getUrlSataticsInput = z.object({
  startDate: isoDate.nullish(),
  endDate: isoDate.nullish(),
  userId: id.nullish(),
});
export const urlSataticsRow = z.object({
  /** A UTC day, YYYY-MM-DD. */
  date: z.string(),
  total: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
});

export const createUrlsInput = z.object({
  urls: z.array(webUrl).min(1).max(MAX_URLS_PER_REQUEST),
  platformType: platformTypeValue.nullish(),
  isDiscountPrice: z.boolean().nullish(),
});

export const reCrwalUrlsInput = z.object({
  /** The URLs to crawl again; when empty, every failed URL of the caller's. */
  ids: z.array(id).max(MAX_PAGE_SIZE).nullish(),
});

export const deleteUrlsInput = z.object({ ids: z.array(id).min(1).max(MAX_PAGE_SIZE) });

export const setUrlSortQuery = z.object({ tenantId: id.optional() });
export const setUrlSortInput = z.object({
  ids: z.array(id).min(1).max(MAX_PAGE_SIZE),
  sort: z.number().int().min(-1_000_000).max(1_000_000),
});

export const importUrlsQuery = z.object({
  isDiscountPrice: z
    .preprocess((v) => (typeof v === "string" ? (/^(true|1)$/i.test(v) ? true : /^(false|0)$/i.test(v) ? false : v) : v), z.boolean())
    .optional(),
  platformType: enumQuery(PlatformType).optional(),
});

/** Limits of ImportUrls. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;
