// Publish's batch: a listing per product × site (Pending, or Skipped with the pre-flight's reasons, an already listed
// product's among them: duplicates.ts) and one job per product with a pending listing. The listing's id is its publish
// key. Written before the call's transaction in chunks of their own (batch-write.ts), or here in the call's one when
// nothing was written before it. The listings go in through one JSON parameter per chunk (building a 1,000-row insert
// with drizzle's parameters took 130+ ms of synchronous work: batch-insert.ts), and the loops over thousands of rows
// give the event loop back every few ms (issue 29).
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { publishBatches } from "../../db/schema.ts";
import { turnPause } from "../../turns.ts";
import type { CallContext } from "../../http/calls.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import type { PublishRequest, PublishResult } from "#shared/contract/publish.ts";
import { DUPLICATE_PROBLEM_CODE } from "#shared/publish/duplicates.ts";
import { announce, batchView } from "./batch-state.ts";
import type { PublishJob } from "./publish-job.ts";
import { PUBLISH_JOB, PUBLISH_MAX_PRODUCTS } from "./constants.ts";
import { listedMeanwhile, markListed } from "./duplicates.ts";
import { rememberCategoryPicks } from "../category-mappings/index.ts";
import type { ListingPlan, Planner, PublishingDeps, ShopAccount } from "./types.ts";
import { insertRows, LISTING_CHUNK, type ListingRow } from "./batch-insert.ts";

/** What a batch is written from: the shop group, the products taken, their sites' shops and how many were selected. */
export type BatchInput = {
  group: { id: string; name: string | null };
  productIds: string[];
  siteAccounts: ShopAccount[];
  selected: number;
};

/**
 * The batch's listings, one per product × site: the plans (`plan`), the duplicate rule's problem on pairs already
 * listed (duplicates.ts), each row Pending or Skipped with its reasons. Reads only.
 */
export async function listingRows(
  tx: Tx,
  who: { tenantId: string; creatorId: string },
  request: PublishRequest,
  input: BatchInput,
  batchId: string,
  plan: Planner,
): Promise<ListingRow[]> {
  const { group, productIds, siteAccounts } = input;
  const tenantId = who.tenantId;
  const plans = await plan(tx, { tenantId, request, productIds, accounts: siteAccounts });
  await markListed(tx, tenantId, { plans, groupId: group.id, sites: request.sites, allowDuplicate: request.isAllowDuplicate });
  const owners = new Map(
    rowsOf<{ id: string; userId: string }>(
      await tx.execute(sql`select id, user_id as "userId" from products
        where tenant_id = ${tenantId} and id in (select jsonb_array_elements_text(${JSON.stringify(productIds)}::jsonb)::uuid)`),
    ).map((p) => [p.id, p.userId]),
  );
  const rows: ListingRow[] = [];
  const pause = turnPause();
  for (const productId of productIds) {
    await pause();
    for (const p of plans.get(productId) ?? []) {
      rows.push({
        tenantId,
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
        image: p.item?.pictures[0] ?? null,
        stock: p.item?.stock ?? null,
        duplicateAllowed: request.isAllowDuplicate,
        creatorId: who.creatorId,
        ...outcomeOf(p.problems),
      });
    }
  }
  return rows;
}

/**
 * Publish in one transaction (the call's): the batch, its listings, its jobs. Taken when Publish's work before the
 * transaction wrote no batch (batch-write.ts, which writes it over several short transactions).
 */
export async function createBatch(
  deps: Pick<PublishingDeps, "jobs">,
  ctx: CallContext,
  request: PublishRequest,
  input: BatchInput,
  plan: Planner,
): Promise<PublishResult> {
  const batchId = randomUUID();
  const rows = await listingRows(ctx.tx, { tenantId: ctx.tenantId, creatorId: ctx.user!.id }, request, input, batchId, plan);
  await insertListings(ctx.tx, rows);
  const skipped = rows.filter((r) => r.status === ListingStatus.Skipped).length;
  const [batch] = await ctx.tx
    .insert(publishBatches)
    .values({
      tenantId: ctx.tenantId,
      id: batchId,
      accountGroupId: input.group.id,
      sites: request.sites,
      status: skipped === rows.length ? PublishBatchStatus.Failed : PublishBatchStatus.Queued,
      total: rows.length,
      skipped,
      request,
      creatorId: ctx.user!.id,
    })
    .returning();
  return startBatch(deps, ctx, request, { ...input, batch, ...tally(rows) });
}

/** What the written listings come to: how many skipped, how many for a product already listed, the products to publish. */
export function tally(rows: ListingRow[]): { skipped: number; alreadyListed: number; toPublish: string[] } {
  return {
    skipped: rows.filter((r) => r.status === ListingStatus.Skipped).length,
    alreadyListed: rows.filter((r) => r.problems.some(isDuplicateRefusal)).length,
    toPublish: [...new Set(rows.filter((r) => r.status === ListingStatus.Pending).map((r) => r.productId))],
  };
}

/**
 * The end of Publish, in the call's transaction with the batch in its state: the categories picked are remembered
 * against the products' source categories, the batch is announced, its jobs are queued; answers the batch.
 */
export async function startBatch(
  deps: Pick<PublishingDeps, "jobs">,
  ctx: CallContext,
  request: PublishRequest,
  done: BatchInput & { batch: typeof publishBatches.$inferSelect; alreadyListed: number; toPublish: string[] },
): Promise<PublishResult> {
  const { batch, group, productIds } = done;
  const picks = request.cateInfo.flatMap((c) => productIds.map((productId) => ({ productId, site: c.site, cateId: c.cateId })));
  await rememberCategoryPicks(ctx.tx, ctx.tenantId, picks);
  await announce(ctx.tx, ctx.tenantId, batch.id, batch);
  await deps.jobs.sendMany<PublishJob>(
    PUBLISH_JOB,
    done.toPublish.map((productId) => ({ tenantId: ctx.tenantId, batchId: batch.id, productId })),
    { tx: ctx.tx },
  );
  return { ...batchView(batch, group.name), ...resultNotice(done.selected, productIds.length, done.alreadyListed) };
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

/** The pending rows `inserted` left out (a pair another publish holds since the plans were read) become skipped. */
export function skipHeldElsewhere(pending: ListingRow[], inserted: Set<string>): ListingRow[] {
  const held = pending.filter((r) => !inserted.has(r.id));
  for (const r of held) Object.assign(r, outcomeOf([...r.problems, listedMeanwhile()]));
  return held;
}

/**
 * Writes the batch's listings in `tx`, in chunks of one statement each: the pending ones first; a pair another publish
 * holds since the plans were read is written skipped instead (rows change in place, so the batch counts them).
 */
async function insertListings(tx: Tx, rows: ListingRow[]) {
  const pause = turnPause();
  const pending = rows.filter((r) => r.status === ListingStatus.Pending);
  for (let i = 0; i < pending.length; i += LISTING_CHUNK) {
    const chunk = pending.slice(i, i + LISTING_CHUNK);
    skipHeldElsewhere(chunk, await insertRows(tx, chunk, true));
    await pause();
  }
  const skipped = rows.filter((r) => r.status === ListingStatus.Skipped);
  for (let i = 0; i < skipped.length; i += LISTING_CHUNK) {
    await insertRows(tx, skipped.slice(i, i + LISTING_CHUNK), false);
    await pause();
  }
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
