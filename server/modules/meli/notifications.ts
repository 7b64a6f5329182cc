// Mercado Libre's notifications (spec §7 Meli MeliCallback; MERCADO-LIBRE.md "Notifications"): the callback answers
// 200 at once and only queues a job; the job finds the shops of the notified seller (in whichever tenant holds them)
// and stores the notification for each, once per Mercado Libre id, for the listing and order syncs to work through.
// Notifications for another application are acknowledged and dropped.
import { createHash, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import { meliAccountGroups, meliAccounts, meliNotifications } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import type { MeliCallbackBody } from "#shared/contract/meli.ts";

export const MELI_NOTIFICATION_JOB = "meli.notification";
/** Works through one stored notification ({tenantId, id}); its handler is the listings module's (listings/notifications.ts). */
export const MELI_NOTIFICATION_PROCESS_JOB = "meli.notification.process";
export type NotificationProcessJob = { tenantId: string; id: string };

/** Status of a stored notification: Waiting = kept for a handler still to come (orders). */
export const MeliNotificationStatus = { Pending: 1, Processed: 2, Waiting: 3 } as const;

type NotificationJob = { body: MeliCallbackBody; receivedAt: string };

const notificationKey = (b: MeliCallbackBody) =>
  createHash("sha256")
    .update(JSON.stringify([b.topic, b.resource, String(b.user_id), b.sent ?? ""]))
    .digest("hex")
    .slice(0, 32);

/** Mercado Libre's "sent" time, when it is one (a date within a year of now). */
function plausibleTime(value: string | undefined): Date | null {
  const t = value ? Date.parse(value) : NaN;
  return Number.isFinite(t) && Math.abs(t - Date.now()) < 366 * 86_400_000 ? new Date(t) : null;
}

export type NotificationService = ReturnType<typeof createNotificationService>;

/** The callback and its job (the job's handler is registered here, with the service that queues it). */
export function createNotificationService({
  config,
  log,
  database,
  jobs,
}: {
  config: Pick<Config, "meliClientId">;
  log: FastifyBaseLogger;
  database: Database;
  jobs: Jobs;
}) {
  async function meliCallback(ctx: CallContext, body: MeliCallbackBody): Promise<{ queued: boolean }> {
    if (String(body.application_id) !== config.meliClientId) return { queued: false };
    const key = body._id ?? notificationKey(body);
    await jobs.send<NotificationJob>(
      MELI_NOTIFICATION_JOB,
      { body, receivedAt: new Date().toISOString() },
      { tx: ctx.tx, singletonKey: `meli-notification:${key}` },
    );
    return { queued: true };
  }

  async function storeNotification(job: NotificationJob) {
    const b = job.body;
    const userId = String(b.user_id);
    const db = database.db;
    // The seller may be a group's (global or local) seller or a global seller's marketplace user: look in every tenant.
    const targets = await inScope(db, hostAllScope, async (tx) => {
      const accounts = await tx
        .select({ tenantId: meliAccounts.tenantId, groupId: meliAccounts.groupId, accountId: meliAccounts.id })
        .from(meliAccounts)
        .where(eq(meliAccounts.custId, userId));
      const groups = await tx
        .select({ tenantId: meliAccountGroups.tenantId, groupId: meliAccountGroups.id })
        .from(meliAccountGroups)
        .where(eq(meliAccountGroups.custId, userId));
      const out = new Map<string, { tenantId: string; groupId: string; accountId: string | null }>();
      for (const g of groups) out.set(`${g.tenantId}:${g.groupId}`, { ...g, accountId: null });
      for (const a of accounts) out.set(`${a.tenantId}:${a.groupId}`, a);
      return [...out.values()];
    });
    if (!targets.length) {
      log.info({ topic: b.topic, userId }, "Mercado Libre notification for a seller no tenant holds");
      return;
    }
    const notificationId = b._id ?? notificationKey(b);
    for (const t of targets) {
      await inScope(db, { tenantId: t.tenantId }, async (tx) => {
        const stored = await tx
          .insert(meliNotifications)
          .values({
            tenantId: t.tenantId,
            id: randomUUID(),
            notificationId,
            groupId: t.groupId,
            accountId: t.accountId,
            topic: b.topic,
            resource: b.resource,
            meliUserId: userId,
            attempts: b.attempts ?? 1,
            sentTime: plausibleTime(b.sent),
            payload: { ...b, receivedAt: job.receivedAt },
          })
          .onConflictDoNothing()
          .returning({ id: meliNotifications.id });
        // Stored the first time only: a resent notification is not worked through again.
        if (stored[0]) {
          await jobs.send<NotificationProcessJob>(
            MELI_NOTIFICATION_PROCESS_JOB,
            { tenantId: t.tenantId, id: stored[0].id },
            { tx, singletonKey: `meli-notification-process:${stored[0].id}` },
          );
        }
      });
    }
  }

  return { meliCallback, workers: [worker<NotificationJob>(MELI_NOTIFICATION_JOB, storeNotification)] };
}
