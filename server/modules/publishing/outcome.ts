// What a publish job records for a listing: its outcome and the marketplace calls that led to it, the GTIN codes it
// takes from the pool (and gives back when no item carries them), and Mercado Libre's refusal as listing problems.
import { and, eq } from "drizzle-orm";
import { gtinCodes, listings } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { MeliExchange } from "../../integrations/mercadolibre/client.ts";
import type { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import { productsFollowListings } from "../products/index.ts";
import { refreshBatchIn } from "./batch-state.ts";
import type { ItemPlan } from "./item-body.ts";
import type { ListingPlan, PublishingDeps } from "./types.ts";

export type ListingRow = typeof listings.$inferSelect;

/** What recording an outcome uses: the database, the GTIN pool and the call log. */
export type OutcomeDeps = Pick<PublishingDeps, "database" | "gtin" | "callLog">;

/** Writes a listing's outcome and logs the marketplace calls that led to it, in one transaction. */
export async function finish(
  deps: OutcomeDeps,
  tenantId: string,
  listing: ListingRow,
  exchanges: MeliExchange[],
  set: Partial<typeof listings.$inferInsert>,
) {
  await inScope(deps.database.db, { tenantId }, async (tx) => {
    await tx
      .update(listings)
      .set({ ...set, syncTime: new Date(), lastModificationTime: new Date() })
      .where(and(eq(listings.tenantId, tenantId), eq(listings.id, listing.id)));
    // The product is 已发布 once the listing is live (and back when its last live listing is not).
    await productsFollowListings(tx, tenantId, [listing.productId]);
    // Codes taken for an item Mercado Libre did not create go back to the pool: no item carries them.
    if (set.status === ListingStatus.Refused || set.status === ListingStatus.Failed || set.status === ListingStatus.Skipped) {
      await tx
        .update(gtinCodes)
        .set({ listingId: null, usedTime: null })
        .where(and(eq(gtinCodes.tenantId, tenantId), eq(gtinCodes.listingId, listing.id)));
    }
    // Every marketplace call of a listing goes to the call log (MeliStatLog), tokens scrubbed by recordMeliCall.
    await deps.callLog.recordListingCalls(tx, listing, exchanges);
    // The batch's counts change in the same transaction: a listing is never seen settled while its batch is not.
    if (listing.batchId) await refreshBatchIn(tx, tenantId, listing.batchId);
  });
}

/** The calls made so far, logged before the queue retries the job (the listing stays as it is). */
export async function logCalls(deps: OutcomeDeps, tenantId: string, listing: ListingRow, exchanges: MeliExchange[]) {
  await inScope(deps.database.db, { tenantId }, (tx) => deps.callLog.recordListingCalls(tx, listing, exchanges));
}

/** The listing's GTIN codes: those an earlier attempt took, else new ones from the pool (never given twice). */
export async function gtinFor(deps: OutcomeDeps, tenantId: string, listingId: string, count: number): Promise<string[]> {
  const { gtin } = deps;
  return inScope(deps.database.db, { tenantId }, async (tx) => {
    const taken = await gtin.listingGtinCodes(tx, tenantId, listingId);
    return taken.length >= count ? taken : [...taken, ...(await gtin.takeGtinCodes(tx, tenantId, listingId, count - taken.length))];
  });
}

/** The codes go to the variants without a GTIN of their own, in order, or to the item when it has no variations. */
export function withCodes(item: ItemPlan, codes: string[]): ItemPlan {
  if (!item.variants.length) return { ...item, gtin: codes[0] ?? null };
  let next = 0;
  return { ...item, variants: item.variants.map((v) => (v.gtin ? v : { ...v, gtin: codes[next++] ?? null })) };
}

/** A listing that went live keeps the warnings of the plan it was sent with (a retry plans again). */
export function warningsOf(problems: ListingPlan["problems"]) {
  const warnings = problems.filter((x) => x.severity === "warning");
  return { problems: warnings, warningMessage: warnings.map((x) => x.message).join("；") || null };
}

/** Mercado Libre's causes as listing problems. */
export function meliProblems(err: MeliApiError): ListingPlan["problems"] {
  return (err.validationErrors ?? []).map((v) => ({ code: "meli", field: v.members[0] ?? null, message: v.message, severity: "error" }));
}

/** The pre-flight's refusal of a plan, or null when it can be sent. */
export function refusalOf(plan: ListingPlan | undefined): { reason: string; problems: ListingPlan["problems"] } | null {
  const refused = plan ? plan.problems.filter((x) => x.severity === "error") : [];
  if (plan?.item && !refused.length) return null;
  return { reason: refused.map((x) => x.message).join("；") || "刊登前检查未通过", problems: plan?.problems ?? [] };
}

/** The listing status of an item's Mercado Libre status. */
export function statusOf(meliStatus: string | undefined): ListingStatus {
  if (meliStatus === "paused") return ListingStatus.Paused;
  if (meliStatus === "closed") return ListingStatus.Closed;
  if (meliStatus === "under_review" || meliStatus === "inactive") return ListingStatus.UnderReview;
  return ListingStatus.Active;
}
