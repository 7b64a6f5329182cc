// The duplicate listing rule at publish time (shared/publish/duplicates.ts): PreflightPublish and Publish add a
// "duplicate" problem to each product × site already listed on the shop's site (an error that skips the pair unless the
// request asks for a copy). Publish then inserts its pending listings with ON CONFLICT DO NOTHING against the partial
// unique index of migration 0026: a listing another publish inserted meanwhile (not yet visible when the plans were
// read) makes the pair skipped too, so ten publishes at once make one item.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { listings } from "../../db/schema.ts";
import { duplicateProblem, LISTED_STATUSES } from "#shared/publish/duplicates.ts";
import type { ListingPlan } from "./types.ts";

const key = (productId: string, site: number) => `${productId}|${site}`;

/** The products' listings waiting, being published or live on the group's sites: product|site → item id (or null). */
async function listedOn(
  tx: Tx,
  tenantId: string,
  input: { productIds: string[]; groupId: string; sites: number[] },
): Promise<Map<string, string | null>> {
  if (!input.productIds.length) return new Map();
  const rows = await tx
    .select({ productId: listings.productId, site: listings.site, itemId: listings.itemId })
    .from(listings)
    .where(
      and(
        eq(listings.tenantId, tenantId),
        // One JSON parameter, not one per product: a publish asks for thousands (issue 29).
        sql`${listings.productId} in (select jsonb_array_elements_text(${JSON.stringify(input.productIds)}::jsonb)::uuid)`,
        eq(listings.accountGroupId, input.groupId),
        inArray(listings.site, input.sites),
        inArray(listings.status, [...LISTED_STATUSES]),
        // Not a batch still being written (batch-write.ts): its listings hold their pairs in the unique index, which
        // skips them as being published meanwhile, and are not yet anyone's to see.
        sql`(${listings.batchId} is null or ${listings.batchId} not in (
          select id from publish_batches where tenant_id = ${tenantId} and status < 0))`,
      ),
    )
    .orderBy(sql`${listings.itemId} is null`, listings.creationTime);
  const out = new Map<string, string | null>();
  for (const r of rows) if (!out.has(key(r.productId!, r.site))) out.set(key(r.productId!, r.site), r.itemId);
  return out;
}

/** Adds the duplicate problem to each plan whose product is already listed on its site (plans change in place). */
export async function markListed(
  tx: Tx,
  tenantId: string,
  input: { plans: Map<string, ListingPlan[]>; groupId: string; sites: number[]; allowDuplicate: boolean },
): Promise<number> {
  const listed = await listedOn(tx, tenantId, { productIds: [...input.plans.keys()], groupId: input.groupId, sites: input.sites });
  let marked = 0;
  for (const [productId, plans] of input.plans)
    for (const p of plans) {
      const k = key(productId, p.site);
      if (!listed.has(k)) continue;
      p.problems.push(duplicateProblem(listed.get(k) ?? null, input.allowDuplicate));
      marked++;
    }
  return marked;
}

/** The problem of a pair whose pending listing another publish inserted first (seen only by the unique index). */
export const listedMeanwhile = () => duplicateProblem(null, false);
