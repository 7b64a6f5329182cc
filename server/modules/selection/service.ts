// The selection library (host only; spec §7 Selection). CreawlUrl watches marketplace listings given by URL or item id;
// a job reads each through the adapter's public item reads, keeps the competitor listing fields (spec §3) on its row and
// a snapshot of its price and sold count, and queues its next read SELECTION_READ_HOURS later. Each row's next read
// time travels with its job: a job whose time is no longer the row's (the host asked for a read now meanwhile) ends
// without reading, so one listing never runs two schedules. Rows carry the host's tenant id (row-level security).
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import type { Database, Tx } from "../../db/client.ts";
import { orderBy, pageOf } from "../../db/query.ts";
import { HOST_TENANT_ID, selectionSkus, selectionSnapshots } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest } from "../../http/errors.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { getItems } from "../../integrations/mercadolibre/endpoints/items.ts";
import { getPublicUser, publicItem, type PublicItem } from "../../integrations/mercadolibre/endpoints/public-items.ts";
import { siteNumberOf } from "#shared/contract/meli.ts";
import {
  itemIdOf,
  type CompetitorListing,
  type CompetitorListingPage,
  type CreawlUrlResult,
  type creawlUrlBody,
  type getMeliSelectionSkuQuery,
  type SelectionPoint,
} from "#shared/contract/selection.ts";

const SELECTION_READ_JOB = "selection-read";
/** How often a watched listing is read. */
export const SELECTION_READ_HOURS = 6;
/** The trend's default window. */
const HISTORY_DAYS = 30;

type ReadJob = { id: string; due: string };
type Row = typeof selectionSkus.$inferSelect;

const num = (v: string | null) => (v === null ? null : Number(v));
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toListing = (r: Row, history: SelectionPoint[]): CompetitorListing => ({
  id: r.id,
  sku: r.sku,
  url: r.url,
  site: r.site,
  status: r.status,
  lastModificationTime: iso(r.lastModificationTime),
  sellerId: r.sellerId,
  sellerCountry: r.sellerCountry,
  title: r.title,
  permalink: r.permalink,
  image: r.image,
  price: num(r.price),
  originalPrice: num(r.originalPrice),
  currencyId: r.currencyId,
  sold: r.sold,
  isCbt: r.isCbt,
  skuCreateDate: iso(r.skuCreateDate),
  creationTime: r.creationTime.toISOString(),
  lastReadTime: iso(r.lastReadTime),
  nextReadTime: r.nextReadTime.toISOString(),
  error: r.error,
  history,
});

const siteOfSku = (sku: string) => siteNumberOf(sku.slice(0, 3));

export function createSelectionService(deps: { database: Database; jobs: Jobs; meli: MeliClient; log: FastifyBaseLogger }) {
  const { database, jobs, meli, log } = deps;
  const scope = { tenantId: HOST_TENANT_ID };

  const queueRead = (tx: Tx, id: string, due: Date, afterSeconds?: number) =>
    jobs.send<ReadJob>(
      SELECTION_READ_JOB,
      { id, due: due.toISOString() },
      { tx, singletonKey: `${SELECTION_READ_JOB}:${id}:${due.toISOString()}`, startAfterSeconds: afterSeconds },
    );

  /** Stores what a read found (or why it failed) and queues the next read. */
  async function settle(id: string, due: string, found: { item: PublicItem; country: string | null } | { error: string }) {
    await inScope(database.db, scope, async (tx) => {
      const [row] = await tx
        .select({ nextReadTime: selectionSkus.nextReadTime })
        .from(selectionSkus)
        .where(and(eq(selectionSkus.tenantId, HOST_TENANT_ID), eq(selectionSkus.id, id)))
        .for("update");
      if (!row || row.nextReadTime.toISOString() !== due) return;
      const now = new Date();
      const next = new Date(now.getTime() + SELECTION_READ_HOURS * 3_600_000);
      const where = and(eq(selectionSkus.tenantId, HOST_TENANT_ID), eq(selectionSkus.id, id));
      if ("error" in found) {
        await tx.update(selectionSkus).set({ error: found.error, lastReadTime: now, nextReadTime: next }).where(where);
      } else {
        const { item, country } = found;
        const price = item.price == null ? null : item.price.toFixed(2);
        const originalPrice = item.original_price == null ? null : item.original_price.toFixed(2);
        const sold = item.sold_quantity ?? null;
        await tx
          .update(selectionSkus)
          .set({
            site: siteNumberOf(item.site_id) ?? siteOfSku(item.id),
            status: item.status ?? null,
            sellerId: String(item.seller_id),
            sellerCountry: country,
            title: item.title,
            permalink: item.permalink ?? null,
            image: item.pictures?.[0]?.secure_url ?? item.pictures?.[0]?.url ?? item.thumbnail ?? null,
            price,
            originalPrice,
            currencyId: item.currency_id ?? null,
            sold,
            isCbt: !!item.parent_item_id || item.id.startsWith("CBT") || (item.tags ?? []).includes("cbt_item"),
            skuCreateDate: item.date_created ? new Date(item.date_created) : null,
            error: null,
            lastReadTime: now,
            nextReadTime: next,
            lastModificationTime: now,
          })
          .where(where);
        await tx
          .insert(selectionSnapshots)
          .values({ tenantId: HOST_TENANT_ID, skuId: id, readTime: now, price, originalPrice, sold })
          .onConflictDoNothing();
      }
      await queueRead(tx, id, next, SELECTION_READ_HOURS * 3600);
    });
  }

  /** One scheduled read: the item (public multiget), then its seller's country; a stale job ends at once. */
  async function runRead(job: ReadJob) {
    const [row] = await inScope(database.db, scope, (tx) =>
      tx
        .select({ sku: selectionSkus.sku, nextReadTime: selectionSkus.nextReadTime })
        .from(selectionSkus)
        .where(and(eq(selectionSkus.tenantId, HOST_TENANT_ID), eq(selectionSkus.id, job.id))),
    );
    if (!row || row.nextReadTime.toISOString() !== job.due) return;
    const [answer] = await getItems(meli.public, [row.sku]);
    if (!answer || answer.code === 404) return settle(job.id, job.due, { error: "美客多上不存在该刊登（已删除或编号有误）" });
    if (answer.code !== 200) throw new MeliApiError(answer.code === 429 ? "rate-limited" : "unavailable", { status: answer.code });
    const parsed = publicItem.safeParse(answer.body);
    if (!parsed.success) return settle(job.id, job.due, { error: "美客多返回的刊登数据无法识别" });
    let country: string | null = null;
    try {
      country = (await getPublicUser(meli.public, parsed.data.seller_id)).country_id ?? null;
    } catch (err) {
      // The listing's own fields still count; the country waits for the next read.
      log.warn({ err, sellerId: parsed.data.seller_id }, "selection: seller profile not read");
    }
    await settle(job.id, job.due, { item: parsed.data, country });
  }

  return {
    runRead,
    workers: [
      worker<ReadJob>(SELECTION_READ_JOB, runRead, {
        concurrency: 2,
        // The last attempt failed (Mercado Libre down for long): say so on the row and keep the schedule.
        onLastFailure: (job, err) => settle(job.id, job.due, { error: `读取失败：${err instanceof Error ? err.message : String(err)}` }),
      }),
    ],

    async creawlUrl(ctx: CallContext, body: z.output<typeof creawlUrlBody>): Promise<CreawlUrlResult> {
      const invalid: string[] = [];
      const wanted = new Map<string, string>();
      for (const entry of body.urls) {
        const sku = itemIdOf(entry);
        if (!sku) invalid.push(entry);
        else if (!wanted.has(sku)) wanted.set(sku, entry);
      }
      if (!wanted.size) throw badRequest(`没有可识别的美客多刊登链接或编号：${invalid.slice(0, 5).join("、")}`);
      const now = new Date();
      const rows = await ctx.tx
        .insert(selectionSkus)
        .values(
          [...wanted].map(([sku, url]) => ({
            tenantId: ctx.tenantId,
            id: randomUUID(),
            sku,
            url,
            site: siteOfSku(sku),
            nextReadTime: now,
            creatorId: ctx.user?.id ?? null,
          })),
        )
        .onConflictDoUpdate({ target: [selectionSkus.tenantId, selectionSkus.sku], set: { nextReadTime: now } })
        .returning({ id: selectionSkus.id, inserted: sql<boolean>`(xmax = 0)` });
      for (const r of rows) await queueRead(ctx.tx, r.id, now);
      const added = rows.filter((r) => r.inserted).length;
      return { added, existing: rows.length - added, invalid };
    },

    async getMeliSelectionSku(ctx: CallContext, q: z.output<typeof getMeliSelectionSkuQuery>): Promise<CompetitorListingPage> {
      if (q.StartDate && q.EndDate && q.StartDate > q.EndDate) throw badRequest("开始时间不能晚于结束时间");
      const conditions: SQL[] = [eq(selectionSkus.tenantId, ctx.tenantId)];
      if (q.Skus?.length)
        conditions.push(
          inArray(
            selectionSkus.sku,
            q.Skus.map((s) => itemIdOf(s) ?? s.toUpperCase()),
          ),
        );
      if (q.Site) conditions.push(eq(selectionSkus.site, q.Site));
      if (q.SellerId) conditions.push(eq(selectionSkus.sellerId, q.SellerId));
      const columns = {
        creationTime: selectionSkus.creationTime,
        price: selectionSkus.price,
        sold: selectionSkus.sold,
        lastReadTime: selectionSkus.lastReadTime,
        title: selectionSkus.title,
      };
      const page = await pageOf(
        ctx.tx,
        selectionSkus,
        and(...conditions),
        {
          skip: q.SkipCount,
          take: q.MaxResultCount,
          order: [orderBy(q.Sorting, columns, desc(selectionSkus.creationTime)), desc(selectionSkus.creationTime), asc(selectionSkus.id)],
        },
        (r) => r,
      );
      if (!page.items.length) return { items: [], totalCount: page.totalCount };
      const end = q.EndDate ?? new Date();
      const start = q.StartDate ?? new Date(end.getTime() - HISTORY_DAYS * 86_400_000);
      const points = await ctx.tx
        .select()
        .from(selectionSnapshots)
        .where(
          and(
            eq(selectionSnapshots.tenantId, ctx.tenantId),
            inArray(
              selectionSnapshots.skuId,
              page.items.map((r) => r.id),
            ),
            gte(selectionSnapshots.readTime, start),
            lte(selectionSnapshots.readTime, end),
          ),
        )
        .orderBy(asc(selectionSnapshots.readTime));
      const history = new Map<string, SelectionPoint[]>();
      for (const p of points) {
        const list = history.get(p.skuId) ?? [];
        list.push({ time: p.readTime.toISOString(), price: num(p.price), originalPrice: num(p.originalPrice), sold: p.sold });
        history.set(p.skuId, list);
      }
      return { items: page.items.map((r) => toListing(r, history.get(r.id) ?? [])), totalCount: page.totalCount };
    },
  };
}
export type SelectionService = ReturnType<typeof createSelectionService>;
