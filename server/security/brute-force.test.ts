// RELIABILITY.md scenario 11, brute force: the 1st to 5th wrong password answer exactly like an unknown user; the 5th
// locks the account, so the 6th attempt is refused with the lockout message even with the right password; the lock
// ends by itself. A burst of concurrent guesses gets no more than the five. A per-IP limit answers 429 with
// Retry-After. (Lockout shortened to 2 s through the config the tests may set; the rule itself is 5 failures / 300 s.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../testing/harness.ts";
import { envelopeProblem } from "../testing/security-kit.ts";

let s: TestServer;
let T: TestTenant;
const report: string[] = [];

type TokenAnswer = { status: number; body: any; headers: Record<string, unknown> };

async function token(server: TestServer, fields: Record<string, string>, tenant?: string): Promise<TokenAnswer> {
  const res = await server.app.inject({
    method: "POST",
    url: "/connect/token",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(tenant ? { __tenant: tenant } : {}) },
    payload: new URLSearchParams({ grant_type: "password", client_id: "Erp_App", scope: "Erp", ...fields }).toString(),
  });
  return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
}

const attempt = (userName: string, password: string, tenant = T.tenantName) => token(s, { username: userName, password }, tenant);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  s = await startTestServer({ lockoutSeconds: 2 });
  T = await s.createTenant();
});
afterAll(async () => {
  console.log("[security] brute force\n  " + report.join("\n  "));
  await s?.close();
});

describe("brute force (scenario 11)", () => {
  it("answers an unknown user, a wrong password and an unknown tenant identically", async () => {
    const known = await s.createSubUser(T);
    const unknownUser = await attempt(uniqueName("nobody"), "Wrong12345");
    const wrongPassword = await attempt(known.userName, "Wrong12345");
    const unknownTenant = await attempt(known.userName, "Wrong12345", uniqueName("notenant"));
    expect(unknownUser.status).toBe(400);
    expect(unknownUser.body).toEqual({ error: "invalid_grant", error_description: expect.any(String) });
    for (const other of [wrongPassword, unknownTenant]) {
      expect(other.status).toBe(unknownUser.status);
      expect(other.body).toEqual(unknownUser.body);
      expect(other.headers["cache-control"]).toBe(unknownUser.headers["cache-control"]);
      expect(other.headers["content-type"]).toBe(unknownUser.headers["content-type"]);
    }
  });

  it("locks the account on the 5th wrong password: the 6th attempt is refused with the lockout message, even with the right password", async () => {
    const victim = await s.createSubUser(T, uniqueName("victim"), { email: `${uniqueName("v")}@example.com` });
    const unknown = await attempt(uniqueName("nobody"), "Wrong12345");
    // Any spelling of the account counts against the same counter: the name in other case, or the email.
    const spellings = [victim.userName, victim.userName.toUpperCase(), victim.userName, victim.userName.toUpperCase(), victim.userName];
    for (let i = 0; i < 5; i++) {
      const res = await attempt(spellings[i], `Wrong${i}x123`);
      expect(res.status, `attempt ${i + 1}`).toBe(400);
      expect(res.body, `attempt ${i + 1} answers like an unknown user`).toEqual(unknown.body);
    }
    const sixth = await attempt(victim.userName, victim.password);
    expect(sixth.status).toBe(400);
    expect(sixth.body.error).toBe("invalid_grant");
    expect(sixth.body.error_description).toContain("锁定");
    const seventh = await attempt(victim.userName, "Wrong99x");
    expect(seventh.body.error_description).toContain("锁定");
    // The credential check of the account API shares the counter.
    if (s.app.calls.some((c) => c.url === "/api/account/login")) {
      const res = await s.api("POST", "/api/account/login", {
        tenant: T.tenantName,
        body: { userNameOrEmailAddress: victim.userName, password: victim.password, rememberMe: false },
      });
      expect(res.status).toBe(200);
      expect(res.body.result.result).toBe(4); // LoginResultType.LockedOut
    }
    await sleep(2300);
    const after = await attempt(victim.userName, victim.password);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.access_token).toBeTruthy();
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: after.body.access_token })).status).toBe(200);
    report.push(`lockout: 5 wrong passwords, then locked (6th answered: ${sixth.body.error_description})`);
  });

  it("resets the count after a successful login: 4 wrong, right, 4 wrong, right all work", async () => {
    const u = await s.createSubUser(T);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) expect((await attempt(u.userName, `Bad${i}pass1`)).status).toBe(400);
      const ok = await attempt(u.userName, u.password);
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    }
  });

  it("reports the guesses one account allows per hour under the production settings", () => {
    const prod = loadConfig({ TOKEN_SIGNING_KEY: "x".repeat(40), DATA_DIR: "/tmp/erp-bf-config" });
    expect(prod.lockoutAttempts).toBe(5);
    expect(prod.lockoutSeconds).toBe(300);
    const perHour = prod.lockoutAttempts * Math.ceil(3600 / prod.lockoutSeconds);
    report.push(
      `attempts allowed per account per hour: ${perHour} (${prod.lockoutAttempts} per ${prod.lockoutSeconds} s lockout); per IP: ${prod.loginRateLimitPerMinute * 60}/h`,
    );
    expect(perHour).toBe(60);
  });
});

describe("concurrent guesses (scenario 11)", () => {
  // A lockout long enough that it cannot end during the burst on a slow machine.
  let b: TestServer;
  let B: TestTenant;
  beforeAll(async () => {
    b = await startTestServer({ lockoutSeconds: 120 });
    B = await b.createTenant();
  });
  afterAll(() => b?.close());

  it("evaluates at most 5 guesses of a burst of 20 concurrent wrong passwords, and the account is locked after it", async () => {
    const u = await b.createSubUser(B);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => token(b, { username: u.userName, password: `Burst${i}pw1` }, B.tenantName)),
    );
    const evaluated = answers.filter((a) => a.body.error_description && !a.body.error_description.includes("锁定")).length;
    const locked = answers.length - evaluated;
    report.push(`burst of 20 concurrent wrong passwords: ${evaluated} evaluated, ${locked} refused as locked`);
    expect(answers.every((a) => a.status === 400 && a.body.error === "invalid_grant")).toBe(true);
    expect(evaluated).toBeLessThanOrEqual(5);
    const right = await token(b, { username: u.userName, password: u.password }, B.tenantName);
    expect(right.body.error_description).toContain("锁定");
  });
});

describe("per-IP limit (scenario 11)", () => {
  let r: TestServer;
  let R: TestTenant;
  const limit = 4;
  beforeAll(async () => {
    r = await startTestServer({ loginRateLimitPerMinute: limit });
    R = await r.createTenant(); // its login is the 1st request of the window
  });
  afterAll(() => r?.close());

  it("answers the limit+1-th token request of an IP within a minute with 429 and Retry-After", async () => {
    const answers: TokenAnswer[] = [];
    for (let i = 1; i < limit; i++) answers.push(await token(r, { username: "boss", password: `Nope${i}abc` }, R.tenantName));
    expect(answers.map((a) => a.status)).toEqual(Array(limit - 1).fill(400));
    const over = await token(r, { username: "boss", password: R.password }, R.tenantName);
    expect(over.status).toBe(429);
    expect(over.body.error).toBe("too_many_requests");
    const retryAfter = Number(over.headers["retry-after"]);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${over.headers["retry-after"]}`).toBe(true);
    // A refresh is a token request too.
    expect((await token(r, { grant_type: "refresh_token", refresh_token: "x" })).status).toBe(429);
    report.push(`per-IP limit ${limit}/min: request ${limit + 1} answered 429, Retry-After ${retryAfter}`);
  });

  it("counts the account API's credential check against the same limit, answering 429 in the error envelope", async () => {
    if (!r.app.calls.some((c) => c.url === "/api/account/login")) return;
    const res = await r.api("POST", "/api/account/login", {
      tenant: R.tenantName,
      body: { userNameOrEmailAddress: "boss", password: R.password, rememberMe: false },
    });
    expect(res.status).toBe(429);
    expect(envelopeProblem(res)).toBeNull();
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  });
});
