// The category sync (UpdateAllCategory, UpdateAllMeliAttr, UpdateAllCateFee): a job with a task record (TaskType 9)
// that reads Mercado Libre through the adapter's public category calls, outside any transaction, and writes each batch
// in one short host-side transaction. Phases per job: the trees of the asked sites (one dump each), then every leaf's
// attributes, then every leaf's fees (listing_prices), a bounded number of requests in flight. One failed category is
// counted and skipped; a failed tree leaves that site as it was. Running it again gives the same rows (upserts that skip
// what did not change), so the queue's retry and a second sync are both harmless.
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import { HOST_TENANT_ID, taskInfos } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { pool } from "../../jobs/pool.ts";
import { worker, type JobWorker, type Jobs } from "../../jobs/queue.ts";
import { createTask, updateTask } from "../../jobs/tasks.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import type { MeliSiteCode } from "../../integrations/mercadolibre/types.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import type { CategoryTaskResult } from "#shared/contract/category.ts";
import { hashOf, toAttributes, treeRows, variantKeysOf } from "./shape.ts";
import {
  leafIds,
  rebuildSiteTree,
  refreshFullZh,
  refreshGenderMappings,
  storedAttributes,
  writeAttributes,
  writeFees,
  writeTree,
  type AttributeWrite,
  type FeeWrite,
} from "./store.ts";
import { applyGlossary } from "./glossary.ts";
import { getAllCategories, getCategoryAttributes } from "../../integrations/mercadolibre/endpoints/categories.ts";
import { getListingPrices } from "../../integrations/mercadolibre/endpoints/fees.ts";
import { MARGIN_JOB, type MarginChange } from "../listings/index.ts";

/** What the category area works with: the host's category tables, Mercado Libre's catalog, the job queue, settings. */
export type CategoryDeps = { database: Database; jobs: Jobs; log: FastifyBaseLogger; secrets: SecretBox; meli: MeliClient };

export const SYNC_JOB = "categories.sync";
/** Requests to Mercado Libre in flight at once (the app's rate bucket still paces them). */
const PARALLEL = 8;
/** Categories per write. */
const BATCH = 100;
/** A category task not updated for this long is taken as dead (its process ended): a new one may start. */
const STALE_MS = 10 * 60_000;

export type SyncPart = "tree" | "attributes" | "fees";
export type SyncJob = { taskId: string; sites: MeliSiteNumber[]; parts: SyncPart[] };

export const siteName = (site: number) => MELI_SITES[site as MeliSiteNumber].name;
export const meliSiteOf = (site: number) => MELI_SITES[site as MeliSiteNumber].meli as MeliSiteCode;

const partNames: Record<SyncPart, string> = { tree: "类目树", attributes: "属性", fees: "费率" };

/**
 * The category task already queued or running (any kind: sync or translation), if any. One at a time: they write the
 * same rows, and a double click must not start two.
 */
async function runningCategoryTask(ctx: CallContext): Promise<string | null> {
  const [row] = await ctx.tx
    .select({ id: taskInfos.id })
    .from(taskInfos)
    .where(
      and(
        eq(taskInfos.tenantId, HOST_TENANT_ID),
        eq(taskInfos.taskType, TaskType.SyncCategories),
        inArray(taskInfos.taskStatus, [TaskStatus.Pending, TaskStatus.Running]),
        gt(taskInfos.lastUpdateTime, new Date(Date.now() - STALE_MS)),
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

/** Queues a category job with its task record, unless one is already queued or running (then answers that one). */
export async function startCategoryJob<T extends { taskId: string }>(
  jobs: Jobs,
  ctx: CallContext,
  job: { name: string; content: string; data: Omit<T, "taskId"> },
): Promise<CategoryTaskResult> {
  // Serialises two requests arriving together (the check above, then the insert, under one lock).
  await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext('erp:category-jobs'))`);
  const running = await runningCategoryTask(ctx);
  if (running) return { taskId: running, started: false };
  const taskId = await createTask(ctx.tx, {
    tenantId: HOST_TENANT_ID,
    taskType: TaskType.SyncCategories,
    content: job.content,
    creatorId: ctx.user!.id,
  });
  await jobs.send(job.name, { ...job.data, taskId }, { tx: ctx.tx });
  return { taskId, started: true };
}

export function syncContent(sites: MeliSiteNumber[], parts: SyncPart[]): string {
  const where = sites.length === 5 ? "全部站点" : sites.map(siteName).join("、");
  return `同步美客多类目：${where}（${parts.map((p) => partNames[p]).join("、")}）`;
}

const reason = (err: unknown) => (err instanceof MeliApiError ? err.message : err instanceof Error ? err.message : String(err));

/** Fee percentages of the classic and premium listing types of one leaf. */
async function readFees(deps: CategoryDeps, site: number, leaf: { cateId: string; minimumPrice: number | null }): Promise<FeeWrite> {
  // The percentage does not depend on the price; a price at or above the category's minimum is a valid question.
  const price = Math.max(leaf.minimumPrice ?? 0, 100);
  const list = await getListingPrices(deps.meli.public, meliSiteOf(site), { price, categoryId: leaf.cateId });
  const percent = (type: string) => {
    const f = list.find((x) => x.listing_type_id === type);
    if (!f) return null;
    const p = f.sale_fee_details?.percentage_fee ?? (f.sale_fee_amount * 100) / price;
    return Math.round(p * 100) / 100;
  };
  return { cateId: leaf.cateId, classic: percent("gold_special"), premium: percent("gold_pro") };
}

type SiteReport = { site: number; tree?: string; attributes?: number; fees?: number; failed: number; failures: string[] };

async function runSync(deps: CategoryDeps, job: SyncJob): Promise<void> {
  const db = deps.database.db;
  const task = (change: Parameters<typeof updateTask>[3]) => updateTask(db, HOST_TENANT_ID, job.taskId, change);
  const host = <T>(fn: Parameters<typeof inScope<T>>[2]) => inScope(db, hostAllScope, fn);
  await task({ taskStatus: TaskStatus.Running, progress: 0, taskRemark: "开始同步" });
  const reports: SiteReport[] = job.sites.map((site) => ({ site, failed: 0, failures: [] }));
  const leaves = new Map<number, { cateId: string; minimumPrice: number | null }[]>();
  const moved: { site: number; cateId: string }[] = [];
  const treeShare = job.parts.includes("tree") ? 10 : 0;
  try {
    // The trees first: they decide which leaves the later phases read.
    for (const [i, report] of reports.entries()) {
      const site = report.site;
      if (job.parts.includes("tree")) {
        try {
          const rows = treeRows(await getAllCategories(deps.meli.public, meliSiteOf(site)));
          const r = await host(async (tx) => {
            const written = await writeTree(tx, site, rows);
            await applyGlossary(tx, site);
            await refreshFullZh(tx, site);
            await rebuildSiteTree(tx, site, { tree: true });
            return written;
          });
          report.tree = `${rows.length} 个类目（新增或变更 ${r.changed}，下架 ${r.removed}）`;
        } catch (err) {
          report.failures.push(`类目树读取失败：${reason(err)}`);
          report.failed++;
          deps.log.warn({ err, site }, "category tree sync failed");
          continue;
        }
        await task({ progress: Math.floor((treeShare * (i + 1)) / reports.length), taskRemark: `${siteName(site)}：${report.tree}` });
      }
      leaves.set(site, await host((tx) => leafIds(tx, site)));
    }

    const perLeaf = (job.parts.includes("attributes") ? 1 : 0) + (job.parts.includes("fees") ? 1 : 0);
    const total = [...leaves.values()].reduce((n, l) => n + l.length * perLeaf, 0);
    let done = 0;
    const progress = (what: string) =>
      task({
        progress: Math.min(99, treeShare + Math.floor(((100 - treeShare) * done) / Math.max(1, total))),
        taskRemark: `${what}（${done}/${total}）`,
      });

    for (const report of reports) {
      const site = report.site;
      const list = leaves.get(site);
      if (!list) continue;
      if (job.parts.includes("attributes")) {
        report.attributes = 0;
        for (let i = 0; i < list.length; i += BATCH) {
          const batch = list.slice(i, i + BATCH);
          const answers = await pool(batch, PARALLEL, async (leaf) => {
            try {
              return { cateId: leaf.cateId, list: await getCategoryAttributes(deps.meli.public, leaf.cateId) };
            } catch (err) {
              report.failed++;
              if (report.failures.length < 5) report.failures.push(`${leaf.cateId} 属性读取失败：${reason(err)}`);
              return null;
            }
          });
          const got = answers.filter((a) => a !== null);
          await host(async (tx) => {
            const stored = await storedAttributes(
              tx,
              site,
              got.map((a) => a.cateId),
            );
            const changed: AttributeWrite[] = [];
            for (const a of got) {
              const hash = hashOf(a.list);
              const before = stored.get(a.cateId);
              if (before?.hash === hash) continue;
              const attributes = toAttributes(a.list, before?.attributes);
              changed.push({ cateId: a.cateId, hash, attributes, variantKeys: variantKeysOf(attributes) });
            }
            await writeAttributes(
              tx,
              site,
              changed,
              got.map((a) => a.cateId),
            );
          });
          report.attributes += got.length;
          done += batch.length;
          await progress(`${siteName(site)}：属性`);
        }
        await host(async (tx) => {
          await refreshGenderMappings(tx, site);
          await rebuildSiteTree(tx, site, { attributes: true });
        });
      }
      if (job.parts.includes("fees")) {
        report.fees = 0;
        for (let i = 0; i < list.length; i += BATCH) {
          const batch = list.slice(i, i + BATCH);
          const fees = await pool(batch, PARALLEL, async (leaf) => {
            try {
              return await readFees(deps, site, leaf);
            } catch (err) {
              report.failed++;
              if (report.failures.length < 5) report.failures.push(`${leaf.cateId} 费率读取失败：${reason(err)}`);
              return null;
            }
          });
          const got = fees.filter((f) => f !== null);
          moved.push(...(await host((tx) => writeFees(tx, site, got))).map((cateId) => ({ site, cateId })));
          report.fees += got.length;
          done += batch.length;
          await progress(`${siteName(site)}：费率`);
        }
        await host(async (tx) => {
          await rebuildSiteTree(tx, site, { fees: true });
          // The listings in categories whose fee moved get their margin computed again (one job for the site).
          if (moved.length) await deps.jobs.send<MarginChange>(MARGIN_JOB, { reason: "fee", categories: moved.splice(0) }, { tx });
        });
      }
    }

    const lines = reports.map((r) => {
      const parts = [
        r.tree,
        r.attributes !== undefined ? `属性 ${r.attributes} 个类目` : null,
        r.fees !== undefined ? `费率 ${r.fees} 个类目` : null,
        r.failed ? `失败 ${r.failed} 项：${r.failures.join("；")}` : null,
      ].filter(Boolean);
      return `${siteName(r.site)}：${parts.join("，")}`;
    });
    // Failed when anything could not be read (a partial sync is not a success: the remark names what failed and why);
    // progress stops short of 100 only when nothing could be read at all.
    const nothing = reports.every((r) => r.tree === undefined && !r.attributes && !r.fees);
    await task({
      taskStatus: nothing || reports.some((r) => r.failed > 0) ? TaskStatus.Failed : TaskStatus.Succeeded,
      progress: nothing ? undefined : 100,
      taskRemark: lines.join("\n"),
    });
  } catch (err) {
    deps.log.error({ err }, "category sync failed");
    await task({ taskStatus: TaskStatus.Failed, taskRemark: `同步失败：${reason(err)}` });
  }
}

/** The worker of the category sync job. */
export function syncWorker(deps: CategoryDeps): JobWorker {
  return worker<SyncJob>(SYNC_JOB, (job) => runSync(deps, job));
}
