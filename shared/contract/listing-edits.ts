// Listing edits (spec §3 Listings: status change, batch price; §7 MeliStat / MeliStatNew UpdateMarketPrice,
// UpdateMarketTitle, UpdateMarketDescription, UpOrDownMarket, DeleteMarket, RemoveStat, RemoveStats, BatchDelete,
// BatchUpdatePriceDirect, BatchUpdateMeliPrice, BatchUpdateStock, BatchUp, BatchDown, BatchUpdateTitle,
// BatchUpdateDescription, BatchUpdateWeight, BatchUpdateImage). A single call changes one listing on Mercado Libre and answers what happened; a batch call
// answers a task at once and its jobs change each listing (done, refused with the marketplace's reason, or skipped
// because the value is already the target).
import { z } from "zod";
import { id } from "./common.ts";
import { ListingStatus } from "./enums.ts";
import { listingFilter, listingRow } from "./listings.ts";

const price = z.number().positive().max(1e12);
const stock = z.number().int().min(0).max(99_999);
const title = z.string().trim().min(1).max(255);
const description = z.string().max(50_000);

/** What a listing edit did: changed it, was refused by Mercado Libre, or nothing to do (already the target). */
export const EditOutcome = { Done: "done", Refused: "refused", Skipped: "skipped" } as const;
export type EditOutcome = (typeof EditOutcome)[keyof typeof EditOutcome];

export const updateMarketPriceInput = z.object({ id, price });
export const updateMarketTitleInput = z.object({ id, title });
export const updateMarketDescriptionInput = z.object({ id, description });
/** Status change (spec §3): id, status (Active to put it up, Paused to take it down). */
export const upOrDownMarketInput = z.object({
  id,
  status: z.union([z.literal(ListingStatus.Active), z.literal(ListingStatus.Paused)]),
});
export const listingIdInput = z.object({ id });
export const listingIdsInput = z.object({ ids: z.array(id).min(1).max(1000) });

/** A single call's answer: what happened and the listing as stored afterwards (what Mercado Libre holds when done). */
export const editResult = z.object({
  outcome: z.enum(["done", "refused", "skipped"]),
  /** Why it was refused (Mercado Libre's reason, in Chinese) or skipped. */
  reason: z.string().nullable(),
  listing: listingRow.nullable(),
});
export type EditResult = z.infer<typeof editResult>;

/** RemoveStats / BatchDelete: how many records were removed (the listings stay on Mercado Libre). */
export const removedCount = z.object({ removed: z.number().int() });

/** Listings one batch call may take (a larger selection is refused: narrow the filter). */
export const BATCH_EDIT_MAX = 10_000;

/** A batch's listings: the ids, or the list's filter as GetMeliStatsByPage takes it (one of the two). */
const selection = {
  ids: z.array(id).min(1).max(BATCH_EDIT_MAX).nullish(),
  filter: listingFilter.nullish(),
};
const chosen = (v: { ids?: string[] | null; filter?: unknown }) => !!v.ids?.length || !!v.filter;
const selectionBase = z.object(selection);
const selected = <T extends z.ZodRawShape>(shape: T) =>
  selectionBase.extend(shape).refine(chosen, { message: "select listings: ids or filter", path: ["ids"] });

/**
 * BatchUpdatePriceDirect: `price` for every selected listing; `prices` gives some of them their own price instead (a
 * listing it names outside the selection is not selected by it).
 */
export const batchUpdatePriceDirectInput = z
  .object({
    ...selection,
    price,
    prices: z.array(z.object({ id, price })).max(BATCH_EDIT_MAX).nullish(),
  })
  .superRefine((v, ctx) => {
    if (!chosen(v)) ctx.addIssue({ code: "custom", message: "select listings: ids or filter", path: ["ids"] });
    if (v.prices && new Set(v.prices.map((p) => p.id)).size !== v.prices.length)
      ctx.addIssue({ code: "custom", message: "a listing is named twice", path: ["prices"] });
  });

/**
 * BatchUpdateMeliPrice (spec §3 batch price: ids, limitMinPrice): each listing re-priced from its product's price by its
 * shop's rules and the publish formula (shared/publish/price.ts sitePrice), with limitMinPrice (the listing's currency)
 * replacing the shop's minimum when given.
 */
export const batchUpdateMeliPriceInput = selected({ limitMinPrice: z.number().min(0).max(1e12).nullish() });
export const batchUpdateStockInput = selected({ stock });
export const batchSelectionInput = selected({});
export const batchUpdateTitleInput = selected({ title });
export const batchUpdateDescriptionInput = selected({ description });

/** A package size as the listing's `size` holds it: "LxWxH", whole centimetres (Mercado Libre's dimensions are whole). */
const packageSize = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[1-9]\d{0,3}x[1-9]\d{0,3}x[1-9]\d{0,3}$/, "size: LxWxH in whole centimetres, e.g. 20x15x10");
/**
 * BatchUpdateWeight: the package's weight (grams) and, optionally, its size ("LxWxH" cm): local items take them as
 * their shipping dimensions, cross-border ones as the global item's PACKAGE_* attributes.
 */
export const batchUpdateWeightInput = selected({
  weight: z.number().int().positive().max(1_000_000),
  size: packageSize.nullish(),
});

/** Pictures one item may have on Mercado Libre at most (a category may allow fewer: the rest are left out). */
export const BATCH_IMAGES_MAX = 12;
const pictureUrl = z
  .string()
  .trim()
  .max(2048)
  .regex(/^https?:\/\/[^\s/]+\/?\S*$/i, "a picture's http(s) URL");
/**
 * BatchUpdateImage: the pictures (URLs, in order, each once) that replace the selected items' pictures. Pictures known
 * to be under 500 px (the publish pre-flight's size cache) are left out; a call where every picture is known too small
 * is refused.
 */
export const batchUpdateImageInput = selectionBase
  .extend({ images: z.array(pictureUrl).min(1).max(BATCH_IMAGES_MAX) })
  .superRefine((v, ctx) => {
    if (!chosen(v)) ctx.addIssue({ code: "custom", message: "select listings: ids or filter", path: ["ids"] });
    if (new Set(v.images).size !== v.images.length) ctx.addIssue({ code: "custom", message: "a picture is named twice", path: ["images"] });
  });

/** A batch call's answer: the task (task centre, event stream) and how many listings it took. */
export const batchEditTask = z.object({ taskId: z.string(), total: z.number().int() });
export type BatchEditTask = z.infer<typeof batchEditTask>;

/**
 * What a batch task's content holds (task_infos.content, JSON): the edit, its counts so far and the first refusals.
 * outcome: running, succeeded (every listing done or skipped), partial (some refused or failed, some done), failed
 * (none done and some refused or failed).
 */
export type BatchEditState = {
  kind: "listingEdit";
  op: string;
  total: number;
  done: number;
  refused: number;
  skipped: number;
  outcome: "running" | "succeeded" | "partial" | "failed";
  /** The first refusals (at most BATCH_REFUSALS_KEPT): the listing, its item and the reason in Chinese. */
  refusals: { listingId: string; itemId: string | null; reason: string }[];
};
export const BATCH_REFUSALS_KEPT = 100;

/** PreviewMeliPrice (ours): what BatchUpdateMeliPrice would set on a few listings, computed now, nothing changed. */
const PREVIEW_MELI_PRICE_MAX = 5;
export const previewMeliPriceInput = z.object({
  ids: z.array(id).min(1).max(PREVIEW_MELI_PRICE_MAX),
  limitMinPrice: z.number().min(0).max(1e12).nullish(),
});
const meliPricePreview = z.object({
  id: z.string(),
  itemId: z.string().nullable(),
  site: z.number().int(),
  /** The listing's price and currency now. */
  price: z.number().nullable(),
  currency: z.string().nullable(),
  /** What the formula gives (the listing's currency); null with the reason when it cannot be priced. */
  next: z.number().nullable(),
  reason: z.string().nullable(),
});
export const meliPricePreviews = z.array(meliPricePreview);
export type MeliPricePreview = z.infer<typeof meliPricePreview>;
