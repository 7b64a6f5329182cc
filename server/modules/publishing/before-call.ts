// What PreflightPublish and Publish do before their transaction (Mercado Libre is never called inside one, and a large
// publish never holds the database or the event loop for long): the listing fees read into their cache, the preview's
// picture sizes probed, Publish's plans and batch written over short transactions; and after Publish's transaction,
// the removal of a batch it did not make one. A request the call will refuse (a 4xx) does nothing here: its
// transaction answers it.
import type { Db, Tx } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError } from "../../http/errors.ts";
import { keyAnswered, readIdempotencyKey } from "../../http/idempotency.ts";
import { PREVIEW_MAX_PRODUCTS, type PublishRequest } from "#shared/contract/publish.ts";
import { loadSessionUser } from "../../http/session-user.ts";
import { dropUnfinished, writeBatch } from "./batch-write.ts";
import { PREVIEW_PROBE_MS, PUBLISH_MAX_PRODUCTS } from "./constants.ts";
import { ensureListingFees, feeKeysOf } from "./fees.ts";
import { probeImageSizes, productPictures } from "./pictures.ts";
import { keptPlans, planInSlices } from "./plan-slices.ts";
import { resolveRequest, selectedCount } from "./selection.ts";
import type { Planner, PublishingDeps } from "./types.ts";

type Call = Omit<CallContext, "tx" | "user">;

/** Runs `read` in a short transaction of its own as the caller; null when there is no caller or the call will refuse. */
async function asCaller<T>(db: Db, call: Call, read: (ctx: CallContext, tx: Tx, userId: string) => Promise<T>): Promise<T | null> {
  const principal = call.principal;
  if (!principal) return null;
  return inScope(db, { tenantId: call.tenantId }, async (tx) => {
    const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
    return read(ctx, tx, principal.userId);
  }).catch((err: unknown) => {
    if (err instanceof AppError) return null; // the call's transaction answers it
    throw err;
  });
}

export function createBeforeCalls(deps: PublishingDeps, plan: Planner) {
  const db = deps.database.db;

  /**
   * Before PreflightPublish and Publish: the marketplace's fees for the request's categories and listing type, read
   * into the cache when missing or older than 24 h (fees.ts); the planner reads the cache.
   */
  async function readListingFees(call: Call, request: PublishRequest, preview: boolean): Promise<void> {
    const wanted = await asCaller(db, call, async (ctx, tx) => {
      const limit = preview ? PREVIEW_MAX_PRODUCTS : PUBLISH_MAX_PRODUCTS;
      const { group, productIds, siteAccounts } = await resolveRequest(ctx, request, limit);
      return { groupId: group.id, keys: await feeKeysOf(tx, { tenantId: call.tenantId, request, productIds, accounts: siteAccounts }) };
    });
    if (wanted) await ensureListingFees(deps, { tenantId: call.tenantId, creatorId: call.principal!.userId, ...wanted });
  }

  /** Before PreflightPublish: the selected products' pictures not in the size cache are probed (≤ 3 s). */
  async function probePreviewPictures(call: Call, request: PublishRequest): Promise<void> {
    if (!call.principal) return;
    const urls = await asCaller(db, call, async (ctx, tx) =>
      productPictures(tx, call.tenantId, (await resolveRequest(ctx, request, PREVIEW_MAX_PRODUCTS)).productIds),
    );
    await probeImageSizes(db, urls ?? [], { budgetMs: PREVIEW_PROBE_MS, fetch: deps.pictures });
  }

  /**
   * Before Publish: the fees (readListingFees), then the plans in slices of short transactions (plan-slices.ts), then
   * the batch hidden and its listings in chunks of short transactions (batch-write.ts). Nothing is written for a
   * request whose Idempotency-Key already answered (the call replays that answer).
   */
  async function beforePublish(call: Call, request: PublishRequest): Promise<void> {
    await readListingFees(call, request, false);
    const key = readIdempotencyKey(call.req);
    const prepared = await asCaller(db, call, async (ctx, tx, userId) => {
      if (key && (await keyAnswered(tx, { tenantId: call.tenantId, userId, key }))) return null;
      const { group, productIds, siteAccounts, where } = await resolveRequest(ctx, request, PUBLISH_MAX_PRODUCTS);
      const selected = await selectedCount(ctx, request, productIds.length, where, PUBLISH_MAX_PRODUCTS);
      return { creatorId: ctx.user!.id, input: { group, productIds, siteAccounts, selected } };
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
  async function afterPublish(call: Call): Promise<void> {
    await dropUnfinished(db, call.req, call.tenantId);
  }

  return { readListingFees, probePreviewPictures, beforePublish, afterPublish };
}
