// The removal of a publish batch left hidden (batch-write.ts): by its call when its transaction did not make it a batch,
// or by its sweep, a job queued with the batch, once it has been untouched for WRITING_STALE_SECONDS (its writer's
// process died between chunks). A removal first turns the batch Dropping, so its writer cannot go on with it.
import { setImmediate as nextTurn } from "node:timers/promises";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { rowsOf, type Database, type Db } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { HiddenBatchStatus, WRITING_STALE_SECONDS, WRITING_SWEEP_JOB } from "./constants.ts";

export type SweepJob = { tenantId: string; batchId: string };

/**
 * Removes a hidden batch (only one untouched for `staleSeconds`, when given) with its listings: it turns Dropping (so
 * neither its writer nor its end can go on with it), then its listings go in chunks, then the batch. Answers whether
 * there was one to remove.
 */
export async function dropBatch(db: Db, tenantId: string, batchId: string, staleSeconds?: number): Promise<boolean> {
  const marked = await inScope(db, { tenantId }, async (tx) =>
    rowsOf(
      await tx.execute(sql`update publish_batches set status = ${HiddenBatchStatus.Dropping}::int, last_update_time = now()
        where tenant_id = ${tenantId} and id = ${batchId} and status < 0
        ${staleSeconds === undefined ? sql`` : sql`and last_update_time < now() - ${staleSeconds}::int * interval '1 second'`}
        returning 1`),
    ),
  );
  if (!marked.length) return false;
  const CHUNK = 500;
  for (;;) {
    const gone = await inScope(db, { tenantId }, async (tx) =>
      rowsOf(
        await tx.execute(sql`delete from listings where tenant_id = ${tenantId} and id in (
          select id from listings where tenant_id = ${tenantId} and batch_id = ${batchId} limit ${CHUNK}) returning 1`),
      ),
    );
    if (gone.length < CHUNK) break;
    await nextTurn();
  }
  await inScope(db, { tenantId }, (tx) =>
    tx.execute(sql`delete from publish_batches
      where tenant_id = ${tenantId} and id = ${batchId} and status = ${HiddenBatchStatus.Dropping}::int`),
  );
  return true;
}

/**
 * The sweep of one written batch: nothing once it is a batch or gone; removed when it has been untouched for
 * WRITING_STALE_SECONDS (its writer died); otherwise looked at again that much later.
 */
export async function sweepWrittenBatch(deps: { database: Database; jobs: Jobs; log: FastifyBaseLogger }, job: SweepJob): Promise<void> {
  const db = deps.database.db;
  if (await dropBatch(db, job.tenantId, job.batchId, WRITING_STALE_SECONDS)) {
    deps.log.warn({ batchId: job.batchId, tenantId: job.tenantId }, "publish: removed a batch left unwritten");
    return;
  }
  const [still] = await inScope(db, { tenantId: job.tenantId }, async (tx) =>
    rowsOf(await tx.execute(sql`select 1 from publish_batches where tenant_id = ${job.tenantId} and id = ${job.batchId} and status < 0`)),
  );
  if (still) await deps.jobs.send<SweepJob>(WRITING_SWEEP_JOB, job, { startAfterSeconds: WRITING_STALE_SECONDS + 5 });
}
