// A product is 已发布 while it has a live listing and goes back to 待发布 when it has none (issue 28), so the product
// list's status filter says what is on Mercado Libre. Every writer that changes listings' status, or adds or removes
// listings, calls productsFollowListings with the products it touched, in its own transaction: one set-based UPDATE
// per chunk, scoped to the tenant. An archived product stays archived (the seller put it aside).
import { sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { ListingStatus, ProductStatus } from "#shared/contract/enums.ts";

/** On Mercado Libre: active, paused (also out of stock) or under review; closed, refused and unsent are not. */
const LIVE_LISTING_STATUSES = [ListingStatus.Active, ListingStatus.Paused, ListingStatus.UnderReview] as const;

const CHUNK = 1000;

/** Brings the given products' status to their listings: 已发布 with a live listing, 待发布 without (only rows that
 *  change are written). Null ids (listings imported without a product) are ignored. */
export async function productsFollowListings(tx: Tx, tenantId: string, productIds: Iterable<string | null | undefined>) {
  const ids = [...new Set([...productIds].filter((id): id is string => !!id))];
  const live = sql.join(
    LIVE_LISTING_STATUSES.map((s) => sql`${s}::int`),
    sql`, `,
  );
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = sql.join(
      ids.slice(i, i + CHUNK).map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    await tx.execute(sql`update products p
      set status = case when p.status = ${ProductStatus.Published}::int then ${ProductStatus.Ready}::int
        else ${ProductStatus.Published}::int end
      where p.tenant_id = ${tenantId} and p.id in (${chunk}) and p.is_deleted = false
        and p.status <> ${ProductStatus.Archived}::int
        and (p.status = ${ProductStatus.Published}::int) <> exists (
          select 1 from listings l where l.tenant_id = p.tenant_id and l.product_id = p.id and l.status in (${live}))`);
  }
}
