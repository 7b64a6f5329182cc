// SyncMelistat: one listing, read from Mercado Libre before the call's transaction (sync-read.ts); the handler answers
// the stored row.
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { listings, meliCategories, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError, notFound } from "../../http/errors.ts";
import { loadSessionUser } from "../../http/session-user.ts";
import type { ListingRow } from "#shared/contract/listings.ts";
import { listingWhere, rowView, type ListingKind } from "./list.ts";
import { refColumns, type ListingRef, type SyncChunk } from "./sync-read.ts";

export type ListingSyncOneDeps = { database: Database; syncChunk: SyncChunk };

export function createListingSyncOne(deps: ListingSyncOneDeps) {
  async function syncOneBeforeTransaction(call: Omit<CallContext, "tx" | "user">, kind: ListingKind, listingId: string) {
    const principal = call.principal;
    if (!principal) return;
    const ref = await inScope(deps.database.db, { tenantId: call.tenantId }, async (tx) => {
      const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
      const [row] = await tx
        .select(refColumns)
        .from(listings)
        .where(and(listingWhere(ctx, kind, {}), eq(listings.id, listingId)));
      return row?.itemId ? (row as ListingRef) : null;
    });
    // Not visible or not on the marketplace: the handler answers it.
    if (!ref) return;
    const c = await deps.syncChunk(call.tenantId, ref.accountGroupId, [ref], principal.userId);
    // Mercado Libre did not answer the item: a failure with its reason, never the stored row as if synced.
    if (c.failed) throw businessError(`${ref.itemId} 同步失败：${c.reasons.join("；") || "美客多未返回该商品"}`, "Listing.SyncFailed");
  }

  async function syncOne(ctx: CallContext, kind: ListingKind, listingId: string): Promise<ListingRow> {
    const [row] = await ctx.tx
      .select({ listing: listings, productTitle: products.titleText, cateZh: meliCategories.zh })
      .from(listings)
      .leftJoin(products, and(eq(products.tenantId, listings.tenantId), eq(products.id, listings.productId)))
      .leftJoin(meliCategories, and(eq(meliCategories.site, listings.site), eq(meliCategories.cateId, listings.cateId)))
      .where(and(listingWhere(ctx, kind, {}), eq(listings.id, listingId)));
    if (!row) throw notFound("在线商品不存在");
    if (!row.listing.itemId) throw businessError("该刊登尚未在美客多上架，无法同步", "Listing.NotOnMarketplace");
    return rowView(row.listing, row.productTitle, row.cateZh);
  }

  return { syncOneBeforeTransaction, syncOne };
}
