// Publish: writes, in one transaction, the batch, a listing per product × site (Pending, or Skipped with the
// pre-flight's reasons, an already listed product's among them: duplicates.ts) and one job per product with a pending
// listing. The listing's id is its publish key.
import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { listings, products, publishBatches } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { ListingStatus, PublishBatchStatus } from "../../../shared/contract/enums.ts";
import type { PublishRequest, PublishResult } from "../../../shared/contract/publish.ts";
import { DUPLICATE_PROBLEM_CODE } from "../../../shared/publish/duplicates.ts";
import { announce, batchView } from "./batch-state.ts";
import type { PublishJob } from "./publish-job.ts";
import { PUBLISH_JOB, PUBLISH_MAX_PRODUCTS } from "./constants.ts";
import { listedMeanwhile, markListed } from "./duplicates.ts";
import { rememberCategoryPicks } from "../category-mappings/store.ts";
import type { ListingPlan, Planner, PublishingDeps, ShopAccount } from "./service.ts";

export async function createBatch(
  deps: Pick<PublishingDeps, "jobs">,
  ctx: CallContext,
  request: PublishRequest,
  resolved: { group: { id: string; name: string | null }; productIds: string[]; siteAccounts: ShopAccount[]; selected: number },
  plan: Planner,
): Promise<PublishResult> {
  const { group, productIds, siteAccounts } = resolved;
  const plans = await plan(ctx.tx, { tenantId: ctx.tenantId, request, productIds, accounts: siteAccounts });
  await markListed(ctx.tx, ctx.tenantId, { plans, groupId: group.id, sites: request.sites, allowDuplicate: request.isAllowDuplicate });
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
        price: p.item ? p.item.price.toFixed(2) : null,
        currency: p.item?.currency ?? null,
        priceContent: p.priceContent ?? null,
        listingType: request.listingType,
        weight: null,
        image: p.item?.pictures[0] ?? null,
        stock: p.item?.stock ?? null,
        duplicateAllowed: request.isAllowDuplicate,
        creatorId: ctx.user!.id,
        ...outcomeOf(p.problems),
      });
    }
  }
  await insertListings(ctx, rows);
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
  const alreadyListed = rows.filter((r) => (r.problems as ListingPlan["problems"]).some(isDuplicateRefusal)).length;
  return { ...batchView(batch, group.name), ...resultNotice(resolved.selected, productIds.length, alreadyListed) };
}

const isDuplicateRefusal = (x: ListingPlan["problems"][number]) => x.code === DUPLICATE_PROBLEM_CODE && x.severity === "error";

/** A listing's status and reasons from its plan's problems: skipped with the errors' messages, else pending. */
function outcomeOf(problems: ListingPlan["problems"]) {
  const refused = problems.filter((x) => x.severity === "error");
  const warnings = problems.filter((x) => x.severity === "warning");
  return {
    status: refused.length ? ListingStatus.Skipped : ListingStatus.Pending,
    reason: refused.length ? refused.map((x) => x.message).join("；") : null,
    problems,
    warningMessage: warnings.map((x) => x.message).join("；") || null,
  };
}

/**
 * Writes the batch's listings. The pending ones go in with ON CONFLICT DO NOTHING against the one-listing-per-shop-site
 * index (migration 0026): a pair another publish holds since the plans were read is written skipped instead (rows
 * change in place, so the batch counts them as skipped).
 */
async function insertListings(ctx: CallContext, rows: (typeof listings.$inferInsert)[]) {
  const pending = rows.filter((r) => r.status === ListingStatus.Pending);
  const inserted = new Set<string>();
  for (let i = 0; i < pending.length; i += 1000) {
    const done = await ctx.tx
      .insert(listings)
      .values(pending.slice(i, i + 1000))
      .onConflictDoNothing()
      .returning({ id: listings.id });
    for (const d of done) inserted.add(d.id);
  }
  for (const r of pending)
    if (!inserted.has(r.id!)) Object.assign(r, outcomeOf([...(r.problems as ListingPlan["problems"]), listedMeanwhile()]));
  const skipped = rows.filter((r) => r.status === ListingStatus.Skipped);
  for (let i = 0; i < skipped.length; i += 1000) await ctx.tx.insert(listings).values(skipped.slice(i, i + 1000));
}

/** Publish's counts and notice (shared/contract/publish.ts publishResult). */
function resultNotice(selected: number, taken: number, alreadyListed: number) {
  const notes = [
    selected > taken
      ? `所选 ${selected} 个商品超过单批上限 ${PUBLISH_MAX_PRODUCTS} 个，本批只刊登最新创建的 ${taken} 个，其余请再次刊登`
      : null,
    alreadyListed ? `${alreadyListed} 个商品站点已在此店铺刊登，已跳过；如需再刊登一份，请勾选“允许重复刊登”` : null,
  ].filter(Boolean);
  return { selected, taken, alreadyListed, notice: notes.join("；") || null };
}
