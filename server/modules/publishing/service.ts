// Publishing (issue 15; spec §3 Listings, §7 MeliStat/MeliStatNew Publish). Publish checks the shop group and its sites,
// selects the products (ids or the product list's filter), plans every product × site (pre-flight and price, plan.ts)
// and writes, in one transaction, the batch, a listing per product × site (Pending, or Skipped with the pre-flight's
// reasons) and one job per product. The job creates each pending listing's item and records what Mercado Libre
// answered. A listing's id is its publish key: sent as the item's seller_custom_field and as the creation's idempotency
// key, so a job retried after a crash finds the item its earlier attempt created instead of creating a second one.
import { randomUUID } from "node:crypto";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { rowsOf, type Database, type Tx } from "../../db/client.ts";
import { gtinCodes, listings, meliAccountGroups, meliAccounts, products, publishBatches } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, businessError, notFound } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import type { MeliClient, MeliExchange } from "../../integrations/mercadolibre/client.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { ListingStatus, PublishBatchStatus } from "../../../shared/contract/enums.ts";
import {
  PREVIEW_MAX_PRODUCTS,
  type Listing,
  type PreflightPairView,
  type PreflightResultView,
  type PublishBatch,
  type PublishRequest,
} from "../../../shared/contract/publish.ts";
import { MELI_SITES, type MeliSiteNumber } from "../../../shared/contract/meli.ts";
import { emitProgress } from "../events/progress.ts";
import { listingGtinCodes, takeGtinCodes } from "../gtin/service.ts";
import { recordListingCalls } from "../meli-logs/service.ts";
import { selectionWhere } from "../products/filter.ts";
import { globalItemBody, localItemBody, type ItemPlan } from "./item-body.ts";
import { createTranslator, readTranslateSettings } from "../../integrations/translate/index.ts";
import { TranslationError } from "../../integrations/translate/types.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { cutTitle, framedTitle } from "../../../shared/publish/preflight.ts";
import { loadSessionUser } from "../identity/session-user.ts";
import { ensureListingFees, feeKeysOf } from "./fees.ts";
import { probeImageSizes, probeProductPictures, productPictures, type PictureFetchOptions } from "./pictures.ts";

export const PUBLISH_JOB = "publish.product";
/** Publish jobs running at once in each process (see the handler's registration). */
export const PUBLISH_CONCURRENCY = 12;
/** Products one batch may take (a larger selection is cut, and the batch says how many it took). */
export const PUBLISH_MAX_PRODUCTS = 10_000;
/** The listings RetryPublish sends again: refused or failed by Mercado Libre, or skipped by the pre-flight. */
export const RETRYABLE_STATUSES: ListingStatus[] = [ListingStatus.Refused, ListingStatus.Failed, ListingStatus.Skipped];

export type PublishingDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  log: FastifyBaseLogger;
  secrets: SecretBox;
  /** The picture size probe's address guard (the crawler's: CRAWL_ALLOW_PRIVATE); private addresses refused without it. */
  pictures?: PictureFetchOptions;
};
/** Time PreflightPublish and each publish job give the picture size probe (pictures.ts). */
export const PREVIEW_PROBE_MS = 3000;
export const JOB_PROBE_MS = 5000;

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

type PublishJob = { tenantId: string; batchId: string; productId: string };

type ShopAccount = { id: string; site: number; custId: string; isEnabled: boolean };

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
    const { productIds, siteAccounts, where } = await resolve(ctx, request, PREVIEW_MAX_PRODUCTS);
    const [{ n: selected }] = await ctx.tx.select({ n: count() }).from(products).where(where);
    const plans = await plan(ctx.tx, { tenantId: ctx.tenantId, request, productIds, accounts: siteAccounts });
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
    return { selected: Math.min(selected, request.maxProductCount ?? selected), pairs, ok, refused: pairs.length - ok };
  }

  async function publish(ctx: CallContext, request: PublishRequest): Promise<PublishBatch> {
    const { group, productIds, siteAccounts } = await resolve(ctx, request, PUBLISH_MAX_PRODUCTS);
    const plans = await plan(ctx.tx, { tenantId: ctx.tenantId, request, productIds, accounts: siteAccounts });

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

  /** The job: creates the product's pending listings of the batch, one item per site. */
  async function runPublishJob(job: PublishJob): Promise<void> {
    const { tenantId, batchId, productId } = job;
    const pending = await inScope(deps.database.db, { tenantId }, async (tx) => {
      const rows = await tx
        .select({ listing: listings, custId: meliAccounts.custId })
        .from(listings)
        .innerJoin(meliAccounts, and(eq(meliAccounts.tenantId, listings.tenantId), eq(meliAccounts.id, listings.accountId)))
        .where(
          and(
            eq(listings.tenantId, tenantId),
            eq(listings.batchId, batchId),
            eq(listings.productId, productId),
            inArray(listings.status, [ListingStatus.Pending, ListingStatus.Publishing]),
          ),
        );
      if (rows.length) {
        await tx
          .update(listings)
          .set({ status: ListingStatus.Publishing, attempts: sql`${listings.attempts} + 1` })
          .where(
            and(
              eq(listings.tenantId, tenantId),
              inArray(
                listings.id,
                rows.map((r) => r.listing.id),
              ),
            ),
          );
        await tx
          .update(publishBatches)
          .set({ status: PublishBatchStatus.Running, lastUpdateTime: new Date() })
          .where(
            and(
              eq(publishBatches.tenantId, tenantId),
              eq(publishBatches.id, batchId),
              eq(publishBatches.status, PublishBatchStatus.Queued),
            ),
          );
      }
      return rows;
    });
    if (!pending.length) return refreshBatch(tenantId, batchId);
    // The product's picture sizes, so the plan leaves out pictures under 500 px (pictures.ts).
    await probeProductPictures(deps.database.db, tenantId, [productId], { budgetMs: JOB_PROBE_MS, fetch: deps.pictures });
    const plans = await inScope(deps.database.db, { tenantId }, async (tx) => {
      const [batch] = await tx
        .select({
          request: publishBatches.request,
          groupId: publishBatches.accountGroupId,
          isCbt: meliAccountGroups.isCbt,
          groupCustId: meliAccountGroups.custId,
        })
        .from(publishBatches)
        .innerJoin(
          meliAccountGroups,
          and(eq(meliAccountGroups.tenantId, publishBatches.tenantId), eq(meliAccountGroups.id, publishBatches.accountGroupId)),
        )
        .where(and(eq(publishBatches.tenantId, tenantId), eq(publishBatches.id, batchId)));
      const accounts = await tx
        .select({ id: meliAccounts.id, site: meliAccounts.site, custId: meliAccounts.custId, isEnabled: meliAccounts.isEnabled })
        .from(meliAccounts)
        .where(and(eq(meliAccounts.tenantId, tenantId), inArray(meliAccounts.id, [...new Set(pending.map((p) => p.listing.accountId))])));
      return {
        groupId: batch.groupId,
        isCbt: batch.isCbt,
        groupCustId: batch.groupCustId,
        listingType: (batch.request as PublishRequest).listingType,
        request: batch.request as PublishRequest,
        byProduct: await plan(tx, { tenantId, request: batch.request as PublishRequest, productIds: [productId], accounts }),
      };
    });
    const request = plans.request;
    await translateTitles(tenantId, plans.byProduct.get(productId) ?? [], request);
    const shop = deps.meli.shop({ tenantId, groupId: plans.groupId });
    if (plans.isCbt) {
      await publishGlobal(
        tenantId,
        pending.map((p) => p.listing),
        plans.byProduct.get(productId) ?? [],
        { custId: plans.groupCustId, listingType: plans.listingType },
        shop,
      );
      return;
    }
    for (const { listing, custId } of pending) {
      const exchanges: MeliExchange[] = [];
      const observe = (x: MeliExchange) => exchanges.push(x);
      const p = plans.byProduct.get(productId)?.find((x) => x.accountId === listing.accountId && x.site === listing.site);
      const refused = p ? p.problems.filter((x) => x.severity === "error") : [];
      if (!p?.item || refused.length) {
        await finish(tenantId, listing, exchanges, {
          status: ListingStatus.Skipped,
          reason: refused.map((x) => x.message).join("；") || "刊登前检查未通过",
          problems: p?.problems ?? [],
        });
        continue;
      }
      let item: ItemPlan = { ...p.item, key: listing.id };
      try {
        if (p.gtinNeeded > 0) item = withCodes(item, await gtinFor(tenantId, listing.id, p.gtinNeeded));
        // An earlier attempt of this job may have created the item before the process died: look it up by its key.
        const earlier =
          listing.attempts > 0
            ? await shop.send<{ results: string[] }>("GET", `/users/${encodeURIComponent(custId)}/items/search`, {
                query: { sku: listing.id },
                observe,
              })
            : null;
        const itemId = earlier?.results?.[0];
        const created = itemId
          ? await shop.send<{ id: string; permalink?: string; status?: string }>("GET", `/items/${encodeURIComponent(itemId)}`, { observe })
          : await shop.send<{ id: string; permalink?: string; status?: string }>("POST", "/items", {
              body: localItemBody(item),
              headers: { "x-idempotency-key": listing.id },
              observe,
            });
        await finish(tenantId, listing, exchanges, {
          status: statusOf(created.status),
          itemId: created.id,
          permalink: created.permalink ?? null,
          title: item.title,
          reason: null,
          ...warningsOf(p.problems),
        });
      } catch (err) {
        if (err instanceof AppError && err.code === "Gtin.PoolExhausted") {
          await finish(tenantId, listing, exchanges, { status: ListingStatus.Skipped, reason: err.message });
          continue;
        }
        if (!(err instanceof MeliApiError)) throw err;
        if (err.retryable) {
          // The queue retries the job; the next attempt looks the item up first. The calls made so far are logged.
          await inScope(deps.database.db, { tenantId }, (tx) => logCalls(tx, listing, exchanges));
          throw err;
        }
        await finish(tenantId, listing, exchanges, {
          status: err.status === 400 ? ListingStatus.Refused : ListingStatus.Failed,
          reason: err.message,
          problems: meliProblems(err),
        });
      }
    }
  }

  /**
   * Global selling: one global item for the product with a site to sell per listing (net_proceeds in USD, the site's
   * own title); each site's result is stored on its listing (a site can be refused while the others go live). The
   * global item's publish key is the product's first listing id: a retried job finds the item by it and adds only the
   * sites it does not have yet.
   */
  async function publishGlobal(
    tenantId: string,
    pending: (typeof listings.$inferSelect)[],
    plans: ListingPlan[],
    seller: { custId: string; listingType: string },
    shop: ReturnType<MeliClient["shop"]>,
  ) {
    const exchanges: MeliExchange[] = [];
    const observe = (x: MeliExchange) => exchanges.push(x);
    const ready: { listing: typeof listings.$inferSelect; plan: ListingPlan & { item: NonNullable<ListingPlan["item"]> } }[] = [];
    for (const listing of [...pending].sort((a, b) => a.id.localeCompare(b.id))) {
      const plan = plans.find((x) => x.accountId === listing.accountId && x.site === listing.site);
      const refused = plan ? plan.problems.filter((x) => x.severity === "error") : [];
      if (!plan?.item || refused.length) {
        await finish(tenantId, listing, [], {
          status: ListingStatus.Skipped,
          reason: refused.map((x) => x.message).join("；") || "刊登前检查未通过",
          problems: plan?.problems ?? [],
        });
      } else ready.push({ listing, plan: plan as (typeof ready)[number]["plan"] });
    }
    if (!ready.length) return;
    const first = ready[0];
    const key = first.listing.id;
    const siteOf = (site: number) => MELI_SITES[site as MeliSiteNumber].meli;
    const toSell = (rows: typeof ready) =>
      rows.map((r) => ({
        siteCode: siteOf(r.listing.site),
        listingType: seller.listingType,
        netProceeds: r.plan.item.price,
        title: r.plan.item.title,
        logisticType: "remote",
      }));
    type SiteItem = { site_id: string; item_id?: string; error?: { message?: string; error?: string; status?: number; cause?: [] } };
    try {
      let item: ItemPlan = { ...first.plan.item, key };
      if (first.plan.gtinNeeded > 0) item = withCodes(item, await gtinFor(tenantId, key, first.plan.gtinNeeded));
      const earlier = pending.some((l) => l.attempts > 0)
        ? await shop.send<{ results: string[] }>("GET", `/users/${encodeURIComponent(seller.custId)}/items/search`, {
            query: { sku: key },
            observe,
          })
        : null;
      // A retried site of a global item that exists (its other sites live) is added to it: its listing keeps the cbtId.
      let parentId = earlier?.results?.[0] ?? pending.find((l) => l.cbtId)?.cbtId ?? null;
      let siteItems: SiteItem[] = [];
      if (!parentId) {
        const answer = await shop.send<{ item_id: string; site_items: SiteItem[] }>("POST", "/global/items", {
          body: globalItemBody(item, first.plan.globalTitle ?? item.title, toSell(ready)),
          headers: { "x-idempotency-key": key },
          observe,
        });
        parentId = answer.item_id;
        siteItems = answer.site_items;
      } else {
        const known = await shop.send<{ marketplace_items: SiteItem[] }>(
          "GET",
          `/items/${encodeURIComponent(parentId)}/marketplace_items`,
          {
            observe,
          },
        );
        siteItems = known.marketplace_items;
        const missing = ready.filter((r) => !siteItems.some((x) => x.site_id === siteOf(r.listing.site)));
        if (missing.length) {
          const added = await shop.send<{ site_items: SiteItem[] }>("POST", `/global/items/${encodeURIComponent(parentId)}`, {
            body: { sites_to_sell: toSell(missing).map((x) => globalItemBody(item, "", [x]).sites_to_sell[0]) },
            observe,
          });
          siteItems = [...siteItems, ...added.site_items];
        }
      }
      for (const r of ready) {
        const si = siteItems.find((x) => x.site_id === siteOf(r.listing.site));
        if (si?.item_id) {
          await finish(tenantId, r.listing, exchanges, {
            status: ListingStatus.Active,
            cbtId: parentId,
            itemId: si.item_id,
            title: r.plan.item.title,
            reason: null,
            ...warningsOf(r.plan.problems),
          });
        } else {
          const refusal = new MeliApiError("validation", si?.error ?? { message: "美客多未返回该站点的结果" });
          await finish(tenantId, r.listing, exchanges, {
            status: ListingStatus.Refused,
            cbtId: parentId,
            reason: refusal.message,
            problems: meliProblems(refusal),
          });
        }
      }
    } catch (err) {
      if (err instanceof AppError && err.code === "Gtin.PoolExhausted") {
        for (const r of ready) await finish(tenantId, r.listing, exchanges, { status: ListingStatus.Skipped, reason: err.message });
        return;
      }
      if (!(err instanceof MeliApiError)) throw err;
      if (err.retryable) {
        await inScope(deps.database.db, { tenantId }, (tx) => logCalls(tx, first.listing, exchanges));
        throw err;
      }
      for (const r of ready) {
        await finish(tenantId, r.listing, exchanges, {
          status: err.status === 400 ? ListingStatus.Refused : ListingStatus.Failed,
          reason: err.message,
          problems: meliProblems(err),
        });
      }
    }
  }

  /**
   * Titles missing in a site's language, translated by the configured service (the pre-flight allowed them because
   * one is configured), framed by the request's prefix and suffix and cut at a word boundary. A failed translation
   * leaves the plan without a title, so its listing is skipped with the translation's reason.
   */
  async function translateTitles(tenantId: string, plans: ListingPlan[], request: PublishRequest) {
    const wanted = plans.filter((p) => p.translate && p.item);
    if (!wanted.length) return;
    try {
      const translator = await inScope(deps.database.db, { tenantId }, async (tx) =>
        createTranslator(await readTranslateSettings(tx, deps.secrets)),
      );
      for (const p of wanted) {
        const t = p.translate!;
        const [text] = await translator.translate([t.text.text], t.text.from, t.to);
        const title = cutTitle(framedTitle(text?.trim() ?? "", request.prefixTitle, request.suffixTitle), t.max);
        if (title) p.item = { ...p.item!, title };
        else p.problems.push({ code: "title.translate", field: "title", message: "翻译服务没有返回标题", severity: "error" });
      }
    } catch (err) {
      if (!(err instanceof TranslationError)) throw err;
      if (err.retryable) throw err; // the queue retries the job
      for (const p of wanted)
        p.problems.push({ code: "title.translate", field: "title", message: `标题翻译失败：${err.message}`, severity: "error" });
    }
  }

  /** The listing's GTIN codes: those an earlier attempt took, else new ones from the pool (never given twice). */
  async function gtinFor(tenantId: string, listingId: string, count: number): Promise<string[]> {
    return inScope(deps.database.db, { tenantId }, async (tx) => {
      const taken = await listingGtinCodes(tx, tenantId, listingId);
      return taken.length >= count ? taken : [...taken, ...(await takeGtinCodes(tx, tenantId, listingId, count - taken.length))];
    });
  }

  /** Writes a listing's outcome and logs the marketplace calls that led to it, in one transaction. */
  async function finish(
    tenantId: string,
    listing: typeof listings.$inferSelect,
    exchanges: MeliExchange[],
    set: Partial<typeof listings.$inferInsert>,
  ) {
    await inScope(deps.database.db, { tenantId }, async (tx) => {
      await tx
        .update(listings)
        .set({ ...set, syncTime: new Date(), lastModificationTime: new Date() })
        .where(and(eq(listings.tenantId, tenantId), eq(listings.id, listing.id)));
      // Codes taken for an item Mercado Libre did not create go back to the pool: no item carries them.
      if (set.status === ListingStatus.Refused || set.status === ListingStatus.Failed || set.status === ListingStatus.Skipped) {
        await tx
          .update(gtinCodes)
          .set({ listingId: null, usedTime: null })
          .where(and(eq(gtinCodes.tenantId, tenantId), eq(gtinCodes.listingId, listing.id)));
      }
      await logCalls(tx, listing, exchanges);
      // The batch's counts change in the same transaction: a listing is never seen settled while its batch is not.
      if (listing.batchId) await refreshBatchIn(tx, tenantId, listing.batchId);
    });
  }

  /**
   * The queue tried the job for the last time and it failed (Mercado Libre down for minutes, say): the product's
   * listings still waiting end Failed with the reason, their codes go back to the pool and the batch ends, so nothing
   * waits for a job that will not run again. RetryPublish sends them again.
   */
  async function failPublishJob(job: PublishJob, err: unknown) {
    const { tenantId, batchId, productId } = job;
    const waiting = await inScope(deps.database.db, { tenantId }, (tx) =>
      tx
        .select()
        .from(listings)
        .where(
          and(
            eq(listings.tenantId, tenantId),
            eq(listings.batchId, batchId),
            eq(listings.productId, productId),
            inArray(listings.status, [ListingStatus.Pending, ListingStatus.Publishing]),
          ),
        ),
    );
    const why = err instanceof Error ? err.message : String(err);
    for (const listing of waiting)
      await finish(tenantId, listing, [], { status: ListingStatus.Failed, reason: `多次重试后仍未刊登成功：${why}` });
  }

  /** Every marketplace call of a listing goes to the call log (MeliStatLog), tokens scrubbed by recordMeliCall. */
  async function logCalls(tx: Tx, listing: typeof listings.$inferSelect, exchanges: MeliExchange[]) {
    await recordListingCalls(tx, listing, exchanges);
  }

  /** The batch's counts and status from its listings, in one statement, announced on the progress stream. */
  async function refreshBatch(tenantId: string, batchId: string) {
    await inScope(deps.database.db, { tenantId }, (tx) => refreshBatchIn(tx, tenantId, batchId));
  }

  async function refreshBatchIn(tx: Tx, tenantId: string, batchId: string) {
    // Refreshes of one batch take turns, so each counts after the one before it committed and none writes stale counts.
    await tx.execute(sql`select 1 from publish_batches where tenant_id = ${tenantId} and id = ${batchId} for update`);
    const live = [ListingStatus.Active, ListingStatus.Paused, ListingStatus.UnderReview];
    const [b] = rowsOf<{ status: number; total: number; success: number; fail: number; creatorId: string | null }>(
      await tx.execute(sql`with c as (
        select count(*) filter (where status in (${sql.join(
          live.map((s) => sql`${s}::int`),
          sql`, `,
        )}))::int as ok,
          count(*) filter (where status in (${ListingStatus.Refused}::int, ${ListingStatus.Failed}::int))::int as bad,
          count(*) filter (where status in (${ListingStatus.Pending}::int, ${ListingStatus.Publishing}::int))::int as open,
          count(*) filter (where status = ${ListingStatus.Skipped}::int)::int as skipped
        from listings where tenant_id = ${tenantId} and batch_id = ${batchId}
      )
      update publish_batches b set success = c.ok, fail = c.bad, skipped = c.skipped, last_update_time = now(),
        status = case when c.open > 0 then ${PublishBatchStatus.Running}::int
          when c.ok = 0 then ${PublishBatchStatus.Failed}::int
          when c.bad = 0 and c.skipped = 0 then ${PublishBatchStatus.Succeeded}::int
          else ${PublishBatchStatus.PartlySucceeded}::int end
      from c where b.tenant_id = ${tenantId} and b.id = ${batchId}
      returning b.status, b.total, b.success, b.fail, b.creator_id as "creatorId"`),
    );
    if (b) await announce(tx, tenantId, batchId, b);
  }

  /**
   * RetryPublish: the batch's refused, failed and skipped listings (only those named, when listingIds is given) go back
   * to Pending and their products' jobs are queued again; each job plans again (the product as it is now) and, as any
   * job that tried before, looks the item up by the listing id before creating it. A batch still running is refused:
   * its jobs hold listings of the same products.
   */
  async function retryPublish(ctx: CallContext, input: { batchId: string; listingIds?: string[] | null }): Promise<PublishBatch> {
    const u = ctx.user!;
    const [batch] = await ctx.tx
      .select({ id: publishBatches.id, groupName: meliAccountGroups.name })
      .from(publishBatches)
      .leftJoin(
        meliAccountGroups,
        and(eq(meliAccountGroups.tenantId, publishBatches.tenantId), eq(meliAccountGroups.id, publishBatches.accountGroupId)),
      )
      .where(
        and(
          eq(publishBatches.tenantId, ctx.tenantId),
          eq(publishBatches.id, input.batchId),
          u.isMainAccount ? undefined : eq(publishBatches.creatorId, u.id),
        ),
      )
      .for("update", { of: publishBatches });
    if (!batch) throw notFound("刊登批次不存在");
    const [{ open }] = await ctx.tx
      .select({ open: count() })
      .from(listings)
      .where(
        and(
          eq(listings.tenantId, ctx.tenantId),
          eq(listings.batchId, batch.id),
          inArray(listings.status, [ListingStatus.Pending, ListingStatus.Publishing]),
        ),
      );
    if (open > 0) throw new AppError(409, "批次仍在刊登中，请稍后再试", "Publish.BatchRunning");
    const retried = await ctx.tx
      .update(listings)
      .set({
        status: ListingStatus.Pending,
        reason: null,
        problems: [],
        warningMessage: null,
        lastModificationTime: new Date(),
        lastModifierId: u.id,
      })
      .where(
        and(
          eq(listings.tenantId, ctx.tenantId),
          eq(listings.batchId, batch.id),
          inArray(listings.status, RETRYABLE_STATUSES),
          input.listingIds ? inArray(listings.id, input.listingIds) : undefined,
        ),
      )
      .returning({ productId: listings.productId });
    if (!retried.length) throw businessError("没有可重试的刊登", "Publish.NothingToRetry");
    await refreshBatchIn(ctx.tx, ctx.tenantId, batch.id);
    await deps.jobs.sendMany<PublishJob>(
      PUBLISH_JOB,
      // A publish batch's listings always have their product (only imported listings have none).
      [...new Set(retried.map((r) => r.productId!))].map((productId) => ({ tenantId: ctx.tenantId, batchId: batch.id, productId })),
      { tx: ctx.tx },
    );
    const [row] = await ctx.tx
      .select()
      .from(publishBatches)
      .where(and(eq(publishBatches.tenantId, ctx.tenantId), eq(publishBatches.id, batch.id)));
    return batchView(row, batch.groupName);
  }

  // 12 at once per process: a worker waits its poll (0.5 s) between jobs, so 12 keep a seller's 1,200 calls a minute
  // busy (bench/RESULTS.md); the shared rate bucket keeps them under it. A job proves it is alive every 5 s.
  deps.jobs.handle<PublishJob>(PUBLISH_JOB, runPublishJob, {
    concurrency: PUBLISH_CONCURRENCY,
    heartbeatSeconds: 10,
    onLastFailure: failPublishJob,
  });

  return { publish, preflightPublish, retryPublish, runPublishJob, failPublishJob, readListingFees, probePreviewPictures };
}

/** Mercado Libre's causes as listing problems. */
/** A listing that went live keeps the warnings of the plan it was sent with (a retry plans again). */
function warningsOf(problems: ListingPlan["problems"]) {
  const warnings = problems.filter((x) => x.severity === "warning");
  return { problems: warnings, warningMessage: warnings.map((x) => x.message).join("；") || null };
}

function meliProblems(err: MeliApiError): ListingPlan["problems"] {
  return (err.validationErrors ?? []).map((v) => ({ code: "meli", field: v.members[0] ?? null, message: v.message, severity: "error" }));
}

/** The codes go to the variants without a GTIN of their own, in order, or to the item when it has no variations. */
function withCodes(item: ItemPlan, codes: string[]): ItemPlan {
  if (!item.variants.length) return { ...item, gtin: codes[0] ?? null };
  let next = 0;
  return { ...item, variants: item.variants.map((v) => (v.gtin ? v : { ...v, gtin: codes[next++] ?? null })) };
}

/** Tells the progress stream how the batch stands (sent when the transaction commits). */
function announce(
  tx: Tx,
  tenantId: string,
  batchId: string,
  b: { status: number; total: number; success: number; fail: number; creatorId: string | null },
) {
  return emitProgress(tx, {
    tenantId,
    creatorId: b.creatorId,
    kind: "publishBatch",
    id: batchId,
    status: b.status,
    total: b.total,
    success: b.success,
    fail: b.fail,
  });
}

function statusOf(meliStatus: string | undefined): ListingStatus {
  if (meliStatus === "paused") return ListingStatus.Paused;
  if (meliStatus === "closed") return ListingStatus.Closed;
  if (meliStatus === "under_review" || meliStatus === "inactive") return ListingStatus.UnderReview;
  return ListingStatus.Active;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function batchView(b: typeof publishBatches.$inferSelect, groupName: string | null): PublishBatch {
  return {
    id: b.id,
    accountGroupId: b.accountGroupId,
    accountGroupName: groupName,
    sites: b.sites as number[],
    creationTime: iso(b.creationTime),
    creatorId: b.creatorId,
    status: b.status as PublishBatch["status"],
    total: b.total,
    success: b.success,
    fail: b.fail,
    skipped: b.skipped,
    lastUpdateTime: iso(b.lastUpdateTime),
  };
}

export function listingView(l: typeof listings.$inferSelect, productTitle: string | null = null): Listing {
  return {
    id: l.id,
    productTitle,
    batchId: l.batchId,
    accountGroupId: l.accountGroupId,
    productId: l.productId,
    productLabelId: l.productLabelId,
    site: l.site,
    cbtId: l.cbtId,
    itemId: l.itemId,
    cateId: l.cateId,
    cateName: l.cateName,
    title: l.title,
    status: l.status as Listing["status"],
    price: l.price === null ? null : Number(l.price),
    currency: l.currency,
    price_Content: l.priceContent ?? null,
    reason: l.reason,
    problems: l.problems as Listing["problems"],
    permalink: l.permalink,
    listingType: l.listingType,
    image: l.image,
    stock: l.stock,
    creationTime: iso(l.creationTime),
    lastModificationTime: l.lastModificationTime ? iso(l.lastModificationTime) : null,
  };
}

export type PublishingService = ReturnType<typeof createPublishingService>;
