// Receipt images under DATA_DIR/receipts/<tenantId>/<32 hex>.<ext> (UploadReceipt) with their previews, and the sweep of orphans: an image
// uploaded for a top-up or withdrawal that was never submitted (the submit failed or the form was left) is removed once
// it is older than ORPHAN_RECEIPT_AGE_MS, as is a crashed upload's temporary file; an image a charge record or a
// withdrawal names is never removed. The sweep is a delayed job that queues its next run (the queue runs without
// pg-boss schedules, like the periodic order pull): the worker's start queues it (main.ts), and every upload queues it
// too, so a chain lost with a database restore starts again by itself.
//
// A call that names a pic holds its tenant's receipt lock shared until it commits, and the sweep takes it exclusive
// around reading the references and removing the files: a pic checked by a submit in flight is either kept (the
// record is committed before the sweep reads) or gone before the check (the submit is refused: 请重新上传).
import { readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { chargeRecords, HOST_TENANT_ID, withdrawals } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { worker, type JobWorker, type Jobs } from "../../jobs/queue.ts";
import { receivingAccountPics } from "./receiving-accounts.ts";

export const RECEIPT_SWEEP_JOB = "wallet.receipt-sweep";
/** The sweep's period. */
const RECEIPT_SWEEP_HOURS = 6;
/** An image no record names is removed once it is this old (the form it was uploaded from is long closed). */
export const ORPHAN_RECEIPT_AGE_MS = 24 * 3600_000;

const TENANT_DIR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A stored image, or an upload's temporary file (written whole, then renamed). */
const RECEIPT_FILE = /^(\.)?([0-9a-f]{32}\.(jpg|png|webp|gif))(\.tmp)?$/;

const receiptRoot = (dataDir: string) => join(dataDir, "receipts");
export const receiptDir = (dataDir: string, tenantId: string) => join(receiptRoot(dataDir), tenantId);
/** A stored image's preview (made at upload, kept and removed with it): previews/<32 hex>.webp beside it. */
export const receiptPreviewPath = (dataDir: string, tenantId: string, name: string) =>
  join(receiptDir(dataDir, tenantId), "previews", `${name.slice(0, 32)}.webp`);

/** The tenant's receipt lock, to the end of the transaction: shared for a call that names a pic, exclusive for the sweep. */
export async function lockReceipts(tx: Tx, tenantId: string, mode: "shared" | "exclusive"): Promise<void> {
  const key = `erp:receipts:${tenantId}`;
  await tx.execute(
    mode === "shared" ? sql`select pg_advisory_xact_lock_shared(hashtext(${key}))` : sql`select pg_advisory_xact_lock(hashtext(${key}))`,
  );
}

/** Queues the sweep's next run (once per period, whichever process asks: the singleton key names the period). */
export async function scheduleReceiptSweep(jobs: Jobs, tx?: Tx): Promise<void> {
  const period = RECEIPT_SWEEP_HOURS * 3600_000;
  const slot = Math.floor(Date.now() / period) + 1;
  const wait = (slot * period - Date.now()) / 1000;
  await jobs.send<{ slot: number }>(
    RECEIPT_SWEEP_JOB,
    { slot },
    {
      singletonKey: `${RECEIPT_SWEEP_JOB}:${slot}`,
      startAfterSeconds: Math.max(1, wait),
      tx,
    },
  );
}

export type ReceiptSweepDeps = { database: Database; dataDir: string; log: FastifyBaseLogger };

/** The pics of `pics` that a charge record or a withdrawal of the tenant names. */
async function referenced(tx: Tx, tenantId: string, pics: string[]): Promise<Set<string>> {
  const used = new Set<string>();
  for (let i = 0; i < pics.length; i += 1000) {
    const chunk = pics.slice(i, i + 1000);
    const rows = await tx
      .select({ pic: chargeRecords.pic })
      .from(chargeRecords)
      .where(and(eq(chargeRecords.tenantId, tenantId), inArray(chargeRecords.pic, chunk)))
      .union(
        tx
          .select({ pic: sql<string>`${withdrawals.pic}` })
          .from(withdrawals)
          .where(and(eq(withdrawals.tenantId, tenantId), inArray(withdrawals.pic, chunk))),
      );
    for (const r of rows) used.add(r.pic);
  }
  // The platform's uploads include the receiving accounts' QR codes, kept while an account names them.
  if (tenantId === HOST_TENANT_ID) for (const pic of await receivingAccountPics(tx)) used.add(pic);
  return used;
}

/** Previews without their image (an upload that stopped between the two writes), once as old as an orphan. */
async function removeStrayPreviews(dir: string, names: string[], now: number): Promise<number> {
  const stored = new Set(names.filter((n) => RECEIPT_FILE.test(n) && !n.startsWith(".")).map((n) => n.slice(0, 32)));
  let removed = 0;
  for (const name of await readdir(join(dir, "previews")).catch(() => [] as string[])) {
    if (stored.has(name.slice(0, 32))) continue;
    const path = join(dir, "previews", name);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile() || now - info.mtimeMs < ORPHAN_RECEIPT_AGE_MS) continue;
    if (
      await unlink(path).then(
        () => true,
        () => false,
      )
    )
      removed++;
  }
  return removed;
}

/** Removes every tenant's orphan receipts older than ORPHAN_RECEIPT_AGE_MS; answers how many files went. */
export async function sweepOrphanReceipts(deps: ReceiptSweepDeps, now = Date.now()): Promise<number> {
  const root = receiptRoot(deps.dataDir);
  const tenantIds = (await readdir(root).catch(() => [] as string[])).filter((n) => TENANT_DIR.test(n));
  let removed = 0;
  for (const tenantId of tenantIds) {
    const dir = join(root, tenantId);
    const old: { name: string; pic: string | null }[] = [];
    const names = await readdir(dir).catch(() => [] as string[]);
    removed += await removeStrayPreviews(dir, names, now);
    for (const name of names) {
      const m = RECEIPT_FILE.exec(name);
      // A temporary file is ".<name>.tmp"; a stored one has neither part.
      if (!m || !!m[1] !== !!m[4]) continue;
      const info = await stat(join(dir, name)).catch(() => null);
      if (!info?.isFile() || now - info.mtimeMs < ORPHAN_RECEIPT_AGE_MS) continue;
      old.push({ name, pic: m[1] ? null : `${tenantId}/${m[2]}` });
    }
    if (!old.length) continue;
    try {
      removed += await inScope(deps.database.db, { tenantId }, async (tx) => {
        await lockReceipts(tx, tenantId, "exclusive");
        const used = await referenced(
          tx,
          tenantId,
          old.flatMap((f) => (f.pic ? [f.pic] : [])),
        );
        let n = 0;
        for (const f of old) {
          if (f.pic && used.has(f.pic)) continue;
          if (
            await unlink(join(dir, f.name)).then(
              () => true,
              () => false,
            )
          )
            n++;
          if (f.pic) await unlink(receiptPreviewPath(deps.dataDir, tenantId, f.name)).catch(() => {});
        }
        return n;
      });
    } catch (err) {
      deps.log.warn({ err, tenantId }, "removing orphan receipts failed");
    }
  }
  return removed;
}

/** The sweep's worker: one run, then the next one queued whatever happened. */
export function receiptSweepWorker(deps: ReceiptSweepDeps & { jobs: Jobs }): JobWorker {
  return worker<{ slot: number }>(RECEIPT_SWEEP_JOB, async () => {
    try {
      const removed = await sweepOrphanReceipts(deps);
      if (removed) deps.log.info({ removed }, "orphan receipts removed");
    } finally {
      await scheduleReceiptSweep(deps.jobs);
    }
  });
}
