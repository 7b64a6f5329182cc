// Publish: writes, in one transaction, the batch, a listing per product × site (Pending, or Skipped with the
// pre-flight's reasons) and one job per product with a pending listing. The listing's id is its publish key.
import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { listings, products, publishBatches } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { ListingStatus, PublishBatchStatus } from "../../../shared/contract/enums.ts";
import type { PublishBatch, PublishRequest } from "../../../shared/contract/publish.ts";
import { announce, batchView } from "./batch-state.ts";
import type { PublishJob } from "./publish-job.ts";
import { PUBLISH_JOB } from "./constants.ts";
import { rememberCategoryPicks } from "../category-mappings/store.ts";
import type { Planner, PublishingDeps, ShopAccount } from "./service.ts";

export async function createBatch(
  deps: Pick<PublishingDeps, "jobs">,
  ctx: CallContext,
  request: PublishRequest,
  resolved: { group: { id: string; name: string | null }; productIds: string[]; siteAccounts: ShopAccount[] },
  plan: Planner,
): Promise<PublishBatch> {
  const { group, productIds, siteAccounts } = resolved;
  const plans = await plan(ctx.tx, { tenantId: ctx.tenantId, request, productIds, accounts: siteAccounts });
  // The categories the seller picked on the publish screen are remembered against the products' source categories.
  const picks = request.cateInfo.flatMap((c) => productIds.map((productId) => ({ productId, site: c.site, cateId: c.cateId })));
  await rememberCategoryPicks(ctx.tx, ctx.tenantId, picks);

  const batchId = randomUUID();
  const owners = new Map(
    (
      await ctx.tx
        .select({ id: products.id, userId: products.userId })
        .from(products)
        .where(and(eq(products.tenantId, ctx.tenantId), inArray(products.id, productIds)))
    ).map((p) => [p.id, p.userId]),
  );
  const rows: (typeof listings.$inferInsert)[] = [];
  for (const productId of productIds) {
    for (const p of plans.get(productId) ?? []) {
      const refused = p.problems.filter((x) => x.severity === "error");
      rows.push({
        tenantId: ctx.tenantId,
        id: randomUUID(),
        batchId,
        accountGroupId: group.id,
        accountId: p.accountId,
        userId: owners.get(productId)!,
        productId,
        productLabelId: request.productLabel ?? null,
        site: p.site,
        cateId: p.cateId,
        cateName: p.cateName,
        title: p.item?.title || null,
        status: refused.length ? ListingStatus.Skipped : ListingStatus.Pending,
        price: p.item ? p.item.price.toFixed(2) : null,
        currency: p.item?.currency ?? null,
        priceContent: p.priceContent ?? null,
        reason: refused.length ? refused.map((x) => x.message).join("；") : null,
        problems: p.problems,
        warningMessage:
          p.problems
            .filter((x) => x.severity === "warning")
            .map((x) => x.message)
            .join("；") || null,
        listingType: request.listingType,
        weight: null,
        image: p.item?.pictures[0] ?? null,
        stock: p.item?.stock ?? null,
        creatorId: ctx.user!.id,
      });
    }
  }
  for (let i = 0; i < rows.length; i += 1000) await ctx.tx.insert(listings).values(rows.slice(i, i + 1000));
  const skipped = rows.filter((r) => r.status === ListingStatus.Skipped).length;
  const [batch] = await ctx.tx
    .insert(publishBatches)
    .values({
      tenantId: ctx.tenantId,
      id: batchId,
      accountGroupId: group.id,
      sites: request.sites,
      status: skipped === rows.length ? PublishBatchStatus.Failed : PublishBatchStatus.Queued,
      total: rows.length,
      skipped,
      request,
      creatorId: ctx.user!.id,
    })
    .returning();
  await announce(ctx.tx, ctx.tenantId, batchId, batch);
  const toPublish = new Set(rows.filter((r) => r.status === ListingStatus.Pending).map((r) => r.productId!));
  await deps.jobs.sendMany<PublishJob>(
    PUBLISH_JOB,
    [...toPublish].map((productId) => ({ tenantId: ctx.tenantId, batchId, productId })),
    { tx: ctx.tx },
  );
  return batchView(batch, group.name);
}
