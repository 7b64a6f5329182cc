// The listing centre's reads (spec §3 Listings: listing, cross-border listing, listing filter; §7 MeliStat /
// MeliStatNew GetMeliStatsByPage, GetMeliStatGroupInfo). MeliStat lists the listings of local shops, MeliStatNew those
// of cross-border (CBT) shops; both answer one row per site listing (a cbt row names its global item in cbtId).
import { z } from "zod";
import { id, isoDate, MAX_PAGE_SIZE, pagedBody } from "./common.ts";
import { ListingStatus } from "./enums.ts";
import { siteNumber } from "./meli.ts";
import { listing } from "./publish.ts";

const oneOf = <T extends Record<string, number>>(e: T) =>
  z
    .number()
    .int()
    .refine((v) => (Object.values(e) as number[]).includes(v), "unknown value");

const amount = z.number().min(0).max(1e12);
const quantity = z.number().int().min(0).max(2147483647);

const listingSortFields = ["creationTime", "lastModificationTime", "price", "stock", "orders", "views"] as const;

/** Every filter of the listing list (spec §3 Listing filter). Text filters are case-insensitive "contains". */
export const listingFilter = z.object({
  /** The global item (CBT…), exact. */
  cbtId: z.string().trim().max(40).nullish(),
  /** Site item ids (MLM…), any of them. */
  itemIds: z.array(z.string().trim().min(1).max(40)).max(MAX_PAGE_SIZE).nullish(),
  /** Creation time from (inclusive) and to (exclusive). */
  startTime: isoDate.nullish(),
  endTime: isoDate.nullish(),
  /** The listed product's SKU, exact. */
  sku: z.string().trim().max(128).nullish(),
  productIds: z.array(id).max(MAX_PAGE_SIZE).nullish(),
  minPrice: amount.nullish(),
  maxPrice: amount.nullish(),
  minStock: quantity.nullish(),
  maxStock: quantity.nullish(),
  site: siteNumber.nullish(),
  accountGroupId: id.nullish(),
  status: oneOf(ListingStatus).nullish(),
  /** The owner of the listed product (a main account's filter; a sub-account sees its shops' listings). */
  userId: id.nullish(),
  /** Part of the reason it is not live. */
  reason: z.string().trim().max(200).nullish(),
  /** Part of the title. */
  title: z.string().trim().max(200).nullish(),
  /** true: only listings with a warning message; false: only those without. */
  warning: z.boolean().nullish(),
  /** MeliStatNew: cross-border listings whose global item has a site listing in this status. */
  cbtStatus: oneOf(ListingStatus).nullish(),
  /** Last change from (inclusive) and to (exclusive). */
  lastUpdateStartTime: isoDate.nullish(),
  lastUpdateEndTime: isoDate.nullish(),
  listingType: z.string().trim().max(40).nullish(),
  cateId: z.string().trim().max(64).nullish(),
  productLabelId: id.nullish(),
  /** true: sold at least once; false: never sold. */
  hasSold: z.boolean().nullish(),
  /** true: viewed at least once; false: never viewed. */
  hasView: z.boolean().nullish(),
});
export type ListingFilter = z.output<typeof listingFilter>;

export const getMeliStatsByPageInput = pagedBody(listingSortFields).extend(listingFilter.shape);

/** A row of the listing centre: the publish records' listing plus what the list shows of its life on the marketplace. */
export const listingRow = listing.extend({
  userId: z.string(),
  health: z.number().nullable(),
  orders: z.number().int(),
  views: z.number().int(),
  syncTime: z.string().nullable(),
  warningMessage: z.string().nullable(),
  weight: z.number().nullable(),
  size: z.string().nullable(),
  variantInfos: z.array(z.unknown()),
});
export type ListingRow = z.infer<typeof listingRow>;

/**
 * The list answer: totalCount is exact up to LISTING_COUNT_CAP matching rows, then capped (totalCountCapped), as the
 * product list does: counting a million rows a page never shows costs more than the page. Each tab's count
 * (GetMeliStatGroupInfo) stops there too: ~25 tabs of 10,000 took 0.3–0.6 s at 1M.
 */
export const LISTING_COUNT_CAP = 1_000;
export const listingRowPage = z.object({
  items: z.array(listingRow),
  totalCount: z.number().int(),
  totalCountCapped: z.boolean(),
});
export type ListingRowPage = z.infer<typeof listingRowPage>;

const groupCount = z.object({ count: z.number().int(), capped: z.boolean() });
export const listingGroupInfo = z.object({
  /** Per status (every ListingStatus, zero included), ignoring the filter's status. */
  statuses: z.array(groupCount.extend({ status: z.number().int() })),
  /** Per site (1–5), ignoring the filter's site. */
  sites: z.array(groupCount.extend({ site: z.number().int() })),
  /** Per shop group the caller sees (of this list's kind: local or cross-border), ignoring the filter's accountGroupId. */
  accountGroups: z.array(groupCount.extend({ accountGroupId: z.string(), name: z.string() })),
  /** Every listing matching the whole filter. */
  total: groupCount,
});
export type ListingGroupInfo = z.infer<typeof listingGroupInfo>;
