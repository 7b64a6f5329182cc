// Outgoing mail through an outbox: a call writes the mail into outbox_emails in its own transaction and queues the job
// "send-mail"; the job delivers it through SMTP (nodemailer) when SMTP_URL is set, and otherwise writes it to the log
// (a developer's installation: the reset code is read there). Delivery is at least once: a crash between the SMTP
// answer and the status update sends the mail again on retry.
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.ts";
import type { Database, Tx } from "../../db/client.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { outboxEmails } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { MailStatus } from "#shared/contract/enums.ts";

const SEND_MAIL_JOB = "send-mail";

export type OutgoingMail = { tenantId: string; to: string; subject: string; body: string };
export type SendMailJob = { tenantId: string; mailId: string };

export type MailDeps = {
  database: Database;
  jobs: Jobs;
  config: Pick<Config, "smtpUrl" | "mailFrom">;
  log: FastifyBaseLogger;
};

/** Writes a mail into the outbox and queues its delivery, both in the caller's transaction (they commit together). */
export async function queueMail(tx: Tx, jobs: Jobs, mail: OutgoingMail): Promise<string> {
  const id = randomUUID();
  await tx.insert(outboxEmails).values({
    tenantId: mail.tenantId,
    id,
    toAddress: mail.to,
    subject: mail.subject,
    body: mail.body,
    status: MailStatus.Pending,
  });
  await jobs.send<SendMailJob>(SEND_MAIL_JOB, { tenantId: mail.tenantId, mailId: id }, { singletonKey: id, tx });
  return id;
}

/** Delivers one outbox mail; a failure is recorded and rethrown so the queue retries it. */
async function deliverMail(deps: MailDeps, { tenantId, mailId }: SendMailJob): Promise<void> {
  const db = deps.database.db;
  const where = and(eq(outboxEmails.tenantId, tenantId), eq(outboxEmails.id, mailId));
  const [mail] = await inScope(db, { tenantId }, (tx) => tx.select().from(outboxEmails).where(where).limit(1));
  // Queued in the same transaction as the row, so a missing row means it was removed since.
  if (!mail) return;
  if (mail.status === MailStatus.Sent || mail.status === MailStatus.LoggedOnly) return;

  if (!deps.config.smtpUrl) {
    deps.log.info(
      { mailId, to: mail.toAddress, subject: mail.subject, body: mail.body },
      "mail not sent (SMTP_URL is not set); logged instead",
    );
    await inScope(db, { tenantId }, (tx) => tx.update(outboxEmails).set({ status: MailStatus.LoggedOnly }).where(where));
    return;
  }
  try {
    // Loaded with the first mail sent through SMTP, not at every start.
    const { default: nodemailer } = await import("nodemailer");
    const transport = nodemailer.createTransport({
      url: deps.config.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    try {
      await transport.sendMail({ from: deps.config.mailFrom, to: mail.toAddress, subject: mail.subject, text: mail.body });
    } finally {
      transport.close();
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    deps.log.error({ mailId, to: mail.toAddress, err: message }, "mail delivery failed; the queue retries it");
    await inScope(db, { tenantId }, (tx) =>
      tx
        .update(outboxEmails)
        .set({ status: MailStatus.Failed, attempts: sql`${outboxEmails.attempts} + 1`, lastError: message.slice(0, 2000) })
        .where(where),
    );
    throw err;
  }
  await inScope(db, { tenantId }, (tx) =>
    tx
      .update(outboxEmails)
      .set({ status: MailStatus.Sent, sentTime: new Date(), attempts: sql`${outboxEmails.attempts} + 1`, lastError: null })
      .where(where),
  );
}

/** The outbox: queueing in a call's transaction, and the worker that delivers what was queued. */
export function createMailer(deps: MailDeps) {
  return {
    queueMail: (tx: Tx, mail: OutgoingMail) => queueMail(tx, deps.jobs, mail),
    workers: [worker<SendMailJob>(SEND_MAIL_JOB, (job) => deliverMail(deps, job))],
  };
}

export type Mailer = ReturnType<typeof createMailer>;
