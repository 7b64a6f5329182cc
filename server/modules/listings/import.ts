// The listing centre's import (spec §7 MeliStat / MeliStatNew PullMarketStat): every item of the shop group's sellers
// not recorded yet becomes a listing, linked to the product whose SKU it carries. The seller's items are listed with
// the scan search (GET /users/{id}/items/search?search_type=scan, 100 a page, a scroll id valid 5 minutes: an expired
// one starts the scan again, ids already seen are skipped), read with the multiget and their views with the visits
// resource. Marketplace calls are never made inside a transaction.
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { listings, meliAccountGroups, meliAccounts, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask, updateTask } from "../../jobs/tasks.ts";
import type { MeliClient, MeliExchange, MeliSession } from "../../integrations/mercadolibre/client.ts";
import { scanSellerItems, type ItemSearchPage, type ListingItem } from "../../integrations/mercadolibre/endpoints/items.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import type { MeliLogService } from "../meli-logs/index.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { ListingTaskResult, PullReport } from "#shared/contract/listing-sync.ts";
import { chunks, itemValues, MULTIGET_IDS, pool, readItems, readVisits, skusOfItem, statusOfItem } from "./market-reads.ts";
import { visibleGroups, type ListingKind } from "./list.ts";
import { productsFollowListings } from "../products/index.ts";

const LISTING_PULL_JOB = "listings.pull";
/** Items per scan page (the search's maximum). */
const SCAN_LIMIT = 100;
/** An import restarts an expired scroll at most this many times per seller before it gives up. */
const SCROLL_RESTARTS = 5;

type PullJob = { tenantId: string; taskId: string; creatorId: string | null; groupId: string };
type Account = { id: string; site: number; custId: string; ownerId: string };

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The shop group of the list's kind in the caller's tenant (a sub-account: one it has a shop of), or 404. */
export async function visibleGroup(ctx: CallContext, kind: ListingKind, groupId: string) {
  const [group] = await ctx.tx
    .select({ id: meliAccountGroups.id, name: meliAccountGroups.name })
    .from(meliAccountGroups)
    .where(and(visibleGroups(ctx, kind), eq(meliAccountGroups.id, groupId)));
  if (!group) throw notFound("店铺不存在");
  return group;
}

export type ListingImportDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  log: FastifyBaseLogger;
  /** The marketplace call log's recorder (the meli-logs service's, handed over by deps.ts). */
  callLog: Pick<MeliLogService, "recordMeliCalls">;
};

export function createListingImport(deps: ListingImportDeps) {
  const db = deps.database.db;

  /** Which of the item ids the tenant has a listing of already. */
  async function recordedOf(tx: Tx, tenantId: string, itemIds: string[]) {
    const rows = await tx
      .select({ itemId: listings.itemId })
      .from(listings)
      .where(and(eq(listings.tenantId, tenantId), inArray(listings.itemId, itemIds)));
    return new Set(rows.map((r) => r.itemId));
  }

  /** The import's Mercado Libre calls go to the group's call log (MeliStatLog). */
  const logCalls = (tx: Tx, job: PullJob, account: Account, exchanges: MeliExchange[]) =>
    deps.callLog.recordMeliCalls(
      tx,
      { tenantId: job.tenantId, accountGroupId: job.groupId, site: account.site, creatorId: job.creatorId },
      exchanges,
    );

  async function pullMarket(ctx: CallContext, kind: ListingKind, groupId: string): Promise<ListingTaskResult> {
    const group = await visibleGroup(ctx, kind, groupId);
    const taskId = await createTask(ctx.tx, {
      tenantId: ctx.tenantId,
      taskType: TaskType.SyncListings,
      content: `导入店铺已有在线商品：${group.name}`,
      creatorId: ctx.user!.id,
    });
    await deps.jobs.send<PullJob>(
      LISTING_PULL_JOB,
      { tenantId: ctx.tenantId, taskId, creatorId: ctx.user!.id, groupId: group.id },
      { tx: ctx.tx },
    );
    return { taskId, total: 0 };
  }

  /**
   * Imports the items of one scan page not yet recorded; counts into the report. `reasons`: Mercado Libre's reasons for
   * the items it did not answer (the first three, each once), for the remark.
   */
  async function importPage(job: PullJob, account: Account, ids: string[], report: PullReport, reasons: string[], shop: MeliSession) {
    const { tenantId } = job;
    const knownIds = await inScope(db, { tenantId }, (tx) => recordedOf(tx, tenantId, ids));
    report.known += knownIds.size;
    const fresh = ids.filter((id) => !knownIds.has(id));
    if (!fresh.length) return;
    const exchanges: MeliExchange[] = [];
    const items: ListingItem[] = [];
    await pool(chunks(fresh, MULTIGET_IDS), 5, async (c) => {
      const reads = await readItems(shop, c, (x) => exchanges.push(x));
      for (const id of c) {
        const r = reads.get(id)!;
        if (r.kind === "item") items.push(r.item);
        else {
          report.failed++;
          const reason = r.kind === "failed" ? r.reason : "美客多已删除该商品";
          if (reasons.length < 3 && !reasons.includes(reason)) reasons.push(reason);
        }
      }
    });
    const local = items.filter((i) => i.site_id !== "CBT").map((i) => i.id);
    const visits = local.length ? await readVisits(shop, local, (x) => exchanges.push(x), deps.log) : new Map<string, number>();
    await inScope(db, { tenantId }, async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`erp:listing-import:${tenantId}`}))`);
      // Recorded meanwhile (another import, a publish): not twice.
      const recorded = await recordedOf(
        tx,
        tenantId,
        items.map((i) => i.id),
      );
      report.known += recorded.size;
      const unrecorded = items.filter((i) => !recorded.has(i.id));
      const skus = [...new Set(unrecorded.flatMap(skusOfItem))];
      // One set-based lookup of the page's SKUs; the oldest product wins when two share one.
      const matches = skus.length
        ? await tx
            .select({ id: products.id, sku: products.sku, userId: products.userId })
            .from(products)
            .where(and(eq(products.tenantId, tenantId), eq(products.isDeleted, false), inArray(products.sku, skus)))
            .orderBy(asc(products.creationTime), asc(products.id))
        : [];
      const bySku = new Map<string, { id: string; userId: string }>();
      for (const m of matches) if (m.sku && !bySku.has(m.sku)) bySku.set(m.sku, m);
      const stamp = new Date();
      const rows: (typeof listings.$inferInsert)[] = unrecorded.map((item) => {
        const product = skusOfItem(item)
          .map((s) => bySku.get(s))
          .find(Boolean);
        if (product) report.linked++;
        const created = item.date_created ? new Date(item.date_created) : stamp;
        return {
          tenantId,
          id: randomUUID(),
          batchId: null,
          accountGroupId: job.groupId,
          accountId: account.id,
          userId: product?.userId ?? account.ownerId,
          productId: product?.id ?? null,
          site: account.site,
          cbtId: item.parent_item_id ?? null,
          itemId: item.id,
          cateId: item.category_id ?? null,
          listingType: item.listing_type_id ?? null,
          ...itemValues(item, stamp),
          ...(visits.has(item.id) ? { views: visits.get(item.id) } : {}),
          status: statusOfItem(item.status),
          creationTime: Number.isNaN(created.getTime()) ? stamp : created,
          creatorId: job.creatorId,
        };
      });
      for (const c of chunks(rows, 500)) await tx.insert(listings).values(c);
      // A live item matched to a product by its SKU publishes that product.
      await productsFollowListings(
        tx,
        tenantId,
        rows.map((r) => r.productId),
      );
      report.imported += rows.length;
      await logCalls(tx, job, account, exchanges);
    });
  }

  const expiredScroll = (err: unknown) =>
    err instanceof MeliApiError && err.meli.status === 400 && /scroll/i.test(`${err.meli.error ?? ""} ${err.meli.message ?? ""}`);

  async function runPull(job: PullJob): Promise<void> {
    const { tenantId, taskId } = job;
    const task = (change: Parameters<typeof updateTask>[3]) => updateTask(db, tenantId, taskId, change);
    const accounts: Account[] = await inScope(db, { tenantId }, (tx) =>
      tx
        .select({ id: meliAccounts.id, site: meliAccounts.site, custId: meliAccounts.custId, ownerId: meliAccounts.ownerId })
        .from(meliAccounts)
        .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.groupId, job.groupId), eq(meliAccounts.isEnabled, true)))
        .orderBy(asc(meliAccounts.site)),
    );
    await task({ taskStatus: TaskStatus.Running, progress: 0, taskRemark: "开始导入" });
    const report: PullReport = { scanned: 0, imported: 0, known: 0, linked: 0, failed: 0, restarts: 0 };
    const shop = deps.meli.shop({ tenantId, groupId: job.groupId });
    const totals = new Map<string, number>();
    const reasons: string[] = [];
    const remarkOf = (r: PullReport) =>
      `扫描 ${r.scanned} 个：新导入 ${r.imported}（关联商品 ${r.linked}），已有 ${r.known}，失败 ${r.failed}` +
      (r.failed && reasons.length ? `（${reasons.join("；")}）` : "") +
      (r.restarts ? `；滚动查询过期重新开始 ${r.restarts} 次` : "");
    try {
      for (const account of accounts) {
        // Ids seen in this import: a restarted scroll lists them again, they are not counted or imported twice.
        const seen = new Set<string>();
        let scrollId: string | undefined;
        let restarts = 0;
        for (;;) {
          const exchanges: MeliExchange[] = [];
          let page: ItemSearchPage;
          try {
            page = await scanSellerItems(shop, account.custId, { limit: SCAN_LIMIT, scrollId }, { observe: (x) => exchanges.push(x) });
          } catch (err) {
            await inScope(db, { tenantId }, (tx) => logCalls(tx, job, account, exchanges));
            if (scrollId && expiredScroll(err) && restarts < SCROLL_RESTARTS) {
              restarts++;
              report.restarts++;
              scrollId = undefined;
              continue;
            }
            throw err;
          }
          scrollId = page.scroll_id ?? undefined;
          totals.set(account.id, Math.max(totals.get(account.id) ?? 0, page.paging?.total ?? 0));
          const results = page.results ?? [];
          if (!results.length) break;
          const fresh = results.filter((id) => !seen.has(id));
          for (const id of fresh) seen.add(id);
          report.scanned += fresh.length;
          if (fresh.length) await importPage(job, account, fresh, report, reasons, shop);
          const total = [...totals.values()].reduce((a, b) => a + b, 0);
          await task({ progress: Math.min(99, Math.floor((report.scanned * 100) / Math.max(1, total))), taskRemark: remarkOf(report) });
          if (!scrollId) break;
        }
      }
    } catch (err) {
      if (err instanceof MeliApiError && err.retryable) throw err; // the queue retries; known items are skipped then
      await task({ taskStatus: TaskStatus.Failed, progress: 100, taskRemark: `${remarkOf(report)}；导入中止：${reasonOf(err)}` });
      if (!(err instanceof AppError)) throw err;
      return;
    }
    // Items that could not be imported fail the task: a partial import is not a success (the remark counts each).
    await task({ taskStatus: report.failed > 0 ? TaskStatus.Failed : TaskStatus.Succeeded, progress: 100, taskRemark: remarkOf(report) });
  }

  return { pullMarket, runPull, workers: [worker<PullJob>(LISTING_PULL_JOB, runPull, { concurrency: 2, heartbeatSeconds: 10 })] };
}
