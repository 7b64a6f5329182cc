// Issue 14, account enumeration: wrong passwords for a name without an account answer exactly like wrong passwords for
// an account, through the lockout and after it (same status, body and headers, the same password check at the same
// cost), on the token endpoint and the account API's credential check; an unknown tenant on the token endpoint too.
// Lockout shortened to 5 s (long enough that the 6th and 7th attempts of both names fall in it on a loaded machine). The password checks are the real ones, recorded as they run (no timing compared: that
// flakes on a shared machine; the times go to the report only).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../testing/harness.ts";
import { DEFAULT_HASH_COST, verifyPassword } from "../modules/identity/passwords.ts";

vi.mock("../modules/identity/passwords.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../modules/identity/passwords.ts")>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
/** The scrypt cost (N, r, p) and key length of each password check since `from`, in order. */
const checksSince = (from: number) =>
  vi
    .mocked(verifyPassword)
    .mock.calls.slice(from)
    .map(([, stored]) => {
      const [scheme, n, r, p, , key] = stored.split("$");
      return `${scheme} N=${n} r=${r} p=${p} key=${Buffer.from(key, "base64").length}`;
    });
const checkCount = () => vi.mocked(verifyPassword).mock.calls.length;

let s: TestServer;
let T: TestTenant;
const LOCKOUT_SECONDS = 5;
const report: string[] = [];

type Answer = { status: number; body: unknown; headers: Record<string, unknown>; ms: number };

async function tokenAttempt(userName: string, password: string, tenant: string): Promise<Answer> {
  const started = performance.now();
  const res = await s.app.inject({
    method: "POST",
    url: "/connect/token",
    headers: { "content-type": "application/x-www-form-urlencoded", __tenant: tenant },
    payload: new URLSearchParams({ grant_type: "password", client_id: "Erp_App", username: userName, password }).toString(),
  });
  return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers, ms: performance.now() - started };
}

async function loginAttempt(userName: string, password: string, tenant: string): Promise<Answer> {
  const started = performance.now();
  const res = await s.api("POST", "/api/account/login", { tenant, body: { userNameOrEmailAddress: userName, password } });
  return { status: res.status, body: res.body, headers: res.headers, ms: performance.now() - started };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const shape = (a: Answer) => ({
  status: a.status,
  body: a.body,
  contentType: a.headers["content-type"],
  cache: a.headers["cache-control"],
});

beforeAll(async () => {
  // Passwords at the production cost (other tests' servers use a low one): the unknown name's check must match it.
  s = await startTestServer({ lockoutSeconds: LOCKOUT_SECONDS, loginRateLimitPerMinute: 10_000, passwordHashCost: DEFAULT_HASH_COST });
  T = await s.createTenant();
});
afterAll(async () => {
  console.log("[security] account enumeration\n  " + report.join("\n  "));
  await s?.close();
});

describe("account enumeration", () => {
  for (const [label, attempt] of [
    ["/connect/token", tokenAttempt],
    ["/api/account/login", loginAttempt],
  ] as const) {
    it(`answers an unknown name exactly like an existing one through 7 wrong passwords, the lockout and its end (${label})`, async () => {
      const known = await s.createSubUser(T);
      const unknown = uniqueName("nobody");
      const times = { known: [] as number[], unknown: [] as number[] };
      const answers: unknown[] = [];
      const checks = { known: [] as string[][], unknown: [] as string[][] };
      for (let i = 1; i <= 7; i++) {
        let from = checkCount();
        const a = await attempt(known.userName, `Wrong${i}pw`, T.tenantName);
        checks.known.push(checksSince(from));
        from = checkCount();
        const b = await attempt(unknown, `Wrong${i}pw`, T.tenantName);
        checks.unknown.push(checksSince(from));
        expect(shape(b), `attempt ${i}`).toEqual(shape(a));
        answers.push(a.body);
        times.known.push(a.ms);
        times.unknown.push(b.ms);
      }
      // The 6th and 7th are the lockout, for both.
      expect(JSON.stringify(answers[5])).toContain("锁定");
      expect(JSON.stringify(answers[4])).not.toContain("锁定");
      await sleep(LOCKOUT_SECONDS * 1000 + 300);
      const known8 = await attempt(known.userName, "Wrong8pw", T.tenantName);
      const unknown8 = await attempt(unknown, "Wrong8pw", T.tenantName);
      expect(shape(unknown8)).toEqual(shape(known8));
      expect(JSON.stringify(known8.body)).not.toContain("锁定");
      // Evaluated (not locked), the unknown name's password is checked once at the account's cost; locked, neither is.
      expect(checks.unknown).toEqual(checks.known);
      expect(checks.known.slice(0, 5).every((c) => c.length === 1 && c[0] === `scrypt N=${DEFAULT_HASH_COST} r=8 p=1 key=32`)).toBe(true);
      expect(checks.known.slice(5)).toEqual([[], []]);
      const evaluated = (xs: number[]) => median(xs.slice(0, 5));
      report.push(
        `${label}: 7 wrong passwords answered alike (6th: ${JSON.stringify(answers[5])}); median time of an evaluated attempt ` +
          `${evaluated(times.known).toFixed(0)} ms (account) vs ${evaluated(times.unknown).toFixed(0)} ms (unknown name)`,
      );
    });
  }

  it("counts an unknown name in any case against one counter, like an account's name", async () => {
    const known = await s.createSubUser(T);
    const unknown = uniqueName("nobody");
    const spell = (n: string, i: number) => (i % 2 ? n.toUpperCase() : n);
    for (let i = 1; i <= 6; i++) {
      const a = await tokenAttempt(spell(known.userName, i), "Wrong1pw", T.tenantName);
      const b = await tokenAttempt(spell(unknown, i), "Wrong1pw", T.tenantName);
      expect(b.body, `attempt ${i}`).toEqual(a.body);
    }
  });

  it("answers a name in an unknown tenant like a wrong password in a known one, lockout included", async () => {
    const known = await s.createSubUser(T);
    const tenant = uniqueName("notenant");
    for (let i = 1; i <= 6; i++) {
      const a = await tokenAttempt(known.userName, "Wrong1pw", T.tenantName);
      const b = await tokenAttempt(known.userName, "Wrong1pw", tenant);
      expect(shape(b), `attempt ${i}`).toEqual(shape(a));
    }
  });

  it("gives a burst of 20 concurrent guesses on an unknown name the same 5 evaluations as on an account", async () => {
    const known = await s.createSubUser(T);
    const unknown = uniqueName("nobody");
    const evaluatedOf = async (name: string) => {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => tokenAttempt(name, `Burst${i}pw`, T.tenantName)));
      return answers.filter((a) => !JSON.stringify(a.body).includes("锁定")).length;
    };
    const [known5, unknown5] = [await evaluatedOf(known.userName), await evaluatedOf(unknown)];
    report.push(`burst of 20: ${known5} evaluated for an account, ${unknown5} for an unknown name`);
    expect(unknown5).toBe(5);
    expect(known5).toBeLessThanOrEqual(5);
  });
});
