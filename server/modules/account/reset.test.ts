import { and, desc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_TENANT_ID, outboxEmails, passwordResetCodes, users } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { MailStatus } from "#shared/contract/enums.ts";
import { ADMIN_PASSWORD, startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
});
afterAll(() => s?.close());

const validation = (res: { body: any }) => res.body.error.validationErrors as { message: string; members: string[] }[];
const db = () => s.database.db;

/** A tenant whose main account has a fresh email address. */
async function tenantWithEmail(): Promise<TestTenant & { email: string }> {
  const t = await s.createTenant();
  const email = `${uniqueName("r")}@example.com`;
  const res = await s.api("PUT", "/api/account/my-profile", { token: t.token, body: { email } });
  expect(res.status).toBe(200);
  return { ...t, email };
}

async function mails(tenantId: string, to: string) {
  return inScope(db(), hostAllScope, (tx) =>
    tx
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.tenantId, tenantId), eq(outboxEmails.toAddress, to)))
      .orderBy(desc(outboxEmails.creationTime)),
  );
}

async function codes(tenantId: string, userId: string) {
  return inScope(db(), hostAllScope, (tx) =>
    tx
      .select()
      .from(passwordResetCodes)
      .where(
        and(eq(passwordResetCodes.tenantId, tenantId), eq(passwordResetCodes.userId, userId), like(passwordResetCodes.codeHash, "otp:%")),
      )
      .orderBy(desc(passwordResetCodes.creationTime)),
  );
}

const codeIn = (body: string) => /验证码为：(\d{6})/.exec(body)?.[1];

async function requestCode(t: { tenantName: string; tenantId: string; email: string }): Promise<string> {
  const res = await s.api("POST", "/api/account/send-password-reset-code", {
    tenant: t.tenantName,
    body: { email: t.email, appName: "Erp_App", returnUrl: "https://evil.example/x" },
  });
  expect(res.status).toBe(204);
  const [mail] = await mails(t.tenantId, t.email);
  const code = codeIn(mail.body);
  expect(code).toMatch(/^\d{6}$/);
  return code!;
}

/** Lets the next code be created at once (the one-a-minute rule is tested on its own). */
async function ageCodes(tenantId: string, userId: string, seconds = 120) {
  await inScope(db(), hostAllScope, (tx) =>
    tx
      .update(passwordResetCodes)
      .set({ creationTime: new Date(Date.now() - seconds * 1000) })
      .where(and(eq(passwordResetCodes.tenantId, tenantId), eq(passwordResetCodes.userId, userId))),
  );
}

const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("POST /api/account/send-password-reset-code", () => {
  it("stores only a hash of a 6-digit code valid for 15 minutes and queues a mail with the code", async () => {
    const t = await tenantWithEmail();
    const code = await requestCode(t);
    const [row] = await codes(t.tenantId, t.userId);
    expect(row.codeHash).not.toContain(code);
    expect(row.attempts).toBe(0);
    expect(row.usedAt).toBeNull();
    const minutes = (row.expiresAt.getTime() - row.creationTime.getTime()) / 60_000;
    expect(minutes).toBeCloseTo(15, 1);
    const [mail] = await mails(t.tenantId, t.email);
    expect(mail.subject).toBe("密码重置验证码");
    expect(mail.body).not.toContain("evil.example");
    // Without SMTP_URL the job logs the mail and marks it LoggedOnly.
    await expect
      .poll(async () => (await mails(t.tenantId, t.email))[0].status, { timeout: 20_000, interval: 200 })
      .toBe(MailStatus.LoggedOnly);
  });

  it("answers 204 for an unknown email and creates nothing (no account discovery)", async () => {
    const email = `${uniqueName("nobody")}@example.com`;
    const res = await s.api("POST", "/api/account/send-password-reset-code", { tenant: a.tenantName, body: { email } });
    expect(res.status).toBe(204);
    expect(res.raw).toBe("");
    expect(await mails(a.tenantId, email)).toHaveLength(0);
  });

  it("looks only in the __tenant header's tenant; without a header only at the host's users", async () => {
    const t = await tenantWithEmail();
    expect((await s.api("POST", "/api/account/send-password-reset-code", { tenant: b.tenantName, body: { email: t.email } })).status).toBe(
      204,
    );
    expect((await s.api("POST", "/api/account/send-password-reset-code", { body: { email: t.email } })).status).toBe(204);
    expect(await mails(b.tenantId, t.email)).toHaveLength(0);
    expect(await mails(HOST_TENANT_ID, t.email)).toHaveLength(0);
    expect(await codes(t.tenantId, t.userId)).toHaveLength(0);
  });

  it("creates at most one code a minute per user; extra requests silently do nothing", async () => {
    const t = await tenantWithEmail();
    await requestCode(t);
    for (let i = 0; i < 3; i++) {
      expect(
        (await s.api("POST", "/api/account/send-password-reset-code", { tenant: t.tenantId, body: { email: t.email.toUpperCase() } }))
          .status,
      ).toBe(204);
    }
    expect(await codes(t.tenantId, t.userId)).toHaveLength(1);
    expect(await mails(t.tenantId, t.email)).toHaveLength(1);
    await ageCodes(t.tenantId, t.userId, 61);
    await requestCode(t);
    expect(await codes(t.tenantId, t.userId)).toHaveLength(2);
  });

  it("creates one code when several requests arrive at once", async () => {
    const t = await tenantWithEmail();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        s.api("POST", "/api/account/send-password-reset-code", { tenant: t.tenantName, body: { email: t.email } }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(5).fill(204));
    expect(await codes(t.tenantId, t.userId)).toHaveLength(1);
    expect(await mails(t.tenantId, t.email)).toHaveLength(1);
  });

  it("sends nothing to a disabled user", async () => {
    const email = `${uniqueName("off")}@example.com`;
    const sub = await s.createSubUser(a, uniqueName("sales"), { email });
    expect((await s.api("PUT", "/api/User/Enabled", { token: a.token, query: { userId: sub.id, enable: false } })).status).toBe(204);
    expect((await s.api("POST", "/api/account/send-password-reset-code", { tenant: a.tenantName, body: { email } })).status).toBe(204);
    expect(await mails(a.tenantId, email)).toHaveLength(0);
  });

  it("refuses a missing or malformed email with 400, and an unknown tenant with 404", async () => {
    const missing = await s.api("POST", "/api/account/send-password-reset-code", { body: { appName: "x" } });
    expect(missing.status).toBe(400);
    expect(validation(missing)).toMatchObject([{ message: "The parameter email cannot be null.", members: ["email"] }]);
    const bad = await s.api("POST", "/api/account/send-password-reset-code", { body: { email: "nope" } });
    expect(bad.status).toBe(400);
    expect(validation(bad)[0].members).toEqual(["email"]);
    const ghost = await s.api("POST", "/api/account/send-password-reset-code", {
      tenant: uniqueName("ghost"),
      body: { email: "a@example.com" },
    });
    expect(ghost.status).toBe(404);
    expect(ghost.body.error.message).toBe("公司未找到");
  });
});

describe("POST /api/account/verify-password-reset-token", () => {
  it("answers true for the right code by email or by user id, false for a wrong one", async () => {
    const t = await tenantWithEmail();
    const code = await requestCode(t);
    const byEmail = await s.api("POST", "/api/account/verify-password-reset-token", {
      tenant: t.tenantName,
      body: { email: t.email, resetToken: code },
    });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toEqual({ result: true });
    const byId = await s.api("POST", "/api/account/verify-password-reset-token", {
      tenant: t.tenantName,
      body: { userId: t.userId.toUpperCase(), resetToken: code },
    });
    expect(byId.body.result).toBe(true);
    const wrong = await s.api("POST", "/api/account/verify-password-reset-token", {
      tenant: t.tenantName,
      body: { userId: t.userId, resetToken: wrongOf(code) },
    });
    expect(wrong.body.result).toBe(false);
    // userId and email must name the same user.
    const mismatch = await s.api("POST", "/api/account/verify-password-reset-token", {
      tenant: t.tenantName,
      body: { userId: t.userId, email: "other@example.com", resetToken: code },
    });
    expect(mismatch.body.result).toBe(false);
    expect((await codes(t.tenantId, t.userId))[0].attempts).toBe(1);
  });

  it("spends the code after 5 wrong guesses: then even the right code is false", async () => {
    const t = await tenantWithEmail();
    const code = await requestCode(t);
    for (let i = 0; i < 5; i++) {
      const res = await s.api("POST", "/api/account/verify-password-reset-token", {
        tenant: t.tenantName,
        body: { email: t.email, resetToken: wrongOf(code) },
      });
      expect(res.body.result).toBe(false);
    }
    expect((await codes(t.tenantId, t.userId))[0].attempts).toBe(5);
    const right = await s.api("POST", "/api/account/verify-password-reset-token", {
      tenant: t.tenantName,
      body: { email: t.email, resetToken: code },
    });
    expect(right.body.result).toBe(false);
  });

  it("answers false for an expired code", async () => {
    const t = await tenantWithEmail();
    const code = await requestCode(t);
    await inScope(db(), hostAllScope, (tx) =>
      tx
        .update(passwordResetCodes)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(and(eq(passwordResetCodes.tenantId, t.tenantId), eq(passwordResetCodes.userId, t.userId))),
    );
    const res = await s.api("POST", "/api/account/verify-password-reset-token", {
      tenant: t.tenantName,
      body: { email: t.email, resetToken: code },
    });
    expect(res.body.result).toBe(false);
  });

  it("only the newest code counts", async () => {
    const t = await tenantWithEmail();
    const first = await requestCode(t);
    await ageCodes(t.tenantId, t.userId);
    const second = await requestCode(t);
    const verify = (resetToken: string) =>
      s.api("POST", "/api/account/verify-password-reset-token", { tenant: t.tenantName, body: { email: t.email, resetToken } });
    if (first !== second) expect((await verify(first)).body.result).toBe(false);
    expect((await verify(second)).body.result).toBe(true);
  });

  it("cannot verify tenant A's user from tenant B or from the host, by id or email", async () => {
    const t = await tenantWithEmail();
    const code = await requestCode(t);
    for (const tenant of [b.tenantName, undefined]) {
      for (const body of [
        { userId: t.userId, resetToken: code },
        { email: t.email, resetToken: code },
      ]) {
        const res = await s.api("POST", "/api/account/verify-password-reset-token", { tenant, body });
        expect(res.status).toBe(200);
        expect(res.body.result).toBe(false);
      }
    }
    // Nothing was counted against A's code, which still works in A.
    expect((await codes(t.tenantId, t.userId))[0].attempts).toBe(0);
    const ok = await s.api("POST", "/api/account/verify-password-reset-token", {
      tenant: t.tenantId,
      body: { userId: t.userId, resetToken: code },
    });
    expect(ok.body.result).toBe(true);
  });

  it("answers false for a user without a code", async () => {
    const res = await s.api("POST", "/api/account/verify-password-reset-token", {
      tenant: a.tenantName,
      body: { userId: a.userId, resetToken: "123456" },
    });
    expect(res.body.result).toBe(false);
  });

  it("refuses bad input with 400: no userId nor email, bad GUID, missing token", async () => {
    const neither = await s.api("POST", "/api/account/verify-password-reset-token", { body: { resetToken: "123456" } });
    expect(neither.status).toBe(400);
    expect(validation(neither)[0].members).toEqual(["userId"]);
    const badId = await s.api("POST", "/api/account/verify-password-reset-token", { body: { userId: "not-a-guid", resetToken: "123456" } });
    expect(badId.status).toBe(400);
    expect(validation(badId)[0]).toMatchObject({ members: ["userId"] });
    expect(validation(badId)[0].message).toContain("GUID");
    const noToken = await s.api("POST", "/api/account/verify-password-reset-token", { body: { email: "a@example.com" } });
    expect(noToken.status).toBe(400);
    expect(validation(noToken)).toMatchObject([{ message: "The parameter resetToken cannot be null.", members: ["resetToken"] }]);
    const noBody = await s.api("POST", "/api/account/verify-password-reset-token");
    expect(noBody.status).toBe(400);
  });
});

describe("POST /api/account/reset-password", () => {
  it("sets the password with the right code: sessions end, lockout clears, the code is used once", async () => {
    const t = await tenantWithEmail();
    const code = await requestCode(t);
    // Lock the account first: a reset clears the lockout.
    for (let i = 0; i < 5; i++)
      await s.api("POST", "/api/account/check-password", {
        tenant: t.tenantName,
        body: { userNameOrEmailAddress: "boss", password: "Wrong12345" },
      });
    expect(
      (
        await s.api("POST", "/api/account/check-password", {
          tenant: t.tenantName,
          body: { userNameOrEmailAddress: "boss", password: t.password },
        })
      ).body.result.result,
    ).toBe(4);

    const res = await s.api("POST", "/api/account/reset-password", {
      tenant: t.tenantName,
      body: { email: t.email, resetToken: code, password: "NewPass123" },
    });
    expect(res.status).toBe(204);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: t.token })).status).toBe(401);
    await expect(s.login("boss", t.password, t.tenantName)).rejects.toThrow();
    await s.login("boss", "NewPass123", t.tenantName);
    const [row] = await codes(t.tenantId, t.userId);
    expect(row.usedAt).not.toBeNull();
    const [user] = await inScope(db(), hostAllScope, (tx) =>
      tx
        .select()
        .from(users)
        .where(and(eq(users.tenantId, t.tenantId), eq(users.id, t.userId))),
    );
    expect(user.lockoutEnd).toBeNull();
    expect(user.accessFailedCount).toBe(0);

    const again = await s.api("POST", "/api/account/reset-password", {
      tenant: t.tenantName,
      body: { email: t.email, resetToken: code, password: "Other1234" },
    });
    expect(again.status).toBe(403);
    expect(again.body.error.message).toContain("验证码");
    const verify = await s.api("POST", "/api/account/verify-password-reset-token", {
      tenant: t.tenantName,
      body: { email: t.email, resetToken: code },
    });
    expect(verify.body.result).toBe(false);
  });

  it("refuses a wrong code with 403 and counts it: after 5 wrong tries the right code is refused too", async () => {
    const t = await tenantWithEmail();
    const code = await requestCode(t);
    const tryCode = (resetToken: string) =>
      s.api("POST", "/api/account/reset-password", {
        tenant: t.tenantName,
        body: { userId: t.userId, resetToken, password: "NewPass123" },
      });
    const first = await tryCode(wrongOf(code));
    expect(first.status).toBe(403);
    expect(first.headers["_abperrorformat"]).toBe("true");
    expect(first.body.error).toMatchObject({ code: "InvalidResetCode", message: "验证码错误或已过期，请重新获取验证码" });
    // The 403 is answered before the call's transaction commits the count (reset.ts, failAndCommit): read it by polling.
    // The next guess cannot overtake it: it waits for the code row's lock.
    const attempts = async () => (await codes(t.tenantId, t.userId))[0].attempts;
    await expect.poll(attempts, { timeout: 5000, interval: 20 }).toBe(1);
    for (let i = 0; i < 3; i++) expect((await tryCode(wrongOf(code))).status).toBe(403);
    const fifth = await tryCode(wrongOf(code));
    expect(fifth.body.error.message).toBe("验证码错误次数过多，请重新获取验证码");
    await expect.poll(attempts, { timeout: 5000, interval: 20 }).toBe(5);
    const right = await tryCode(code);
    expect(right.status).toBe(403);
    expect(right.body.error.message).toBe("验证码错误次数过多，请重新获取验证码");
    await s.login("boss", t.password, t.tenantName);
  });

  it("counts concurrent wrong guesses one by one: 20 at once spend the code after exactly 5", async () => {
    const t = await tenantWithEmail();
    const code = await requestCode(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        s.api("POST", "/api/account/reset-password", {
          tenant: t.tenantName,
          body: { userId: t.userId, resetToken: wrongOf(code), password: "NewPass123" },
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(403));
    await expect.poll(async () => (await codes(t.tenantId, t.userId))[0].attempts, { timeout: 5000, interval: 20 }).toBe(5);
    const right = await s.api("POST", "/api/account/reset-password", {
      tenant: t.tenantName,
      body: { userId: t.userId, resetToken: code, password: "NewPass123" },
    });
    expect(right.status).toBe(403);
  });

  it("refuses an expired code with 403", async () => {
    const t = await tenantWithEmail();
    const code = await requestCode(t);
    await inScope(db(), hostAllScope, (tx) =>
      tx
        .update(passwordResetCodes)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(and(eq(passwordResetCodes.tenantId, t.tenantId), eq(passwordResetCodes.userId, t.userId))),
    );
    const res = await s.api("POST", "/api/account/reset-password", {
      tenant: t.tenantName,
      body: { email: t.email, resetToken: code, password: "NewPass123" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain("已过期");
  });

  it("cannot reset tenant A's user from tenant B or the host, by id or email", async () => {
    const t = await tenantWithEmail();
    const code = await requestCode(t);
    for (const tenant of [b.tenantName, undefined]) {
      for (const by of [{ userId: t.userId }, { email: t.email }]) {
        const res = await s.api("POST", "/api/account/reset-password", {
          tenant,
          body: { ...by, resetToken: code, password: "Hijack123" },
        });
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe("InvalidResetCode");
      }
    }
    // A token of tenant B with A's header is refused before anything happens.
    const forged = await s.api("POST", "/api/account/reset-password", {
      token: b.token,
      tenant: t.tenantName,
      body: { userId: t.userId, resetToken: code, password: "Hijack123" },
    });
    expect(forged.status).toBe(403);
    await s.login("boss", t.password, t.tenantName);
    expect((await codes(t.tenantId, t.userId))[0]).toMatchObject({ attempts: 0, usedAt: null });
  });

  it("resets the host administrator's password without a tenant header", async () => {
    const email = `${uniqueName("admin")}@example.com`;
    const adminToken = await s.adminToken();
    expect((await s.api("PUT", "/api/account/my-profile", { token: adminToken, body: { email } })).status).toBe(200);
    const code = await requestCode({ tenantName: "", tenantId: HOST_TENANT_ID, email });
    const res = await s.api("POST", "/api/account/reset-password", { body: { email, resetToken: code, password: ADMIN_PASSWORD + "x1" } });
    expect(res.status).toBe(204);
    await s.login("admin", ADMIN_PASSWORD + "x1");
  });

  it("refuses bad input with 400 and changes nothing", async () => {
    const t = await tenantWithEmail();
    const code = await requestCode(t);
    const weak = await s.api("POST", "/api/account/reset-password", {
      tenant: t.tenantName,
      body: { email: t.email, resetToken: code, password: "123" },
    });
    expect(weak.status).toBe(400);
    expect(validation(weak)[0].members).toEqual(["password"]);
    const missing = await s.api("POST", "/api/account/reset-password", { tenant: t.tenantName, body: { email: t.email } });
    expect(missing.status).toBe(400);
    expect(
      validation(missing)
        .map((v) => v.message)
        .sort(),
    ).toEqual(["The parameter password cannot be null.", "The parameter resetToken cannot be null."]);
    const badId = await s.api("POST", "/api/account/reset-password", {
      tenant: t.tenantName,
      body: { userId: "123", resetToken: code, password: "NewPass123" },
    });
    expect(badId.status).toBe(400);
    const neither = await s.api("POST", "/api/account/reset-password", {
      tenant: t.tenantName,
      body: { resetToken: code, password: "NewPass123" },
    });
    expect(neither.status).toBe(400);
    expect((await codes(t.tenantId, t.userId))[0]).toMatchObject({ attempts: 0, usedAt: null });
    await s.login("boss", t.password, t.tenantName);
  });
});
