// Sandbox sellers as the shop centre meets them: binding another sandbox seller adds a shop and never renames one
// already bound, even after the sandbox lost its state (a reset, a deleted file: its new sellers' ids never repeat an
// old one's); the consent page asks a seller's password; the demo seller of a first start signs in with the password
// printed for it.
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meliAccountGroups } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { authBack, authUrl, connectShop } from "../../testing/shop-kit.ts";
import { DEMO_SHOP } from "../demo/demo-content.ts";
import { prepareDemoSeller } from "../demo/first-start.ts";

let s: TestServer;
let A: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
}, 120_000);
afterAll(() => s?.close());

const groupsOf = (t: TestTenant) =>
  inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select({ name: meliAccountGroups.name, custId: meliAccountGroups.custId })
      .from(meliAccountGroups)
      .where(and(eq(meliAccountGroups.tenantId, t.tenantId)))
      .orderBy(asc(meliAccountGroups.creationTime)),
  );

describe("binding sandbox sellers", () => {
  it("another seller is another shop, also after the sandbox lost its state; the first keeps its name", async () => {
    const one = uniqueName("FIRSTSELLER");
    const two = uniqueName("SECONDSELLER");
    expect((await connectShop(s, A.token, { nickname: one, viaForm: true })).ok).toBe(true);
    // The sandbox forgets everything (before its state was kept, every restart did this).
    s.deps.sandbox!.control.reset();
    const page = await connectShop(s, A.token, { nickname: two, viaForm: true });
    expect(page.ok, page.message).toBe(true);
    const groups = await groupsOf(A);
    expect(groups.map((g) => g.name)).toEqual([one, two]);
    expect(new Set(groups.map((g) => g.custId)).size).toBe(2);
  });

  it("the consent page refuses a seller's wrong password: no code, no shop", async () => {
    const nickname = uniqueName("GUARDED");
    s.deps.sandbox!.control.createSeller({ nickname, password: "right-password" });
    await expect(connectShop(s, A.token, { nickname, viaForm: true, password: "wrong-password" })).rejects.toThrow(/consent: 409/);
    expect((await groupsOf(A)).map((g) => g.name)).not.toContain(nickname);
    expect((await connectShop(s, A.token, { nickname, viaForm: true, password: "right-password" })).ok).toBe(true);
  });

  it("the first start's demo seller signs in with the password it printed, and no other", async () => {
    const boot = {
      adminCreated: true,
      demo: { tenantId: A.tenantId, userId: A.userId, tenantName: "demo", userName: "demo", password: "x" },
    };
    const first = prepareDemoSeller(s.deps, boot)!;
    expect(first.nickname).toBe(DEMO_SHOP);
    expect(first.password.length).toBeGreaterThanOrEqual(10);
    // A second first start (a new database, the sandbox's state kept) gives it a new password.
    const second = prepareDemoSeller(s.deps, boot)!;
    expect(second.password).not.toBe(first.password);
    expect(prepareDemoSeller(s.deps, { adminCreated: false })).toBeNull();

    const consent = async (password: string) => {
      const a = await authUrl(s, A.token);
      const form = new URLSearchParams({
        response_type: "code",
        client_id: a.url.searchParams.get("client_id")!,
        redirect_uri: a.redirectUri,
        state: a.state,
        code_challenge: a.codeChallenge,
        code_challenge_method: "S256",
        nickname: DEMO_SHOP,
        password,
        decision: "allow",
      });
      const res = await s.app.inject({
        method: "POST",
        url: a.url.pathname,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: form.toString(),
      });
      return { res, state: a.state };
    };
    expect((await consent(first.password)).res.statusCode).toBe(401);
    const ok = await consent(second.password);
    expect(ok.res.statusCode).toBe(302);
    const code = new URL(String(ok.res.headers.location)).searchParams.get("code")!;
    expect((await authBack(s, { code, state: ok.state })).ok).toBe(true);
  });
});
