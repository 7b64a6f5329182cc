// The shapes a listing edit is made of: the edit itself, the listing it reaches, what it came to, and what the edit
// service is built from. Shared by the applier (edit-apply.ts) and the calls and jobs that run it (edits.ts).
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import type { listings } from "../../db/schema.ts";
import type { Jobs } from "../../jobs/queue.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import type { MeliLogService } from "../meli-logs/index.ts";
import type { PictureFetchOptions } from "../publishing/index.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import type { EditOutcome } from "#shared/contract/listing-edits.ts";

/** One edit of a listing. */
export type Edit =
  /**
   * content: the price breakdown stored with the price (Reprice: the formula's; its undo: the one it replaced); reason:
   * why (a repricing, manual or automatic), kept with the marketplace calls in the listing's log.
   */
  | { op: "price"; price: number; content?: unknown; reason?: string }
  | { op: "meliPrice"; limitMinPrice: number | null }
  | { op: "title"; title: string }
  | { op: "description"; description: string }
  | { op: "status"; status: "active" | "paused" }
  | { op: "stock"; stock: number }
  /** Grams; size "LxWxH" (whole cm), null to keep the listing's. */
  | { op: "weight"; weight: number; size: string | null }
  /** Picture URLs in order, those known too small already left out. */
  | { op: "images"; images: string[] }
  | { op: "delete" };

export type ListingRow = typeof listings.$inferSelect;
export type Target = { listing: ListingRow; isCbt: boolean };
export type Outcome = { outcome: EditOutcome; reason: string | null };

export type ListingEditDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  log: FastifyBaseLogger;
  /** The picture size probe's address guard, as publishing's (CRAWL_ALLOW_PRIVATE). */
  pictures?: PictureFetchOptions;
  /** The marketplace call log's recorder (the meli-logs service's, handed over by deps.ts). */
  callLog: Pick<MeliLogService, "recordListingCalls">;
};

/** Listings an edit can reach: on Mercado Libre (an item id) and not closed. */
export const ON_MARKET: number[] = [ListingStatus.Active, ListingStatus.Paused, ListingStatus.UnderReview];

/** A size as "LxWxH" (lower-case x), or null when it is not three numbers. */
export function sizeText(size: string | null | undefined): string | null {
  const sides = (size ?? "")
    .trim()
    .split(/\s*[xX*×]\s*/)
    .map(Number);
  return sides.length === 3 && sides.every((n) => Number.isFinite(n) && n > 0) ? sides.join("x") : null;
}
