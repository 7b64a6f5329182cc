// Publishing (issue 15; spec §3 Listings, §7 MeliStat/MeliStatNew Publish). Publish checks the shop group and its sites,
// selects the products (ids or the product list's filter), plans every product × site (pre-flight and price, plan.ts)
// and writes the batch with its listings (before the call's transaction, in chunks of their own: batch-write.ts) and
// its jobs (batch-create.ts). Each job creates its product's items (publish-job.ts: submit-local.ts, submit-global.ts)
// and records what Mercado Libre answered; RetryPublish sends a finished batch's failures again (retry.ts). A
// listing's id is its publish key: sent as the item's seller_custom_field and as the creation's idempotency key, so a
// job retried after a crash finds the item its earlier attempt created instead of creating a second one.
import { and, count, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { meliAccountGroups, meliAccounts, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, businessError, notFound } from "../../http/errors.ts";
import { keyAnswered, readIdempotencyKey } from "../../http/idempotency.ts";
import type { Jobs } from "../../jobs/queue.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import {
  PREVIEW_MAX_PRODUCTS,
  type PreflightPairView,
  type PreflightResultView,
  type PublishRequest,
  type PublishResult,
} from "../../../shared/contract/publish.ts";
import { DUPLICATE_PROBLEM_CODE } from "../../../shared/publish/duplicates.ts";
import { markListed } from "./duplicates.ts";
import { MELI_SITES, type MeliSiteNumber } from "../../../shared/contract/meli.ts";
import { selectionWhere } from "../products/filter.ts";
import type { ItemPlan } from "./item-body.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { loadSessionUser } from "../identity/session-user.ts";
import { createBatch } from "./batch-create.ts";
import { dropUnfinished, finishWrittenBatch, sweepWrittenBatch, writeBatch, type SweepJob } from "./batch-write.ts";
import { ensureListingFees, feeKeysOf } from "./fees.ts";
import { probeImageSizes, productPictures, type PictureFetchOptions } from "./pictures.ts";
import { createPublishJob, type PublishJob } from "./publish-job.ts";
import { keptPlans, planInSlices } from "./plan-slices.ts";
import { retryPublish } from "./retry.ts";
import { PREVIEW_PROBE_MS, PUBLISH_CONCURRENCY, PUBLISH_JOB, PUBLISH_MAX_PRODUCTS, WRITING_SWEEP_JOB } from "./constants.ts";

// Other modules' imports of these stay as they were.
export { batchView, listingView } from "./batch-state.ts";
export { JOB_PROBE_MS, PREVIEW_PROBE_MS, PUBLISH_CONCURRENCY, PUBLISH_JOB, PUBLISH_MAX_PRODUCTS, RETRYABLE_STATUSES } from "./constants.ts";

export type PublishingDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  log: FastifyBaseLogger;
  secrets: SecretBox;
  /** The picture size probe's address guard (the crawler's: CRAWL_ALLOW_PRIVATE); private addresses refused without it. */
  pictures?: PictureFetchOptions;
};

/** What plan.ts decides for one product × site before anything is sent. */
export type ListingPlan = {
  site: number;
  accountId: string;
  cateId: string | null;
  cateName: string | null;
  problems: { code: string; field: string | null; message: string; severity: "error" | "warning" }[];
  item: Omit<ItemPlan, "key"> | null;
  priceContent: unknown;
  /** GTIN codes the listing takes from the pool (variants without their own, or the item). */
  gtinNeeded: number;
  /** Global selling: the global item's English title (the site's own title is item.title). */
  globalTitle: string | null;
  /** The title is still to be translated into the site's language (item.title is empty until then). */
  translate: { text: { from: string | null; text: string }; to: string; max: number } | null;
};

export type ShopAccount = { id: string; site: number; custId: string; isEnabled: boolean };

async function shopGroup(ctx: CallContext, groupId: string) {
  const u = ctx.user!;
  const [group] = await ctx.tx
    .select({ id: meliAccountGroups.id, isCbt: meliAccountGroups.isCbt, name: meliAccountGroups.name })
    .from(meliAccountGroups)
    .where(and(eq(meliAccountGroups.tenantId, ctx.tenantId), eq(meliAccountGroups.id, groupId)));
  if (!group) throw notFound("店铺不存在");
  const accounts: ShopAccount[] = await ctx.tx
    .select({ id: meliAccounts.id, site: meliAccounts.site, custId: meliAccounts.custId, isEnabled: meliAccounts.isEnabled })
    .from(meliAccounts)
    .where(
      and(
        eq(meliAccounts.tenantId, ctx.tenantId),
        eq(meliAccounts.groupId, groupId),
        u.isMainAccount ? undefined : eq(meliAccounts.ownerId, u.id),
      ),
    );
  // A sub-account publishes only through shops given to it.
  if (!accounts.length) throw notFound("店铺不存在");
  return { group, accounts };
}

export type Planner = (
  tx: Tx,
  input: { tenantId: string; request: PublishRequest; productIds: string[]; accounts: ShopAccount[] },
) => Promise<Map<string, ListingPlan[]>>;

export function createPublishingService(deps: PublishingDeps, plan: Planner) {
  /** The shop group, its account on each requested site, and the selected products (at most `limit`), or a 4xx. */
  async function resolve(ctx: CallContext, request: PublishRequest, limit: number) {
    const { group, accounts } = await shopGroup(ctx, request.accountGroupId);
    const bySite = new Map(accounts.filter((a) => a.isEnabled).map((a) => [a.site, a]));
    const missing = request.sites.filter((s) => !bySite.has(s));
    if (missing.length) {
      throw businessError(
        `该店铺未开通或已停用站点：${missing.map((s) => MELI_SITES[s as MeliSiteNumber]?.name ?? s).join("、")}`,
        "Publish.SiteNotAvailable",
      );
    }
    const where = selectionWhere(ctx, { productIds: request.productIds, filter: request.filter });
    const selected = await ctx.tx
      .select({ id: products.id })
      .from(products)
      .where(where)
      .orderBy(sql`${products.creationTime} desc`, products.id)
      .limit(Math.min(request.maxProductCount ?? limit, limit));
    if (!selected.length) throw businessError("没有可刊登的商品（所选商品不存在或已删除）", "Publish.NoProducts");
    return { group, productIds: selected.map((p) => p.id), siteAccounts: request.sites.map((s) => bySite.get(s)!), where };
  }

  /** How many products the request selects (cut to maxProductCount): counted only when the selection reached `limit`. */
  async function selectedCount(ctx: CallContext, request: PublishRequest, taken: number, where: SQL | undefined, limit: number) {
    if (taken < limit) return taken;
    const [{ n }] = await ctx.tx.select({ n: count() }).from(products).where(where);
    return Math.min(n, request.maxProductCount ?? n);
  }

  /**
   * Before PreflightPublish and Publish open their transaction (Mercado Libre is never called inside one): the
   * marketplace's fees for the request's categories and listing type, read into the cache when missing or older than
   * 24 h (fees.ts); the planner reads the cache. A request the call will refuse reads nothing.
   */
  async function readListingFees(call: Omit<CallContext, "tx" | "user">, request: PublishRequest, preview: boolean): Promise<void> {
    const principal = call.principal;
    if (!principal) return;
    const wanted = await inScope(deps.database.db, { tenantId: call.tenantId }, async (tx) => {
      const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
      const { group, productIds, siteAccounts } = await resolve(ctx, request, preview ? PREVIEW_MAX_PRODUCTS : PUBLISH_MAX_PRODUCTS);
      return { groupId: group.id, keys: await feeKeysOf(tx, { tenantId: call.tenantId, request, productIds, accounts: siteAccounts }) };
    }).catch((err: unknown) => {
      if (err instanceof AppError) return null; // the call's transaction answers it
      throw err;
    });
    if (wanted) await ensureListingFees(deps, { tenantId: call.tenantId, creatorId: principal.userId, ...wanted });
  }

  /** Before PreflightPublish's transaction: the selected products' pictures not in the size cache are probed (≤ 3 s). */
  async function probePreviewPictures(call: Omit<CallContext, "tx" | "user">, request: PublishRequest): Promise<void> {
    const principal = call.principal;
    if (!principal) return;
    const urls = await inScope(deps.database.db, { tenantId: call.tenantId }, async (tx) => {
      const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
      return productPictures(tx, call.tenantId, (await resolve(ctx, request, PREVIEW_MAX_PRODUCTS)).productIds);
    }).catch((err: unknown) => {
      if (err instanceof AppError) return []; // the call's transaction answers it
      throw err;
    });
    await probeImageSizes(deps.database.db, urls, { budgetMs: PREVIEW_PROBE_MS, fetch: deps.pictures });
  }

  /** PreflightPublish: every pair's problems, title and price, for the publish screen; nothing is written or sent. */
  async function preflightPublish(ctx: CallContext, request: PublishRequest): Promise<PreflightResultView> {
    const { group, productIds, siteAccounts, where } = await resolve(ctx, request, PREVIEW_MAX_PRODUCTS);
    const selected = await selectedCount(ctx, request, productIds.length, where, PREVIEW_MAX_PRODUCTS);
    const plans = await plan(ctx.tx, { tenantId: ctx.tenantId, request, productIds, accounts: siteAccounts });
    await markListed(ctx.tx, ctx.tenantId, { plans, groupId: group.id, sites: request.sites, allowDuplicate: request.isAllowDuplicate });
    const shown = await ctx.tx
      .select({ id: products.id, title: products.titleText, image: products.image })
      .from(products)
      .where(and(eq(products.tenantId, ctx.tenantId), inArray(products.id, productIds)));
    const byId = new Map(shown.map((p) => [p.id, p]));
    const pairs: PreflightPairView[] = productIds.flatMap((id) =>
      (plans.get(id) ?? []).map((p) => ({
        productId: id,
        productTitle: byId.get(id)?.title ?? "",
        image: byId.get(id)?.image ?? null,
        site: p.site,
        cateId: p.cateId,
        cateName: p.cateName,
        ok: !p.problems.some((x) => x.severity === "error"),
        title: p.item?.title || null,
        problems: p.problems,
        price: p.priceContent ?? null,
      })),
    );
    const ok = pairs.filter((p) => p.ok).length;
    const alreadyListed = pairs.filter((p) => p.problems.some((x) => x.code === DUPLICATE_PROBLEM_CODE)).length;
    return { selected, pairs, ok, refused: pairs.length - ok, alreadyListed };
  }

  async function publish(ctx: CallContext, request: PublishRequest): Promise<PublishResult> {
    const written = await finishWrittenBatch(deps, ctx, request);
    if (written) return written;
    const resolved = await resolve(ctx, request, PUBLISH_MAX_PRODUCTS);
    const selected = await selectedCount(ctx, request, resolved.productIds.length, resolved.where, PUBLISH_MAX_PRODUCTS);
    return createBatch(deps, ctx, request, { ...resolved, selected }, keptPlans(ctx.req, plan));
  }

  /**
   * Before Publish's transaction: the fees (readListingFees), then the plans in slices of short transactions
   * (plan-slices.ts), then the batch hidden and its listings in chunks of short transactions (batch-write.ts), so a
   * publish of 10,000 products never holds the database or the event loop for long. Nothing is written for a request
   * whose Idempotency-Key already answered (the call replays that answer) or that the call will refuse.
   */
  async function beforePublish(call: Omit<CallContext, "tx" | "user">, request: PublishRequest): Promise<void> {
    await readListingFees(call, request, false);
    const principal = call.principal;
    if (!principal) return;
    const key = readIdempotencyKey(call.req);
    const prepared = await inScope(deps.database.db, { tenantId: call.tenantId }, async (tx) => {
      if (key && (await keyAnswered(tx, { tenantId: call.tenantId, userId: principal.userId, key }))) return null;
      const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
      const { group, productIds, siteAccounts, where } = await resolve(ctx, request, PUBLISH_MAX_PRODUCTS);
      const selected = await selectedCount(ctx, request, productIds.length, where, PUBLISH_MAX_PRODUCTS);
      return { creatorId: ctx.user!.id, input: { group, productIds, siteAccounts, selected } };
    }).catch((err: unknown) => {
      if (err instanceof AppError) return null; // the call's transaction answers it
      throw err;
    });
    if (!prepared) return;
    const { input } = prepared;
    const of = input.productIds.length;
    await planInSlices(
      deps.database,
      call.req,
      { tenantId: call.tenantId, request, productIds: input.productIds, accounts: input.siteAccounts },
      plan,
      (planned) => deps.log.debug({ planned, of }, "publish: planned a slice"),
    );
    const who = { req: call.req, tenantId: call.tenantId, creatorId: prepared.creatorId, key };
    await writeBatch(deps, who, request, input, keptPlans(call.req, plan));
  }

  /** After Publish's transaction: a batch written before it that it did not make a batch is removed. */
  async function afterPublish(call: Omit<CallContext, "tx" | "user">): Promise<void> {
    await dropUnfinished(deps.database.db, call.req, call.tenantId);
  }

  deps.jobs.handle<SweepJob>(WRITING_SWEEP_JOB, (job) => sweepWrittenBatch(deps, job));
  const { runPublishJob, failPublishJob } = createPublishJob(deps, plan);
  // 12 at once per process: a worker waits its poll (0.5 s) between jobs, so 12 keep a seller's 1,200 calls a minute
  // busy (bench/RESULTS.md); the shared rate bucket keeps them under it. A job proves it is alive every 5 s.
  deps.jobs.handle<PublishJob>(PUBLISH_JOB, runPublishJob, {
    concurrency: PUBLISH_CONCURRENCY,
    heartbeatSeconds: 10,
    onLastFailure: failPublishJob,
  });

  return {
    publish,
    preflightPublish,
    retryPublish: (ctx: CallContext, input: { batchId: string; listingIds?: string[] | null }) => retryPublish(deps, ctx, input),
    runPublishJob,
    failPublishJob,
    readListingFees,
    beforePublish,
    afterPublish,
    probePreviewPictures,
  };
}

export type PublishingService = ReturnType<typeof createPublishingService>;
