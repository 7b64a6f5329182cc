// A large publish is written over several short transactions (issue 29: on PGlite, one connection, writing a batch of
// 2,000 products in one transaction held the database ~0.23 ms per listing, so other tenants' calls waited for all of
// it). Before the call's transaction, the batch is inserted in a state of its own, Writing, then its listings in
// chunks, each its own transaction sized by time (about batchWriting.chunkMs), with the event loop given back in
// between; the call's transaction then turns the batch into its real state, queues its jobs and keeps the
// Idempotency-Key's answer. A request with a key writes its batch under an id made from the key, so the same request
// sent twice at once writes one batch: the second waits for the first's end, then its call replays the answer.
//
// Until then the batch and its listings are hidden: a batch of negative status (Writing, or Dropping while it is
// removed) is left out of every read (the batch lists, the listing centre's list and tabs, the duplicate check; no job
// exists for it). Its listings hold their slots in the one-listing-per-shop-site index (migration 0026) from the chunk
// that wrote them, so a publish of the same product meanwhile is skipped as one being published. A batch whose call did
// not commit its end (its transaction failed, or the key answered an earlier request) is removed after the call; one
// whose process died between chunks is removed by its sweep, a job queued with the batch that runs once the batch has
// been untouched for WRITING_STALE_SECONDS (batch-sweep.ts). The end and every chunk require the state Writing, and a
// removal first turns it Dropping, so a writer that lost its batch to the sweep answers an error instead of completing
// half of it.
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { createHash, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { rowsOf, type Database, type Db } from "../../db/client.ts";
import { publishBatches } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import type { PublishRequest, PublishResult } from "#shared/contract/publish.ts";
import { listingRows, skipHeldElsewhere, startBatch, tally, type BatchInput } from "./batch-create.ts";
import { insertRows, type ListingRow } from "./batch-insert.ts";
import { dropBatch, type SweepJob } from "./batch-sweep.ts";
import { HiddenBatchStatus, WRITING_STALE_SECONDS, WRITING_SWEEP_JOB } from "./constants.ts";
import type { Planner } from "./types.ts";

/** How the listings are cut into transactions; tests make the chunks small and watch between them. */
export const batchWriting = {
  /** Listings in the first chunk; each next one as many as were written in about chunkMs at the last one's pace. */
  firstChunk: 100,
  chunkMs: 20,
  minChunk: 25,
  maxChunk: 500,
  /** Tests only: runs after a chunk committed, before the next one begins. */
  betweenChunks: null as null | ((batchId: string) => Promise<void>),
};

/** A batch written before the call's transaction, for its handler. */
type Written = BatchInput & { batchId: string; total: number; skipped: number; alreadyListed: number; toPublish: string[] };
const writtenFor = new WeakMap<FastifyRequest, Written>();

const expired = () => new AppError(409, "刊登批次写入未完成（等待过久已被清除），请重新刊登", "Publish.BatchExpired");

/**
 * Writes the batch hidden, its listings in chunks of their own transactions, and keeps it for the call's handler
 * (finishWrittenBatch). On any failure the batch is removed again.
 */
export async function writeBatch(
  deps: { database: Database; jobs: Jobs; log: FastifyBaseLogger },
  call: { req: FastifyRequest; tenantId: string; creatorId: string; key: string | null },
  request: PublishRequest,
  input: BatchInput,
  plan: Planner,
): Promise<void> {
  const db = deps.database.db;
  const { tenantId } = call;
  const batchId = call.key ? keyedBatchId(tenantId, call.creatorId, call.key) : randomUUID();
  const claimed = await inScope(db, { tenantId }, async (tx) => {
    const [row] = await tx
      .insert(publishBatches)
      .values({
        tenantId,
        id: batchId,
        accountGroupId: input.group.id,
        sites: request.sites,
        status: HiddenBatchStatus.Writing,
        request,
        creatorId: call.creatorId,
      })
      .onConflictDoNothing()
      .returning({ id: publishBatches.id });
    // Queued with the batch: a batch left hidden always has its sweep.
    if (row) await deps.jobs.send<SweepJob>(WRITING_SWEEP_JOB, { tenantId, batchId }, { tx, startAfterSeconds: WRITING_STALE_SECONDS + 5 });
    return !!row;
  });
  // The same request with the same key is being written (a double click): its writer is let finish, then the call's
  // claim of the key replays its answer (or, when it was not made a batch, the call writes its own).
  if (!claimed) return waitForWriter(db, tenantId, batchId);
  let rows: ListingRow[];
  try {
    rows = await inScope(db, { tenantId }, (tx) => listingRows(tx, { tenantId, creatorId: call.creatorId }, request, input, batchId, plan));
    const pending = rows.filter((r) => r.status === ListingStatus.Pending);
    const skipped = rows.filter((r) => r.status === ListingStatus.Skipped);
    const chunks = chunker();
    for (let i = 0; i < pending.length;) {
      const chunk = pending.slice(i, i + chunks.size());
      i += chunk.length;
      const inserted = await chunks.write(chunk.length, () => writeChunk(db, tenantId, batchId, chunk, true));
      skipped.push(...skipHeldElsewhere(chunk, inserted));
      await between(batchId);
    }
    for (let i = 0; i < skipped.length;) {
      const chunk = skipped.slice(i, i + chunks.size());
      i += chunk.length;
      await chunks.write(chunk.length, () => writeChunk(db, tenantId, batchId, chunk, false));
      await between(batchId);
    }
  } catch (err) {
    await dropBatch(db, tenantId, batchId).catch((e: unknown) =>
      deps.log.warn({ err: e, batchId }, "publish: removing a batch not written failed"),
    );
    throw err;
  }
  writtenFor.set(call.req, { ...input, batchId, total: rows.length, ...tally(rows) });
}

/**
 * The batch id of a keyed request: the same for the same tenant, user and key, so two requests with one key (sent at
 * once) write one batch. A UUID of version 8 (RFC 9562: custom) from the SHA-256 of the three.
 */
function keyedBatchId(tenantId: string, userId: string, key: string): string {
  const h = createHash("sha256").update(`publish-batch\n${tenantId}\n${userId}\n${key}`).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** How long a request waits for another one's writing of the batch of the same key. */
const WRITER_WAIT_MS = 60_000;

/** Waits while the batch is hidden (being written or removed by another request); a 409 past WRITER_WAIT_MS. */
async function waitForWriter(db: Db, tenantId: string, batchId: string): Promise<void> {
  const end = Date.now() + WRITER_WAIT_MS;
  for (;;) {
    const [row] = await inScope(db, { tenantId }, async (tx) =>
      rowsOf(await tx.execute(sql`select 1 from publish_batches where tenant_id = ${tenantId} and id = ${batchId} and status < 0`)),
    );
    if (!row) return;
    if (Date.now() > end) throw new AppError(409, "相同的请求正在处理中，请稍后重试", "Idempotency.InProgress");
    await sleep(100);
  }
}

async function between(batchId: string) {
  await nextTurn();
  if (batchWriting.betweenChunks) await batchWriting.betweenChunks(batchId);
}

/** Chunk sizes by time: the first batchWriting.firstChunk rows, each next one sized to take about chunkMs. */
function chunker() {
  let size = batchWriting.firstChunk;
  return {
    size: () => size,
    async write<T>(rows: number, fn: () => Promise<T>): Promise<T> {
      const started = performance.now();
      const out = await fn();
      const took = Math.max(performance.now() - started, 1);
      const { chunkMs, minChunk, maxChunk } = batchWriting;
      size = Math.min(maxChunk, Math.max(minChunk, Math.round((rows * chunkMs) / took)));
      return out;
    },
  };
}

/** One chunk in its own transaction, on the batch still being written (else the sweep took it: an error). */
async function writeChunk(db: Db, tenantId: string, batchId: string, rows: ListingRow[], pending: boolean): Promise<Set<string>> {
  return inScope(db, { tenantId }, async (tx) => {
    const alive = rowsOf(
      await tx.execute(sql`update publish_batches set last_update_time = now()
        where tenant_id = ${tenantId} and id = ${batchId} and status = ${HiddenBatchStatus.Writing}::int returning 1`),
    );
    if (!alive.length) throw expired();
    return insertRows(tx, rows, pending);
  });
}

/**
 * In the call's transaction: the batch written before it takes its state (queued, or failed when every listing was
 * skipped), its jobs are queued; answers it. Null when no batch was written for the call (the handler writes it all
 * in its transaction then).
 */
export async function finishWrittenBatch(deps: { jobs: Jobs }, ctx: CallContext, request: PublishRequest): Promise<PublishResult | null> {
  const w = writtenFor.get(ctx.req);
  if (!w) return null;
  const [batch] = await ctx.tx
    .update(publishBatches)
    .set({
      status: w.skipped === w.total ? PublishBatchStatus.Failed : PublishBatchStatus.Queued,
      total: w.total,
      skipped: w.skipped,
      lastUpdateTime: new Date(),
    })
    .where(
      and(
        eq(publishBatches.tenantId, ctx.tenantId),
        eq(publishBatches.id, w.batchId),
        eq(publishBatches.status, HiddenBatchStatus.Writing),
      ),
    )
    .returning();
  if (!batch) throw expired();
  return startBatch(deps, ctx, request, { ...w, batch });
}

/** After Publish's call: the batch written for it is removed unless its call's transaction made it a batch. */
export async function dropUnfinished(db: Db, req: FastifyRequest, tenantId: string): Promise<void> {
  const w = writtenFor.get(req);
  if (!w) return;
  writtenFor.delete(req);
  await dropBatch(db, tenantId, w.batchId);
}
