// The URL queue (spec §7 AquiredUrl): URLs typed (CreateUrls) or imported from a file (ImportUrls) wait here, one row
// per user and URL (a URL already queued by the same user is ignored). A dispatcher job per tenant turns waiting URLs
// into collection tasks a batch at a time, highest sort first, keeping a bounded number in flight, so a 10,000-URL
// import is crawled over time (isDelayImport) instead of flooding the queue. Each import is one task-centre record.
import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, gte, ilike, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf, type Database, type Tx } from "../../db/client.ts";
import { aquiredUrls, users } from "../../db/schema.ts";
import { containsPattern, orderBy } from "../../db/query.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, forbidden } from "../../http/errors.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask } from "../../jobs/tasks.ts";
import type { PagedResult } from "#shared/contract/common.ts";
import {
  aquiredUrlFilter,
  createUrlsInput,
  getAquiredUrlsInput,
  getUrlSataticsInput,
  IMPORT_MAX_BYTES,
  importUrlsQuery,
  setUrlSortInput,
  webUrl,
  type AquiredUrl,
} from "#shared/contract/collect.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { createCrawlTasks, platformTypeOfUrl, refreshTaskInfo } from "./crawler.ts";
import { readUrlFile } from "./import-file.ts";
import { receiveUpload } from "../../http/upload.ts";
import { readCollectConfig } from "./store.ts";

const DISPATCH_JOB = "collect-url-dispatch";
type DispatchJob = { tenantId: string };

/** URLs turned into tasks per dispatcher run, and the most a tenant has in flight. */
export const DISPATCH_BATCH = 50;
const MAX_IN_FLIGHT = 100;
const DISPATCH_INTERVAL_SECONDS = 1;

function urlsOwnedBy(ctx: CallContext): SQL {
  const u = ctx.user!;
  const tenant = eq(aquiredUrls.tenantId, u.tenantId);
  return u.isMainAccount ? tenant : and(tenant, eq(aquiredUrls.userId, u.id))!;
}

function filterOf(ctx: CallContext, f: z.output<typeof aquiredUrlFilter>): SQL {
  if (f.startDate && f.endDate && f.startDate > f.endDate) throw badRequest("开始时间不能晚于结束时间");
  const c: SQL[] = [urlsOwnedBy(ctx)];
  if (f.status != null) c.push(eq(aquiredUrls.status, f.status));
  if (f.platformType != null) c.push(eq(aquiredUrls.platformType, f.platformType));
  if (f.search) c.push(ilike(aquiredUrls.url, containsPattern(f.search)));
  if (f.startDate) c.push(gte(aquiredUrls.creationTime, f.startDate));
  if (f.endDate) c.push(lte(aquiredUrls.creationTime, f.endDate));
  if (f.userId) c.push(eq(aquiredUrls.userId, f.userId));
  return and(...c)!;
}

function toAquiredUrl(r: typeof aquiredUrls.$inferSelect, owner: string | null): AquiredUrl {
  return {
    id: r.id,
    userId: r.userId,
    owner,
    url: r.url,
    platformType: r.platformType,
    status: r.status,
    sort: r.sort,
    isDiscountPrice: r.isDiscountPrice,
    message: r.message,
    crawlCount: r.crawlCount,
    collectTaskId: r.collectTaskId,
    collectionId: r.collectionId,
    creationTime: r.creationTime.toISOString(),
    lastModificationTime: r.lastModificationTime.toISOString(),
  };
}

const sortColumns = {
  creationTime: aquiredUrls.creationTime,
  sort: aquiredUrls.sort,
  status: aquiredUrls.status,
  lastModificationTime: aquiredUrls.lastModificationTime,
};

async function getList(ctx: CallContext, q: z.output<typeof getAquiredUrlsInput>): Promise<PagedResult<AquiredUrl>> {
  const where = filterOf(ctx, q);
  const [{ n }] = await ctx.tx.select({ n: count() }).from(aquiredUrls).where(where);
  const total = Number(n);
  if (!total || q.skipCount >= total) return { items: [], totalCount: total };
  const rows = await ctx.tx
    .select({ a: aquiredUrls, owner: users.userName })
    .from(aquiredUrls)
    .leftJoin(users, and(eq(users.tenantId, aquiredUrls.tenantId), eq(users.id, aquiredUrls.userId)))
    .where(where)
    .orderBy(orderBy(q.sorting, sortColumns, desc(aquiredUrls.creationTime)), desc(aquiredUrls.creationTime), asc(aquiredUrls.id))
    .limit(q.maxResultCount)
    .offset(q.skipCount);
  return { items: rows.map((r) => toAquiredUrl(r.a, r.owner)), totalCount: total };
}

const countWhere = (status: number) => sql<number>`count(*) filter (where ${aquiredUrls.status} = ${status})`.mapWith(Number);

async function getStatics(ctx: CallContext, f: z.output<typeof aquiredUrlFilter>) {
  const [r] = await ctx.tx
    .select({
      total: count(),
      pending: countWhere(TaskStatus.Pending),
      running: countWhere(TaskStatus.Running),
      succeeded: countWhere(TaskStatus.Succeeded),
      failed: countWhere(TaskStatus.Failed),
    })
    .from(aquiredUrls)
    .where(filterOf(ctx, f));
  return { total: Number(r.total), pending: r.pending, running: r.running, succeeded: r.succeeded, failed: r.failed };
}

const DAY_MS = 86_400_000;

/** URLs per UTC day of their creation in a window (default the last 30 days, at most 366), every day present. */
async function getUrlSatatics(ctx: CallContext, q: z.output<typeof getUrlSataticsInput>) {
  const end = q.endDate ?? new Date();
  const start = q.startDate ?? new Date(end.getTime() - 29 * DAY_MS);
  if (start > end) throw badRequest("开始时间不能晚于结束时间");
  const first = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate());
  const last = Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate());
  if ((last - first) / DAY_MS >= 366) throw badRequest("统计区间最多 366 天");
  const day = sql<string>`to_char(${aquiredUrls.creationTime} at time zone 'UTC', 'YYYY-MM-DD')`;
  const c: SQL[] = [
    urlsOwnedBy(ctx),
    gte(aquiredUrls.creationTime, new Date(first)),
    lte(aquiredUrls.creationTime, new Date(last + DAY_MS - 1)),
  ];
  if (q.userId) c.push(eq(aquiredUrls.userId, q.userId));
  const rows = await ctx.tx
    .select({ date: day, total: count(), succeeded: countWhere(TaskStatus.Succeeded), failed: countWhere(TaskStatus.Failed) })
    .from(aquiredUrls)
    .where(and(...c))
    .groupBy(sql`1`);
  const byDate = new Map(rows.map((r) => [String(r.date), r]));
  const out = [];
  for (let t = first; t <= last; t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    const r = byDate.get(date);
    out.push({ date, total: Number(r?.total ?? 0), succeeded: Number(r?.succeeded ?? 0), failed: Number(r?.failed ?? 0) });
  }
  return out;
}

/**
 * Queues URLs for the caller (one insert; a URL the user already has is ignored), opens the import's task record
 * and wakes the dispatcher. Answers the spec's import result.
 */
async function enqueueUrls(
  jobs: Jobs,
  ctx: CallContext,
  urls: string[],
  opts: { platformType?: number | null; isDiscountPrice?: boolean | null; invalid: number; what: string },
) {
  const u = ctx.user!;
  const unique = [...new Set(urls)];
  const isDiscountPrice = opts.isDiscountPrice ?? (await readCollectConfig(ctx.tx, u.tenantId)).isDiscountPrice;
  let inserted: { id: string }[] = [];
  let taskInfoId: string | null = null;
  if (unique.length) {
    taskInfoId = await createTask(ctx.tx, {
      tenantId: u.tenantId,
      taskType: TaskType.ImportUrls,
      content: `${opts.what}：${unique.length} 个链接`,
      creatorId: u.id,
    });
    const now = new Date();
    // In slices, so one statement never carries too many parameters.
    const platformTypes = new Map<string, number>();
    for (const url of unique) platformTypes.set(url, opts.platformType ?? (await platformTypeOfUrl(url)));
    for (let i = 0; i < unique.length; i += 1000) {
      const slice = unique.slice(i, i + 1000).map((url) => ({
        tenantId: u.tenantId,
        id: randomUUID(),
        userId: u.id,
        url,
        platformType: platformTypes.get(url)!,
        status: TaskStatus.Pending,
        isDiscountPrice,
        message: "等待采集",
        taskInfoId,
        creationTime: now,
        lastModificationTime: now,
      }));
      inserted = inserted.concat(await ctx.tx.insert(aquiredUrls).values(slice).onConflictDoNothing().returning({ id: aquiredUrls.id }));
    }
    if (inserted.length) await jobs.send<DispatchJob>(DISPATCH_JOB, { tenantId: u.tenantId }, { tx: ctx.tx });
    else await refreshTaskInfo(ctx.tx, u.tenantId, taskInfoId, true);
  }
  const ignoreCount = urls.length - inserted.length + opts.invalid;
  const isDelayImport = inserted.length > DISPATCH_BATCH;
  const parts = [`成功导入 ${inserted.length} 个链接`];
  if (ignoreCount) parts.push(`忽略 ${ignoreCount} 个（重复或无效）`);
  parts.push(inserted.length ? (isDelayImport ? "链接较多，将在后台分批采集" : "即将开始采集") : "没有新的链接需要采集");
  return { successCount: inserted.length, ignoreCount, isDelayImport, message: parts.join("，") };
}

const createUrls = (jobs: Jobs, ctx: CallContext, body: z.output<typeof createUrlsInput>) =>
  enqueueUrls(jobs, ctx, body.urls, {
    platformType: body.platformType,
    isDiscountPrice: body.isDiscountPrice,
    invalid: 0,
    what: "添加链接",
  });

/** Puts finished URLs back in the queue: the given ones, or every failed one of the caller's when none are given. */
async function reCrwalUrls(jobs: Jobs, ctx: CallContext, ids: string[] | null | undefined) {
  const u = ctx.user!;
  const which = ids?.length
    ? and(urlsOwnedBy(ctx), inArray(aquiredUrls.id, ids), inArray(aquiredUrls.status, [TaskStatus.Succeeded, TaskStatus.Failed]))
    : and(urlsOwnedBy(ctx), eq(aquiredUrls.status, TaskStatus.Failed));
  const [{ n }] = await ctx.tx.select({ n: count() }).from(aquiredUrls).where(which);
  if (!Number(n)) return { count: 0 };
  const taskInfoId = await createTask(ctx.tx, {
    tenantId: u.tenantId,
    taskType: TaskType.ImportUrls,
    content: `重新采集 ${n} 个链接`,
    creatorId: u.id,
  });
  const rows = await ctx.tx
    .update(aquiredUrls)
    .set({ status: TaskStatus.Pending, message: "等待采集", taskInfoId, lastModificationTime: new Date() })
    .where(which)
    .returning({ id: aquiredUrls.id });
  await jobs.send<DispatchJob>(DISPATCH_JOB, { tenantId: u.tenantId }, { tx: ctx.tx });
  return { count: rows.length };
}

async function deleteUrls(ctx: CallContext, ids: string[]) {
  const rows = await ctx.tx
    .delete(aquiredUrls)
    .where(and(urlsOwnedBy(ctx), inArray(aquiredUrls.id, ids)))
    .returning({ id: aquiredUrls.id });
  return { count: rows.length };
}

/** Sets the queue order of the caller's URLs (higher first); tenantId, when sent, must be the caller's tenant. */
async function setUrlSort(ctx: CallContext, tenantId: string | undefined, body: z.output<typeof setUrlSortInput>) {
  if (tenantId && tenantId !== ctx.user!.tenantId) throw forbidden("只能调整本公司的采集队列");
  const rows = await ctx.tx
    .update(aquiredUrls)
    .set({ sort: body.sort, lastModificationTime: new Date() })
    .where(and(urlsOwnedBy(ctx), inArray(aquiredUrls.id, body.ids)))
    .returning({ id: aquiredUrls.id });
  return { count: rows.length };
}

async function importUrls(jobs: Jobs, ctx: CallContext, q: z.output<typeof importUrlsQuery>) {
  const buf = await receiveUpload(ctx, IMPORT_MAX_BYTES);
  const parsed = await readUrlFile(buf);
  const valid: string[] = [];
  let invalid = 0;
  for (const raw of parsed.urls) {
    const r = webUrl.safeParse(raw);
    if (r.success) valid.push(r.data);
    else invalid++;
  }
  if (!valid.length) throw badRequest("文件中没有有效的商品链接（http 或 https）");
  return enqueueUrls(jobs, ctx, valid, { platformType: q.platformType, isDiscountPrice: q.isDiscountPrice, invalid, what: "导入文件" });
}

// ---------------------------------------------------------------------------------------------------------------
// The dispatcher.

/** Turns up to a batch of the tenant's waiting URLs into collection tasks; answers whether URLs are still waiting. */
async function dispatchUrls(tx: Tx, jobs: Jobs, tenantId: string): Promise<boolean> {
  const [{ inFlight }] = rowsOf<{ inFlight: number }>(
    await tx.execute(
      sql`select count(*)::int as "inFlight" from aquired_urls where tenant_id = ${tenantId} and status = ${TaskStatus.Running}`,
    ),
  );
  const room = Math.min(DISPATCH_BATCH, MAX_IN_FLIGHT - inFlight);
  if (room > 0) {
    const picked = await tx
      .select()
      .from(aquiredUrls)
      .where(and(eq(aquiredUrls.tenantId, tenantId), eq(aquiredUrls.status, TaskStatus.Pending)))
      .orderBy(desc(aquiredUrls.sort), asc(aquiredUrls.creationTime), asc(aquiredUrls.id))
      .limit(room)
      .for("update", { skipLocked: true });
    const byUser = new Map<string, typeof picked>();
    for (const p of picked) byUser.set(p.userId, [...(byUser.get(p.userId) ?? []), p]);
    for (const [userId, list] of byUser) {
      const taskIds = await createCrawlTasks(
        tx,
        jobs,
        { tenantId, userId },
        list.map((p) => ({
          url: p.url,
          platformType: p.platformType,
          aquiredUrlId: p.id,
          taskInfoId: p.taskInfoId,
          isDiscountPrice: p.isDiscountPrice,
        })),
      );
      const pairs = list.map((p, i) => sql`(${p.id}::uuid, ${taskIds[i]}::uuid)`);
      await tx.execute(sql`update aquired_urls a set status = ${TaskStatus.Running}, collect_task_id = m.tid,
          crawl_count = a.crawl_count + 1, message = '等待采集', last_modification_time = now()
        from (values ${sql.join(pairs, sql`, `)}) as m(aid, tid)
        where a.tenant_id = ${tenantId} and a.id = m.aid`);
    }
    const infos = new Set(picked.map((p) => p.taskInfoId).filter((x): x is string => !!x));
    for (const info of infos) await refreshTaskInfo(tx, tenantId, info, true);
  }
  const [{ waiting }] = rowsOf<{ waiting: number }>(
    await tx.execute(
      sql`select count(*)::int as waiting from aquired_urls where tenant_id = ${tenantId} and status = ${TaskStatus.Pending}`,
    ),
  );
  return waiting > 0;
}

/** The URL queue's calls, and the dispatcher that feeds the crawler a batch at a time. */
export function createUrlQueue({ database, jobs }: { database: Database; jobs: Jobs }) {
  const dispatch = async ({ tenantId }: DispatchJob) => {
    const more = await inScope(database.db, { tenantId }, (tx) => dispatchUrls(tx, jobs, tenantId));
    if (more) await jobs.send<DispatchJob>(DISPATCH_JOB, { tenantId }, { startAfterSeconds: DISPATCH_INTERVAL_SECONDS });
  };
  return {
    workers: [worker<DispatchJob>(DISPATCH_JOB, dispatch)],
    getList,
    getStatics,
    getUrlSatatics,
    createUrls: (ctx: CallContext, body: z.output<typeof createUrlsInput>) => createUrls(jobs, ctx, body),
    reCrwalUrls: (ctx: CallContext, ids: string[] | null | undefined) => reCrwalUrls(jobs, ctx, ids),
    importUrls: (ctx: CallContext, q: z.output<typeof importUrlsQuery>) => importUrls(jobs, ctx, q),
    deleteUrls,
    setUrlSort,
  };
}
