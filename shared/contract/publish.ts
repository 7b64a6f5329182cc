// Publishing (spec §3 Listings: publish request, publish batch job, listing; §7 MeliStat/MeliStatNew Publish).
import { z } from "zod";
import { id, isoDate, pagedBody, pagedResult } from "./common.ts";
import { productFilter } from "./product.ts";
import { ListingStatus, PublishBatchStatus } from "./enums.ts";
import { siteNumber } from "./meli.ts";

const oneOf = <T extends Record<string, number>>(e: T) =>
  z
    .number()
    .int()
    .refine((v) => (Object.values(e) as number[]).includes(v), "unknown value");

/** Mercado Libre's listing types: classic (gold_special), premium (gold_pro), free. */
export const listingTypes = ["gold_special", "gold_pro", "free"] as const;

/** The category chosen for one site, with attribute values for its required attributes. */
const publishCateInfo = z.object({
  site: siteNumber,
  cateId: z.string().trim().min(1).max(40),
  attrs: z
    .array(
      z.object({ id: z.string().trim().min(1).max(100), valueId: z.string().max(100).nullish(), valueName: z.string().max(500).nullish() }),
    )
    .max(200)
    .default([]),
});

/**
 * The publish request (spec §3): the shop group and sites, the products (ids, or the product list's filter as the bulk
 * edits take it), per-site categories, and overrides applied to every product of the batch.
 */
export const publishRequest = z
  .object({
    accountGroupId: id,
    sites: z.array(siteNumber).min(1).max(5),
    productIds: z.array(id).max(1000).nullish(),
    filter: productFilter.nullish(),
    /** Per site: the category to publish in (else the product's own when it is on that site). */
    cateInfo: z.array(publishCateInfo).max(5).default([]),
    size: z.string().trim().max(64).nullish(),
    weight: z.number().min(0).max(1_000_000).nullish(),
    brand: z.string().trim().max(200).nullish(),
    stock: z.number().int().min(0).max(99_999).nullish(),
    prefixTitle: z.string().max(60).nullish(),
    suffixTitle: z.string().max(60).nullish(),
    prefixDescription: z.string().max(5000).nullish(),
    suffixDescription: z.string().max(5000).nullish(),
    isContainsFreight: z.boolean().default(false),
    warrantyDay: z.number().int().min(0).max(3650).nullish(),
    /** Mercado Libre's WARRANTY_TYPE value id (e.g. 2230280 seller warranty), or null for none. */
    warrantType: z.string().max(40).nullish(),
    /** Use `stock` even where the product has its own. */
    isForceReplaceStock: z.boolean().default(false),
    /** Label the published products with this label. */
    productLabel: id.nullish(),
    /** At most this many products of the selection. */
    maxProductCount: z.number().int().min(1).max(100_000).nullish(),
    listingType: z.enum(listingTypes).default("gold_special"),
    /** Use `weight` and `size` even where the product has its own. */
    isForceReplaceWeightAndSize: z.boolean().default(false),
    /**
     * 允许重复刊登: publish a product again on a shop's site where it is already listed (waiting, being published or
     * live). Without it such a pair is skipped with the listing it already has (shared/publish/duplicates.ts).
     */
    isAllowDuplicate: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (!v.productIds?.length && !v.filter)
      ctx.addIssue({ code: "custom", message: "select products: productIds or filter", path: ["productIds"] });
    if (new Set(v.sites).size !== v.sites.length) ctx.addIssue({ code: "custom", message: "a site is named twice", path: ["sites"] });
  });
export type PublishRequest = z.output<typeof publishRequest>;

/** A publish batch job (spec §3), with the pre-flight's skips counted apart. */
export const publishBatch = z.object({
  id: z.string(),
  accountGroupId: z.string(),
  accountGroupName: z.string().nullable(),
  sites: z.array(z.number().int()),
  creationTime: z.string(),
  creatorId: z.string().nullable(),
  status: oneOf(PublishBatchStatus),
  total: z.number().int(),
  success: z.number().int(),
  fail: z.number().int(),
  skipped: z.number().int(),
  lastUpdateTime: z.string(),
});
export type PublishBatch = z.infer<typeof publishBatch>;

/**
 * Publish's answer: the batch, with how many products the request selected and how many the batch took (at most
 * PUBLISH_MAX_PRODUCTS), and a Chinese notice when it took fewer or skipped products already listed on the shop's sites.
 */
export const publishResult = publishBatch.extend({
  /** Products the request selected (its filter or ids, cut to maxProductCount). */
  selected: z.number().int(),
  /** Products in the batch: the selection, cut to the per-batch maximum. */
  taken: z.number().int(),
  /** Products × sites skipped because the product is already listed there (without isAllowDuplicate). */
  alreadyListed: z.number().int(),
  /** What the seller should know about the batch (a cut selection, products already listed), null when nothing. */
  notice: z.string().nullable(),
});
export type PublishResult = z.infer<typeof publishResult>;

export const problem = z.object({
  code: z.string(),
  field: z.string().nullable(),
  message: z.string(),
  severity: z.enum(["error", "warning"]),
  /** Where the seller fixes it: product, attribute:<id>, shop, gtin, category, settings, request. */
  fix: z.string().nullish(),
});

/** A listing (spec §3 Listing), as the publish records show it. */
export const listing = z.object({
  id: z.string(),
  batchId: z.string().nullable(),
  accountGroupId: z.string(),
  /** Null for a listing imported from Mercado Libre that no product's SKU matched (PullMarketStat). */
  productId: z.string().nullable(),
  /** The product's title (GetPublishBatchListings): names a listing skipped before it had a title of its own. */
  productTitle: z.string().nullable(),
  productLabelId: z.string().nullable(),
  site: z.number().int(),
  cbtId: z.string().nullable(),
  itemId: z.string().nullable(),
  cateId: z.string().nullable(),
  cateName: z.string().nullable(),
  title: z.string().nullable(),
  status: oneOf(ListingStatus),
  price: z.number().nullable(),
  currency: z.string().nullable(),
  price_Content: z.unknown().nullable(),
  reason: z.string().nullable(),
  problems: z.array(problem),
  permalink: z.string().nullable(),
  listingType: z.string().nullable(),
  image: z.string().nullable(),
  stock: z.number().int().nullable(),
  creationTime: z.string(),
  lastModificationTime: z.string().nullable(),
});
export type Listing = z.infer<typeof listing>;

export const getPublishBatchesInput = pagedBody(["creationTime"]).extend({
  accountGroupId: id.nullish(),
  status: oneOf(PublishBatchStatus).nullish(),
  startTime: isoDate.nullish(),
  endTime: isoDate.nullish(),
});
export const publishBatchPage = pagedResult(publishBatch);

/** GetPublishBatch (ours): one of the caller's batches by its id. */
export const getPublishBatchInput = z.object({ batchId: id });

export const getBatchListingsInput = pagedBody(["creationTime"]).extend({
  batchId: id,
  status: oneOf(ListingStatus).nullish(),
  site: siteNumber.nullish(),
});
export const listingPage = pagedResult(listing);

/**
 * RetryPublish (ours): the batch's refused, failed and skipped listings, or those of listingIds among them, are
 * published again with their products as they are now; answers the batch.
 */
export const retryPublishInput = z.object({
  batchId: id,
  listingIds: z.array(id).min(1).max(1000).nullish(),
});

/** PreflightPublish (ours): the pre-flight check and profit preview of a publish request, before anything is sent. */
export const PREVIEW_MAX_PRODUCTS = 200;
const preflightPair = z.object({
  productId: z.string(),
  productTitle: z.string(),
  image: z.string().nullable(),
  site: z.number().int(),
  cateId: z.string().nullable(),
  cateName: z.string().nullable(),
  /** No errors: the pair will be sent. */
  ok: z.boolean(),
  /** The title that will be sent (null until translated). */
  title: z.string().nullable(),
  problems: z.array(problem),
  /** The price breakdown (shared/publish/price.ts PriceBreakdown), null when it cannot be computed. */
  price: z.unknown().nullable(),
});
export type PreflightPairView = z.infer<typeof preflightPair>;
export const preflightResult = z.object({
  /** Products the request selects (the preview covers the first PREVIEW_MAX_PRODUCTS of them). */
  selected: z.number().int(),
  pairs: z.array(preflightPair),
  ok: z.number().int(),
  refused: z.number().int(),
  /** The pairs of the preview whose product is already listed on the shop's site (a "duplicate" problem). */
  alreadyListed: z.number().int(),
});
export type PreflightResultView = z.infer<typeof preflightResult>;
