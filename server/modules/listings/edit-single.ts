// Single listing edits (UpdateMarketPrice, UpdateMarketTitle, UpdateMarketDescription, UpOrDownMarket, DeleteMarket):
// the edit runs before the call's own transaction (beforeTransaction) and the handler answers what it did; and the
// removal of listing records (RemoveStat, RemoveStats, BatchDelete), in the call's transaction.
import { and, eq, inArray } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { listings } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, businessError, notFound } from "../../http/errors.ts";
import type { EditResult } from "#shared/contract/listing-edits.ts";
import { loadSessionUser } from "../../http/session-user.ts";
import { productsFollowListings } from "../products/index.ts";
import type { EditApplier } from "./edit-apply.ts";
import type { Edit, ListingEditDeps, ListingRow, Outcome } from "./edit-types.ts";
import { listingWhere, rowView, type ListingKind } from "./list.ts";

/** Outcomes a single call's beforeTransaction leaves for its handler. */
const singleOutcomes = new WeakMap<FastifyRequest, Outcome>();

/** A single call's listing, visible to the caller in this list, or a 404. */
async function visibleListing(ctx: CallContext, kind: ListingKind, id: string): Promise<ListingRow> {
  const [row] = await ctx.tx
    .select()
    .from(listings)
    .where(and(listingWhere(ctx, kind, {}), eq(listings.id, id)));
  if (!row) throw notFound("刊登不存在");
  return row;
}

export function createSingleEdits(deps: Pick<ListingEditDeps, "database">, applier: Pick<EditApplier, "loadTarget" | "applyEdit">) {
  const db = deps.database.db;

  /** Runs the edit before the call's transaction; the handler answers it (`answerSingle`). */
  async function runSingle(call: Omit<CallContext, "tx" | "user">, kind: ListingKind, id: string, edit: Edit): Promise<void> {
    const principal = call.principal;
    if (!principal) return;
    const found = await inScope(db, { tenantId: call.tenantId }, async (tx) => {
      const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
      return visibleListing(ctx, kind, id);
    }).catch((err: unknown) => {
      if (err instanceof AppError) return null; // the call's transaction answers it
      throw err;
    });
    if (!found) return;
    const target = await applier.loadTarget(call.tenantId, found.id);
    if (!target) return;
    singleOutcomes.set(call.req, await applier.applyEdit(target, edit, principal.userId));
  }

  async function answerSingle(ctx: CallContext, kind: ListingKind, id: string): Promise<EditResult> {
    const row = await visibleListing(ctx, kind, id);
    const outcome = singleOutcomes.get(ctx.req);
    if (!outcome) throw notFound("刊登不存在");
    if (outcome.outcome === "refused") throw businessError(outcome.reason ?? "美客多拒绝了修改", "Listing.Refused");
    return { ...outcome, listing: rowView(row, null) };
  }

  /** RemoveStat / RemoveStats / BatchDelete: the records only; the listings stay on Mercado Libre. */
  async function removeRecords(ctx: CallContext, kind: ListingKind, ids: string[]): Promise<{ removed: number }> {
    const gone = await ctx.tx
      .delete(listings)
      .where(and(listingWhere(ctx, kind, {}), inArray(listings.id, ids)))
      .returning({ id: listings.id, productId: listings.productId });
    // A product whose last live listing's record is removed is no longer shown as 已发布.
    await productsFollowListings(
      ctx.tx,
      ctx.tenantId,
      gone.map((g) => g.productId),
    );
    return { removed: gone.length };
  }

  return { runSingle, answerSingle, removeRecords };
}
