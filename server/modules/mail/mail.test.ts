// The outbox against a real SMTP server on the loopback interface (smtp-server), through the real HTTP stack and queue.
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxEmails } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { MailStatus } from "#shared/contract/enums.ts";
import { startTestServer, uniqueName, type TestServer } from "../../testing/harness.ts";
import { queueMail } from "./outbox.ts";

type Received = { from: string; to: string[]; raw: string };

/** A loopback SMTP server that records what it receives; rejectNext makes the next RCPT TO fail with a 451. */
async function startSmtp() {
  const received: Received[] = [];
  let rejectNext = 0;
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (rejectNext > 0) {
        rejectNext--;
        const err = new Error("mailbox busy, try later") as Error & { responseCode: number };
        err.responseCode = 451;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    rejectNextRecipient: () => {
      rejectNext++;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text body of a single-part message as nodemailer writes it (quoted-printable or base64). */
function textOf(raw: string): string {
  const split = raw.indexOf("\r\n\r\n");
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1].toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

const subjectOf = (raw: string) => /^subject:\s*(.*)$/im.exec(raw)?.[1] ?? "";

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let s: TestServer;

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ smtpUrl: smtp.url, mailFrom: "erp@example.com" });
});
afterAll(async () => {
  await s?.close();
  await smtp?.close();
});

async function outbox(tenantId: string, to: string) {
  return inScope(s.database.db, hostAllScope, (tx) =>
    tx
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.tenantId, tenantId), eq(outboxEmails.toAddress, to))),
  );
}

const poll = { timeout: 30_000, interval: 100 };

describe("password reset code by mail", () => {
  it("arrives over SMTP with a code that then resets the password", async () => {
    const t = await s.createTenant();
    const email = `${uniqueName("boss")}@example.com`;
    expect((await s.api("PUT", "/api/account/my-profile", { token: t.token, body: { email } })).status).toBe(200);

    const res = await s.api("POST", "/api/account/send-password-reset-code", { tenant: t.tenantName, body: { email } });
    expect(res.status).toBe(204);
    await expect.poll(() => smtp.received.filter((m) => m.to.includes(email)).length, poll).toBe(1);
    const message = smtp.received.find((m) => m.to.includes(email))!;
    expect(message.from).toBe("erp@example.com");
    const text = textOf(message.raw);
    const code = /验证码为：(\d{6})/.exec(text)?.[1];
    expect(code, text).toMatch(/^\d{6}$/);
    expect(text).toContain("15 分钟内有效");
    expect(subjectOf(message.raw)).toMatch(/=\?UTF-8\?/i); // the Chinese subject is encoded, as it must be

    await expect.poll(async () => (await outbox(t.tenantId, email))[0]?.status, poll).toBe(MailStatus.Sent);
    const [row] = await outbox(t.tenantId, email);
    expect(row).toMatchObject({ attempts: 1, lastError: null });
    expect(row.sentTime).toBeInstanceOf(Date);

    expect(
      (await s.api("POST", "/api/account/verify-password-reset-token", { tenant: t.tenantName, body: { email, resetToken: code } })).body
        .result,
    ).toBe(true);
    const reset = await s.api("POST", "/api/account/reset-password", {
      tenant: t.tenantName,
      body: { email, resetToken: code, password: "FromMail123" },
    });
    expect(reset.status).toBe(204);
    await s.login("boss", "FromMail123", t.tenantName);
    await expect(s.login("boss", t.password, t.tenantName)).rejects.toThrow();
  });
});

describe("queueMail and the send-mail job", () => {
  it("records a refused delivery (lastError, attempts, Failed) and retries it until it is sent", async () => {
    const t = await s.createTenant();
    const to = `${uniqueName("retry")}@example.com`;
    smtp.rejectNextRecipient();
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      queueMail(tx, s.deps.jobs, { tenantId: t.tenantId, to, subject: "测试", body: "第一封" }),
    );

    await expect.poll(async () => (await outbox(t.tenantId, to))[0]?.status, poll).toBe(MailStatus.Failed);
    const [failed] = await outbox(t.tenantId, to);
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toContain("451");
    expect(failed.sentTime).toBeNull();

    await expect.poll(async () => (await outbox(t.tenantId, to))[0]?.status, poll).toBe(MailStatus.Sent);
    const [sent] = await outbox(t.tenantId, to);
    expect(sent.attempts).toBe(2);
    expect(sent.lastError).toBeNull();
    const delivered = smtp.received.filter((m) => m.to.includes(to));
    expect(delivered).toHaveLength(1);
    expect(textOf(delivered[0].raw)).toContain("第一封");
  });

  it("sends nothing when the transaction that queued the mail rolls back", async () => {
    const t = await s.createTenant();
    const to = `${uniqueName("rollback")}@example.com`;
    await expect(
      inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
        await queueMail(tx, s.deps.jobs, { tenantId: t.tenantId, to, subject: "测试", body: "不应送达" });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    // A mail queued afterwards is delivered; the rolled-back one never is.
    const later = `${uniqueName("later")}@example.com`;
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      queueMail(tx, s.deps.jobs, { tenantId: t.tenantId, to: later, subject: "测试", body: "送达" }),
    );
    await expect.poll(() => smtp.received.some((m) => m.to.includes(later)), poll).toBe(true);
    expect(await outbox(t.tenantId, to)).toHaveLength(0);
    expect(smtp.received.some((m) => m.to.includes(to))).toBe(false);
  });
});

describe("without SMTP_URL", () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
  });
  afterAll(() => plain?.close());

  it("logs the mail instead and marks it LoggedOnly", async () => {
    const t = await plain.createTenant();
    const to = `${uniqueName("log")}@example.com`;
    await inScope(plain.database.db, { tenantId: t.tenantId }, (tx) =>
      queueMail(tx, plain.deps.jobs, { tenantId: t.tenantId, to, subject: "测试", body: "只记日志" }),
    );
    const rows = () =>
      inScope(plain.database.db, hostAllScope, (tx) =>
        tx
          .select()
          .from(outboxEmails)
          .where(and(eq(outboxEmails.tenantId, t.tenantId), eq(outboxEmails.toAddress, to))),
      );
    await expect.poll(async () => (await rows())[0]?.status, poll).toBe(MailStatus.LoggedOnly);
    const [row] = await rows();
    expect(row).toMatchObject({ attempts: 0, sentTime: null, lastError: null, subject: "测试", body: "只记日志" });
    expect(smtp.received.some((m) => m.to.includes(to))).toBe(false);
  });
});
