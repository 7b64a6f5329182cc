// The listing an edit works on, read and written in short transactions of their own (Mercado Libre is never called
// inside one): the listing with its shop group's kind, what the edit needs from its product and category, and the
// store of what the edit found with the calls' log.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { listings, meliAccountGroups, meliCategories, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { MeliExchange } from "../../integrations/mercadolibre/client.ts";
import { productsFollowListings } from "../products/index.ts";
import { sizeText, type ListingEditDeps, type ListingRow, type Target } from "./edit-types.ts";

export function createEditTargets(db: Db, callLog: ListingEditDeps["callLog"]) {
  async function loadTarget(tenantId: string, listingId: string): Promise<Target | null> {
    return inScope(db, { tenantId }, async (tx) => {
      const [row] = await tx
        .select({ listing: listings, isCbt: meliAccountGroups.isCbt })
        .from(listings)
        .innerJoin(
          meliAccountGroups,
          and(eq(meliAccountGroups.tenantId, listings.tenantId), eq(meliAccountGroups.id, listings.accountGroupId)),
        )
        .where(and(eq(listings.tenantId, tenantId), eq(listings.id, listingId)));
      return row ?? null;
    });
  }

  /** The size of the listing's product ("LxWxH" in whole cm, as Mercado Envíos takes it), or null. */
  async function productSize(l: ListingRow): Promise<string | null> {
    if (!l.productId) return null;
    const productId = l.productId;
    const [p] = await inScope(db, { tenantId: l.tenantId }, (tx) =>
      tx
        .select({ size: products.size })
        .from(products)
        .where(and(eq(products.tenantId, l.tenantId), eq(products.id, productId))),
    );
    const size = sizeText(p?.size);
    return (
      size &&
      size
        .split("x")
        .map((n) => String(Math.ceil(Number(n))))
        .join("x")
    );
  }

  /** The pictures the listing's category takes at most (as the category sync stored it), or null when unknown. */
  async function maxPicturesOf(t: Target): Promise<number | null> {
    const l = t.listing;
    if (!l.cateId) return null;
    const cateId = l.cateId;
    const [c] = await inScope(db, { tenantId: l.tenantId }, (tx) =>
      tx
        .select({ max: meliCategories.maxPictures })
        .from(meliCategories)
        .where(and(eq(meliCategories.site, t.isCbt ? 5 : l.site), eq(meliCategories.cateId, cateId))),
    );
    return c?.max ?? null;
  }

  /** Writes what the edit found and logs its calls (with why they were made, when given), in one short transaction. */
  async function store(
    t: Target,
    exchanges: MeliExchange[],
    creatorId: string | null,
    set: Partial<typeof listings.$inferInsert>,
    shared?: Partial<typeof listings.$inferInsert>,
    reason?: string | null,
  ) {
    const l = t.listing;
    await inScope(db, { tenantId: l.tenantId }, async (tx) => {
      // Sites of one global item are edited side by side: every job locks the group's rows in one order first, so
      // two of them never hold one row each and wait on the other (a deadlock on PostgreSQL).
      if (shared && l.cbtId)
        await tx
          .select({ id: listings.id })
          .from(listings)
          .where(and(eq(listings.tenantId, l.tenantId), eq(listings.cbtId, l.cbtId)))
          .orderBy(listings.id)
          .for("update");
      if (Object.keys(set).length) {
        await tx
          .update(listings)
          .set({ ...set, lastModificationTime: new Date(), lastModifierId: creatorId })
          .where(and(eq(listings.tenantId, l.tenantId), eq(listings.id, l.id)));
        // Closed or reactivated: the product follows (已发布 while it has a live listing).
        if (set.status !== undefined) await productsFollowListings(tx, l.tenantId, [l.productId]);
      }
      // A global item's stock and package are every site's: its other site listings hold them too.
      if (shared && l.cbtId) {
        await tx
          .update(listings)
          .set({ ...shared, syncTime: new Date() })
          .where(and(eq(listings.tenantId, l.tenantId), eq(listings.cbtId, l.cbtId)));
      }
      await callLog.recordListingCalls(tx, l, exchanges, creatorId, reason);
    });
  }

  return { loadTarget, productSize, maxPicturesOf, store };
}

export type EditTargets = ReturnType<typeof createEditTargets>;
