// Margin that follows the rate (issue 32): what each listing earns now against what it earned when priced, by the one
// publish formula (shared/publish/price.ts), and the 重新定价 batch that sets the formula's price again (MeliStatNew /
// MeliStat GetMarginDrift, Reprice, UndoReprice). Money is integer minor units: margins and the formula's prices in the
// formula's currency (the site's; USD net proceeds on global selling), the listing's prices in the listing's currency.
import { z } from "zod";
import { id, MAX_PAGE_SIZE } from "./common.ts";
import { BATCH_EDIT_MAX } from "./listing-edits.ts";
import { getMeliStatsByPageInput, listingFilter } from "./listings.ts";

/** low: under the shop's minimum margin (negative included); negative: the listing sells at a loss. */
const marginFilter = z.enum(["low", "negative"]).nullish();

/**
 * GetMarginDrift: the list's filter and paging (newest first), optionally only the listings whose margin now is low, or
 * only the listings named (the listing centre's page: its margin column).
 */
export const getMarginDriftInput = getMeliStatsByPageInput.extend({ margin: marginFilter, ids: z.array(id).max(MAX_PAGE_SIZE).nullish() });
export type GetMarginDriftInput = z.output<typeof getMarginDriftInput>;

const margin = z.object({ margin: z.number().int(), marginPercent: z.string() });

const marginDriftRow = z.object({
  id: z.string(),
  itemId: z.string().nullable(),
  title: z.string().nullable(),
  site: z.number().int(),
  accountGroupId: z.string(),
  /** The listing's own currency and price (minor units), as Mercado Libre holds it. */
  listingCurrency: z.string().nullable(),
  listingPrice: z.number().int().nullable(),
  /** The formula's currency (margins and `price` below are in its minor units). */
  currency: z.string().nullable(),
  /** What is sent now (the listing price; net proceeds on global selling). */
  price: z.number().int().nullable(),
  /** When priced (the stored breakdown): the margin, the rate used and the source's currency; null without one. */
  priced: margin.extend({ rate: z.string(), productCurrency: z.string() }).nullable(),
  /** The same price at today's rates, fees and shop rule; status against the shop's minimum (minMargin, %). */
  now: margin.extend({ rate: z.string(), status: z.enum(["negative", "low", "ok"]) }).nullable(),
  /** The formula's price today and its margin; nextListingPrice is what 重新定价 sets (the listing's currency). */
  suggested: margin.extend({ price: z.number().int(), nextListingPrice: z.number().int() }).nullable(),
  minMargin: z.string(),
  /** Why the margin cannot be computed now (no product, no rate, no fee…), in Chinese. */
  reason: z.string().nullable(),
});
export type MarginDriftRow = z.infer<typeof marginDriftRow>;

export const marginDriftPage = z.object({ items: z.array(marginDriftRow), totalCount: z.number().int(), totalCountCapped: z.boolean() });
export type MarginDriftPage = z.infer<typeof marginDriftPage>;

/** Reprice: the listings (ids, or the list's filter with the margin filter), and whether only to preview. */
export const repriceInput = z
  .object({
    ids: z.array(id).min(1).max(BATCH_EDIT_MAX).nullish(),
    filter: listingFilter.extend({ margin: marginFilter }).nullish(),
    dryRun: z.boolean().default(false),
  })
  .refine((v) => !!v.ids?.length || !!v.filter, { message: "select listings: ids or filter", path: ["ids"] });

/** The changes a preview lists at most (the counts cover all). */
export const REPRICE_PREVIEW_MAX = 200;

const repriceChange = z.object({
  id: z.string(),
  itemId: z.string().nullable(),
  title: z.string().nullable(),
  listingCurrency: z.string().nullable(),
  listingPrice: z.number().int().nullable(),
  nextListingPrice: z.number().int(),
  currency: z.string(),
  marginNow: margin.nullable(),
  marginNext: margin,
});
export type RepriceChange = z.infer<typeof repriceChange>;

/**
 * Reprice's answer: the selected listings, those whose price changes (the first REPRICE_PREVIEW_MAX listed), those the
 * formula cannot price (with the first reasons); applied, the batch task whose jobs set the prices (taskId; null on a
 * dry run or when nothing changes).
 */
export const repriceResult = z.object({
  dryRun: z.boolean(),
  taskId: z.string().nullable(),
  total: z.number().int(),
  changed: z.number().int(),
  unpriced: z.number().int(),
  changes: z.array(repriceChange),
  reasons: z.array(z.object({ id: z.string(), reason: z.string() })),
});
export type RepriceResult = z.infer<typeof repriceResult>;

/** UndoReprice: the reprice batch whose listings get back the prices it replaced. */
export const undoRepriceInput = z.object({ taskId: id });
