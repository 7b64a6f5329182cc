// The marketplace call log (spec §7 MeliStatLog): every Mercado Libre call made for a listing, tokens scrubbed.
import { z } from "zod";
import { id, isoDate, pagedQuery } from "./common.ts";

const meliCallLog = z.object({
  id: z.string(),
  accountGroupId: z.string().nullable(),
  listingId: z.string().nullable(),
  batchId: z.string().nullable(),
  /** Our site number (1-5); null for a call not tied to a site. */
  site: z.number().int().nullable(),
  method: z.string(),
  path: z.string(),
  /** The HTTP status answered; null when no answer came (a network failure). */
  status: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  /** Ours (issue 32): why the call was made, when a repricing (重新定价, automatic or undone) made it. */
  reason: z.string().nullable(),
  creationTime: z.string(),
});
export type MeliCallLog = z.infer<typeof meliCallLog>;

/** GetLogDetail: the row with the request and the answer as stored (scrubbed, each cut at MELI_LOG_BODY_MAX_BYTES). */
export const meliCallLogDetail = meliCallLog.extend({ request: z.string().nullable(), response: z.string().nullable() });
export type MeliCallLogDetail = z.infer<typeof meliCallLogDetail>;

/** A stored request or answer body is cut past this many bytes (UTF-8), with a note saying so. */
export const MELI_LOG_BODY_MAX_BYTES = 64 * 1024;

export const getLogDetailQuery = z.object({ id });

export const getLogsByPageQuery = pagedQuery(["creationTime", "status", "durationMs", "site"]).extend({
  /** The shop group (the spec spells it AccountgroupId). */
  AccountgroupId: id.optional(),
  /** Call time from (inclusive). */
  StartTime: isoDate.optional(),
  /** Call time up to (inclusive). */
  EndTime: isoDate.optional(),
  /** Ours: the calls of one listing or one publish batch (the publish records open a listing's calls). */
  ListingId: id.optional(),
  BatchId: id.optional(),
});

/** totalCount is exact up to MELI_LOG_COUNT_CAP matching calls, then capped (totalCountCapped), as the task list. */
export const MELI_LOG_COUNT_CAP = 1_000;
export const meliCallLogPage = z.object({
  items: z.array(meliCallLog),
  totalCount: z.number().int(),
  totalCountCapped: z.boolean(),
});
export type MeliCallLogPage = z.infer<typeof meliCallLogPage>;
