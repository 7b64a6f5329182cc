// Announcing progress (issue 15): a task or a publish batch that changes says so with emitProgress, a NOTIFY in the
// writer's transaction, so it goes out when (and only if) the change commits, from whichever process ran the job. The
// events module listens on the channel and streams what it hears (modules/events/progress.ts). Here, below the
// modules, because the job layer (tasks.ts) and every module that runs work announce through it.
import { sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client.ts";
import { afterCommitOnShared } from "../db/scope.ts";
import type { ProgressEvent } from "#shared/contract/events.ts";

export const PROGRESS_CHANNEL = "erp_progress";

/** An event and who it concerns: the tenant, and the user who started the work (a sub-account sees only its own). */
export type ProgressNotice = ProgressEvent & { tenantId: string; creatorId: string | null };

/**
 * Announces progress. In a transaction the event leaves when it commits (NOTIFY is transactional); on the database
 * handle it leaves at once. The one way every task and batch reports progress.
 */
export async function emitProgress(tx: Tx | Db, notice: ProgressNotice): Promise<void> {
  const notify = sql`select pg_notify(${PROGRESS_CHANNEL}, ${JSON.stringify(notice)})`;
  // On a tenant's own database (issue 31) no one listens: the event leaves from the shared database once it commits.
  if (afterCommitOnShared(tx, (shared) => shared.execute(notify))) return;
  await tx.execute(notify);
}
