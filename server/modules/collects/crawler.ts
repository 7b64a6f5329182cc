// The server crawler (spec §3 collection task): CrawlProductByTool turns a collect request into collection tasks and
// queues one job per task; the job fetches the page through the SSRF guard, runs the shared extractor on the HTML and
// stores the product as the extension's collect does. The task shows its status and message while it runs. Network
// trouble, 429 and 5xx are retried with exponential back-off (our own, so the task shows the attempt and the next
// run); a login or captcha page is a final "blocked: login" / "blocked: captcha", never a retry loop.
import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.ts";
import { rowsOf, type Database, type Tx } from "../../db/client.ts";
import { aquiredUrls, collectTasks, users } from "../../db/schema.ts";
import { containsPattern, orderBy } from "../../db/query.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, badRequest, businessError } from "../../http/errors.ts";
import type { PagedResult } from "#shared/contract/common.ts";
import { platformTypeOf, type CollectTask, type collectRequest, type getCollectTasksQuery } from "#shared/contract/collect.ts";
import { CollectSource, TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { incompleteWarning } from "#shared/extract/product.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask } from "../../jobs/tasks.ts";
import { emitProgress } from "../../jobs/progress.ts";
import { detectPlatform, extract } from "./extractor.ts";
import { CrawlError, crawlFetch, createHostQueues, type CrawlFetchOptions, type HostQueues } from "./fetch.ts";
import { readCollectConfig, remainingCollects, storeCollection } from "./store.ts";

const CRAWL_JOB = "collect-crawl";
/** Crawl jobs running at once per process: a crawl mostly waits on the source site, and one worker alone is held to
 *  two jobs a second by the queue's poll (bench/RESULTS.md, Collection). The per-host limit of the fetch still applies. */
const CRAWL_CONCURRENCY = 8;
export type CrawlJob = { tenantId: string; taskId: string };

export type CrawlerDeps = { database: Database; jobs: Jobs; log: FastifyBaseLogger; crawl: Config["crawl"] };

/** The platform type of a URL: the extractor's adapters, else Generic. */
export async function platformTypeOfUrl(url: string): Promise<number> {
  return platformTypeOf(await detectPlatform(url));
}

export type NewTask = {
  url: string;
  platformType?: number | null;
  title?: string | null;
  image?: string | null;
  weight?: number | null;
  clientId?: string | null;
  aquiredUrlId?: string | null;
  taskInfoId?: string | null;
  isDiscountPrice: boolean;
};

/** Inserts collection tasks (one statement) and queues their jobs, in the caller's transaction. */
export async function createCrawlTasks(tx: Tx, jobs: Jobs, who: { tenantId: string; userId: string }, list: NewTask[]) {
  if (!list.length) return [];
  const now = new Date();
  const rows = [];
  for (const t of list) {
    rows.push({
      tenantId: who.tenantId,
      id: randomUUID(),
      userId: who.userId,
      platformType: t.platformType ?? (await platformTypeOfUrl(t.url)),
      url: t.url,
      title: t.title ?? null,
      image: t.image ?? null,
      weight: t.weight === null || t.weight === undefined ? null : t.weight.toFixed(2),
      isDiscountPrice: t.isDiscountPrice,
      taskStatus: TaskStatus.Pending,
      message: "等待采集",
      aquiredUrlId: t.aquiredUrlId ?? null,
      taskInfoId: t.taskInfoId ?? null,
      clientId: t.clientId ?? null,
      creationTime: now,
      lastModificationTime: now,
    });
  }
  await tx.insert(collectTasks).values(rows);
  for (const r of rows) await jobs.send<CrawlJob>(CRAWL_JOB, { tenantId: who.tenantId, taskId: r.id }, { tx });
  return rows.map((r) => r.id);
}

async function crawlProductByTool(jobs: Jobs, ctx: CallContext, body: z.output<typeof collectRequest>) {
  const u = ctx.user!;
  const seen = new Set<string>();
  const unique = body.urls.filter((x) => (seen.has(x.url) ? false : (seen.add(x.url), true)));
  const remaining = await remainingCollects(ctx.tx, u.tenantId, u.id);
  if (remaining === 0) {
    throw businessError(`已达到采集数量上限（${u.collectCount} 个），请删除不需要的采集商品或联系主账号提高上限`, "Collect.LimitReached");
  }
  const isDiscountPrice = body.isDiscountPrice ?? (await readCollectConfig(ctx.tx, u.tenantId)).isDiscountPrice;
  const taskInfoId = await createTask(ctx.tx, {
    tenantId: u.tenantId,
    taskType: TaskType.Collect,
    content: `采集 ${unique.length} 个商品链接`,
    creatorId: u.id,
  });
  const taskIds = await createCrawlTasks(
    ctx.tx,
    jobs,
    { tenantId: u.tenantId, userId: u.id },
    unique.map((x) => ({
      url: x.url,
      platformType: body.platformType,
      title: x.title,
      image: x.image,
      weight: x.weight,
      clientId: x.id === null || x.id === undefined ? null : String(x.id),
      taskInfoId,
      isDiscountPrice,
    })),
  );
  const ignoreCount = body.urls.length - unique.length;
  return {
    successCount: taskIds.length,
    ignoreCount,
    isDelayImport: false,
    message: `已创建 ${taskIds.length} 个采集任务${ignoreCount ? `，忽略重复链接 ${ignoreCount} 个` : ""}`,
    taskIds,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The task list (/collects/task).

const taskSort = {
  creationTime: collectTasks.creationTime,
  lastModificationTime: collectTasks.lastModificationTime,
  taskStatus: collectTasks.taskStatus,
};

function toTask(t: typeof collectTasks.$inferSelect, owner: string | null): CollectTask {
  return {
    id: t.id,
    tenantId: t.tenantId,
    userId: t.userId,
    owner,
    platformType: t.platformType,
    url: t.url,
    title: t.title,
    sku: t.sku,
    taskStatus: t.taskStatus,
    image: t.image,
    message: t.message,
    attempts: t.attempts,
    nextRunAt: t.nextRunAt?.toISOString() ?? null,
    finishedAt: t.finishedAt?.toISOString() ?? null,
    collectionId: t.collectionId,
    creationTime: t.creationTime.toISOString(),
    lastModificationTime: t.lastModificationTime.toISOString(),
  };
}

function tasksOwnedBy(ctx: CallContext): SQL {
  const u = ctx.user!;
  const tenant = eq(collectTasks.tenantId, u.tenantId);
  return u.isMainAccount ? tenant : and(tenant, eq(collectTasks.userId, u.id))!;
}

async function getCollectTasks(ctx: CallContext, q: z.output<typeof getCollectTasksQuery>): Promise<PagedResult<CollectTask>> {
  if (q.StartDate && q.EndDate && q.StartDate > q.EndDate) throw badRequest("开始时间不能晚于结束时间");
  const c: SQL[] = [tasksOwnedBy(ctx)];
  if (q.UserId) c.push(eq(collectTasks.userId, q.UserId));
  if (q.Sku) c.push(eq(collectTasks.sku, q.Sku));
  if (q.Search) c.push(or(ilike(collectTasks.url, containsPattern(q.Search)), ilike(collectTasks.title, containsPattern(q.Search)))!);
  if (q.StartDate) c.push(gte(collectTasks.creationTime, q.StartDate));
  if (q.EndDate) c.push(lte(collectTasks.creationTime, q.EndDate));
  if (q.TaskStatus !== undefined) c.push(eq(collectTasks.taskStatus, q.TaskStatus));
  const where = and(...c);
  const [{ n }] = await ctx.tx.select({ n: count() }).from(collectTasks).where(where);
  const total = Number(n);
  if (!total || q.SkipCount >= total) return { items: [], totalCount: total };
  const rows = await ctx.tx
    .select({ t: collectTasks, owner: users.userName })
    .from(collectTasks)
    .leftJoin(users, and(eq(users.tenantId, collectTasks.tenantId), eq(users.id, collectTasks.userId)))
    .where(where)
    .orderBy(orderBy(q.Sorting, taskSort, desc(collectTasks.creationTime)), desc(collectTasks.creationTime), asc(collectTasks.id))
    .limit(q.MaxResultCount)
    .offset(q.SkipCount);
  return { items: rows.map((r) => toTask(r.t, r.owner)), totalCount: total };
}

/** Runs finished tasks (failed, cancelled, or succeeded to refresh the product) again from a first attempt. */
async function reCrawlTasks(jobs: Jobs, ctx: CallContext, ids: string[]) {
  const rows = await ctx.tx
    .update(collectTasks)
    .set({
      taskStatus: TaskStatus.Pending,
      attempts: 0,
      message: "等待采集",
      nextRunAt: null,
      finishedAt: null,
      lastModificationTime: new Date(),
    })
    .where(
      and(
        tasksOwnedBy(ctx),
        inArray(collectTasks.id, ids),
        inArray(collectTasks.taskStatus, [TaskStatus.Succeeded, TaskStatus.Failed, TaskStatus.Cancelled]),
      ),
    )
    .returning({ id: collectTasks.id, taskInfoId: collectTasks.taskInfoId, aquiredUrlId: collectTasks.aquiredUrlId });
  const tenantId = ctx.user!.tenantId;
  const fromUrls = rows.filter((r) => r.aquiredUrlId).map((r) => r.id);
  if (fromUrls.length) {
    await ctx.tx
      .update(aquiredUrls)
      .set({ status: TaskStatus.Running, message: "等待采集", lastModificationTime: new Date() })
      .where(and(eq(aquiredUrls.tenantId, tenantId), inArray(aquiredUrls.collectTaskId, fromUrls)));
  }
  for (const r of rows) await jobs.send<CrawlJob>(CRAWL_JOB, { tenantId, taskId: r.id }, { tx: ctx.tx });
  const infos = new Map(rows.filter((r) => r.taskInfoId).map((r) => [r.taskInfoId!, !!r.aquiredUrlId]));
  for (const [infoId, fromUrls] of infos) await refreshTaskInfo(ctx.tx, tenantId, infoId, fromUrls);
  return { count: rows.length };
}

// ---------------------------------------------------------------------------------------------------------------
// The job.

type TaskRow = typeof collectTasks.$inferSelect;

function fetchOptions(c: Config["crawl"]): CrawlFetchOptions {
  return {
    allowPrivate: c.allowPrivate,
    timeoutMs: c.timeoutMs,
    maxBodyBytes: c.maxBodyBytes,
    maxRedirects: c.maxRedirects,
    perHostConcurrency: c.perHostConcurrency,
    treatAsPublic: crawlTestHooks.treatAsPublic,
    resolveHost: crawlTestHooks.resolveHost,
  };
}

/** Tests only: see CrawlFetchOptions.treatAsPublic. */
export const crawlTestHooks: { treatAsPublic?: (address: string) => boolean; resolveHost?: (hostname: string) => string | undefined } = {};

type Finish = {
  taskStatus: number;
  message: string;
  collectionId?: string | null;
  sku?: string | null;
  title?: string | null;
  image?: string | null;
  platformType?: number;
  retryInSeconds?: number;
};

/** A stored product's task message; a partial one says what did not come out. */
function collectedMessage(isNew: boolean, incomplete: readonly string[] | undefined): string {
  const base = isNew ? "采集成功" : "采集成功（已更新已有的采集商品）";
  return incomplete?.length ? `${base}；${incompleteWarning(incomplete)}` : base;
}

/** Records a task's outcome, and its URL's in the queue when it came from there; a retry queues the next attempt. */
async function finish(tx: Tx, jobs: Jobs, task: TaskRow, f: Finish) {
  const now = new Date();
  const final = f.retryInSeconds === undefined;
  await tx
    .update(collectTasks)
    .set({
      taskStatus: f.taskStatus,
      message: f.message.slice(0, 1000),
      lastModificationTime: now,
      finishedAt: final ? now : null,
      nextRunAt: final ? null : new Date(now.getTime() + f.retryInSeconds! * 1000),
      ...(f.collectionId !== undefined ? { collectionId: f.collectionId } : {}),
      ...(f.sku ? { sku: f.sku } : {}),
      ...(f.title && !task.title ? { title: f.title.slice(0, 1000) } : {}),
      ...(f.image && !task.image ? { image: f.image } : {}),
      ...(f.platformType ? { platformType: f.platformType } : {}),
    })
    .where(and(eq(collectTasks.tenantId, task.tenantId), eq(collectTasks.id, task.id)));
  if (task.aquiredUrlId) {
    await tx
      .update(aquiredUrls)
      .set({
        status: final ? f.taskStatus : TaskStatus.Running,
        message: f.message.slice(0, 1000),
        lastModificationTime: now,
        ...(f.collectionId ? { collectionId: f.collectionId } : {}),
      })
      .where(and(eq(aquiredUrls.tenantId, task.tenantId), eq(aquiredUrls.id, task.aquiredUrlId), eq(aquiredUrls.collectTaskId, task.id)));
  }
  if (task.taskInfoId) await refreshTaskInfo(tx, task.tenantId, task.taskInfoId, !!task.aquiredUrlId);
  if (!final) {
    await jobs.send<CrawlJob>(CRAWL_JOB, { tenantId: task.tenantId, taskId: task.id }, { tx, startAfterSeconds: f.retryInSeconds });
  }
}

/**
 * Brings a task-centre record up to date with its collection tasks (or, for an import, with its queued URLs) in one
 * statement (after locking it): progress, and the final status once every one has finished.
 */
export async function refreshTaskInfo(tx: Tx, tenantId: string, taskInfoId: string, fromUrls: boolean) {
  // The record is locked before counting: two crawls finishing together would otherwise each count without the
  // other's row and the later one would write its stale count last. Under read committed the count below, a new
  // statement, then sees every crawl that refreshed the record before this one.
  await tx.execute(sql`select 1 from task_infos where tenant_id = ${tenantId} and id = ${taskInfoId} for update`);
  const counts = fromUrls
    ? sql`select count(*)::int as total, count(*) filter (where status in (3, 4))::int as done,
          count(*) filter (where status = 3)::int as ok, count(*) filter (where status = 4)::int as failed
        from aquired_urls where tenant_id = ${tenantId} and task_info_id = ${taskInfoId}`
    : sql`select count(*)::int as total, count(*) filter (where task_status in (3, 4, 9))::int as done,
          count(*) filter (where task_status = 3)::int as ok, count(*) filter (where task_status = 4)::int as failed
        from collect_tasks where tenant_id = ${tenantId} and task_info_id = ${taskInfoId}`;
  const [t] = rowsOf<{ creatorId: string | null; taskType: number; status: number; progress: number }>(
    await tx.execute(sql`with s as (${counts})
    update task_infos t set
      progress = case when s.total = 0 then 100 else (s.done * 100 / s.total) end,
      task_status = case when s.done < s.total then ${TaskStatus.Running}::int
        when s.ok > 0 or s.total = 0 then ${TaskStatus.Succeeded}::int else ${TaskStatus.Failed}::int end,
      task_remark = '成功 ' || s.ok || '，失败 ' || s.failed || '，共 ' || s.total,
      last_update_time = now()
    from s where t.tenant_id = ${tenantId} and t.id = ${taskInfoId}
    returning t.creator_id as "creatorId", t.task_type as "taskType", t.task_status as "status", t.progress`),
  );
  if (t) await emitProgress(tx, { tenantId, kind: "task", id: taskInfoId, ...t });
}

async function runCrawlTask(deps: CrawlerDeps, hosts: HostQueues, job: CrawlJob): Promise<void> {
  const db = deps.database.db;
  const scope = { tenantId: job.tenantId };
  // Take the task: only a pending one, so a duplicate job or a late retry does nothing.
  const task = await inScope(db, scope, async (tx) => {
    const [t] = await tx
      .select()
      .from(collectTasks)
      .where(
        and(eq(collectTasks.tenantId, job.tenantId), eq(collectTasks.id, job.taskId), eq(collectTasks.taskStatus, TaskStatus.Pending)),
      );
    if (!t) return null;
    const attempts = t.attempts + 1;
    await tx
      .update(collectTasks)
      .set({
        taskStatus: TaskStatus.Running,
        attempts,
        message: `正在采集（第 ${attempts} 次）`,
        nextRunAt: null,
        lastModificationTime: new Date(),
      })
      .where(and(eq(collectTasks.tenantId, t.tenantId), eq(collectTasks.id, t.id)));
    if (t.aquiredUrlId) {
      await tx
        .update(aquiredUrls)
        .set({ status: TaskStatus.Running, message: "正在采集", lastModificationTime: new Date() })
        .where(and(eq(aquiredUrls.tenantId, t.tenantId), eq(aquiredUrls.id, t.aquiredUrlId), eq(aquiredUrls.collectTaskId, t.id)));
    }
    return { ...t, attempts };
  });
  if (!task) return;
  const c = deps.crawl;
  try {
    let page;
    try {
      page = await crawlFetch(task.url, fetchOptions(deps.crawl), hosts);
    } catch (err) {
      if (!(err instanceof CrawlError)) throw err;
      const retry = err.retry && task.attempts < c.maxAttempts;
      const wait = Math.min(3600, Math.max(err.retryAfterSeconds ?? 0, c.retryBaseSeconds * 2 ** (task.attempts - 1)));
      await inScope(db, scope, (tx) =>
        finish(
          tx,
          deps.jobs,
          task,
          retry
            ? {
                taskStatus: TaskStatus.Pending,
                message: `采集失败：${err.message}，${Math.round(wait)} 秒后重试（已尝试 ${task.attempts} 次）`,
                retryInSeconds: wait,
              }
            : { taskStatus: TaskStatus.Failed, message: `采集失败：${err.message}` },
        ),
      );
      return;
    }
    const result = await extract({ url: page.url, capturedAt: new Date().toISOString(), html: page.html });
    if (result.status === "blocked") {
      await inScope(db, scope, (tx) =>
        finish(tx, deps.jobs, task, {
          taskStatus: TaskStatus.Failed,
          message: `blocked: ${result.block ?? "captcha"}`,
          platformType: platformTypeOf(result.platform),
        }),
      );
      return;
    }
    if ((result.status !== "ok" && result.status !== "partial") || !result.product) {
      await inScope(db, scope, (tx) =>
        finish(tx, deps.jobs, task, { taskStatus: TaskStatus.Failed, message: "采集失败：页面不是商品页或未找到商品数据" }),
      );
      return;
    }
    const product = result.product;
    await inScope(db, scope, async (tx) => {
      try {
        const stored = await storeCollection(
          tx,
          { tenantId: task.tenantId, userId: task.userId },
          {
            ...product,
            sources: result.sources as Record<string, string>,
            missingFields: result.missingFields,
            warnings: result.warnings,
            incompleteFields: result.incompleteFields,
            isDiscountPrice: task.isDiscountPrice,
          },
          { source: CollectSource.Crawler, collectTaskId: task.id, weight: task.weight === null ? null : Number(task.weight) },
        );
        await finish(tx, deps.jobs, task, {
          taskStatus: TaskStatus.Succeeded,
          message: collectedMessage(stored.isNew, result.incompleteFields),
          collectionId: stored.id,
          sku: product.itemId,
          title: product.title[product.titleLanguage],
          image: product.images[0] ?? null,
          platformType: platformTypeOf(product.platform),
        });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        await finish(tx, deps.jobs, task, { taskStatus: TaskStatus.Failed, message: `采集失败：${err.message}`, sku: product.itemId });
      }
    });
  } catch (err) {
    // Anything unexpected ends the task visibly rather than leaving it running.
    deps.log.error({ err, taskId: task.id }, "crawl task failed");
    await inScope(db, scope, (tx) => finish(tx, deps.jobs, task, { taskStatus: TaskStatus.Failed, message: "采集失败：内部错误" }));
  }
}

/** The crawl worker, and the calls that create and re-run crawl tasks on the queue. */
export function createCrawler(deps: CrawlerDeps) {
  // This app's per-host queues: its crawl jobs wait for each other, not for another app's in the same process.
  const hosts = createHostQueues();
  return {
    workers: [worker<CrawlJob>(CRAWL_JOB, (job) => runCrawlTask(deps, hosts, job), { concurrency: CRAWL_CONCURRENCY })],
    crawlProductByTool: (ctx: CallContext, body: z.output<typeof collectRequest>) => crawlProductByTool(deps.jobs, ctx, body),
    getCollectTasks,
    reCrawlTasks: (ctx: CallContext, ids: string[]) => reCrawlTasks(deps.jobs, ctx, ids),
  };
}
