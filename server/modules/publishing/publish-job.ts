// The publish job (one per product of a batch): marks the product's pending listings as publishing, plans them again
// with the product as it is now, translates the titles still missing, then submits them: local sites one item each
// (submit-local.ts), a global-selling shop one global item for all its sites (submit-global.ts).
import { and, eq, inArray, sql } from "drizzle-orm";
import { listings, meliAccountGroups, meliAccounts, publishBatches } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { createTranslator, readTranslateSettings } from "../../integrations/translate/index.ts";
import { TranslationError } from "../../integrations/translate/types.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import type { PublishRequest } from "#shared/contract/publish.ts";
import { cutTitle, framedTitle } from "#shared/publish/preflight.ts";
import { refreshBatch } from "./batch-state.ts";
import { finish } from "./outcome.ts";
import { probeProductPictures } from "./pictures.ts";
import { JOB_PROBE_MS } from "./constants.ts";
import type { ListingPlan, Planner, PublishingDeps } from "./types.ts";
import { submitGlobal } from "./submit-global.ts";
import { submitLocal } from "./submit-local.ts";

export type PublishJob = { tenantId: string; batchId: string; productId: string };

export function createPublishJob(deps: PublishingDeps, plan: Planner) {
  const db = deps.database.db;

  /** The product's listings of the batch still waiting, now marked Publishing (their attempt counted). */
  async function claimPending({ tenantId, batchId, productId }: PublishJob) {
    return inScope(db, { tenantId }, async (tx) => {
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
        const ids = rows.map((r) => r.listing.id);
        await tx
          .update(listings)
          .set({ status: ListingStatus.Publishing, attempts: sql`${listings.attempts} + 1` })
          .where(and(eq(listings.tenantId, tenantId), inArray(listings.id, ids)));
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
  }

  /** The batch's request and shop group, and the product's plans for the pending listings' shops. */
  async function planAgain({ tenantId, batchId, productId }: PublishJob, accountIds: string[]) {
    return inScope(db, { tenantId }, async (tx) => {
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
        .where(and(eq(meliAccounts.tenantId, tenantId), inArray(meliAccounts.id, accountIds)));
      const request = batch.request as PublishRequest;
      const byProduct = await plan(tx, { tenantId, request, productIds: [productId], accounts });
      return { ...batch, request, plans: byProduct.get(productId) ?? [] };
    });
  }

  /** The job: creates the product's pending listings of the batch, one item per site. */
  async function runPublishJob(job: PublishJob): Promise<void> {
    const pending = await claimPending(job);
    if (!pending.length) return refreshBatch(db, job.tenantId, job.batchId);
    // The product's picture sizes, so the plan leaves out pictures under 500 px (pictures.ts).
    await probeProductPictures(db, job.tenantId, [job.productId], { budgetMs: JOB_PROBE_MS, fetch: deps.pictures });
    const batch = await planAgain(job, [...new Set(pending.map((p) => p.listing.accountId))]);
    await translateTitles(job.tenantId, batch.plans, batch.request);
    const shop = deps.meli.shop({ tenantId: job.tenantId, groupId: batch.groupId });
    if (batch.isCbt) {
      const seller = { custId: batch.groupCustId, listingType: batch.request.listingType };
      await submitGlobal(
        deps,
        job.tenantId,
        pending.map((p) => p.listing),
        batch.plans,
        seller,
        shop,
      );
    } else {
      await submitLocal(deps, job.tenantId, pending, batch.plans, shop);
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
      const translator = await inScope(db, { tenantId }, async (tx) => createTranslator(await readTranslateSettings(tx, deps.secrets)));
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

  /**
   * The queue tried the job for the last time and it failed (Mercado Libre down for minutes, say): the product's
   * listings still waiting end Failed with the reason, their codes go back to the pool and the batch ends, so nothing
   * waits for a job that will not run again. RetryPublish sends them again.
   */
  async function failPublishJob(job: PublishJob, err: unknown) {
    const { tenantId, batchId, productId } = job;
    const waiting = await inScope(db, { tenantId }, (tx) =>
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
      await finish(deps, tenantId, listing, [], { status: ListingStatus.Failed, reason: `多次重试后仍未刊登成功：${why}` });
  }

  return { runPublishJob, failPublishJob };
}
