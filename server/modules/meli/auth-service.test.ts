// Connecting shops end to end against the sandbox (spec §7 Meli): GetAuthUrl, the seller's consent, AuthBack, the shop
// listed; a global seller's marketplaces; single-use codes and states; limits; one seller, one tenant; tokens at rest.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { meliAccountGroups } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { authBack, authUrl, connectShop, consent } from "../../testing/shop-kit.ts";
import { getMe } from "../../integrations/mercadolibre/endpoints/users.ts";

let s: TestServer;
let A: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
});
afterAll(() => s?.close());

const nick = (p: string) => uniqueName(p).toUpperCase();
const accounts = async (token: string, query: Record<string, string | number> = {}) => {
  const res = await s.api("GET", "/api/MeliAccount/GetAccounts", { token, query: { MaxResultCount: 100, ...query } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as { items: any[]; totalCount: number };
};
const groupRow = async (tenantId: string, custId: string) =>
  inScope(s.database.db, hostAllScope, async (tx) => {
    const [g] = await tx
      .select()
      .from(meliAccountGroups)
      .where(and(eq(meliAccountGroups.tenantId, tenantId), eq(meliAccountGroups.custId, custId)));
    return g;
  });

describe("GetAuthUrl", () => {
  it("answers Mercado Libre's authorization page with our redirect, a signed state and a PKCE challenge", async () => {
    const a = await authUrl(s, A.token, { sites: [1, 2] });
    const { config } = s.deps;
    expect(`${a.url.origin}${a.url.pathname}`).toBe(`${config.meliAuthUrl}/authorization`);
    expect(a.url.searchParams.get("response_type")).toBe("code");
    expect(a.url.searchParams.get("client_id")).toBe(config.meliClientId);
    expect(a.redirectUri).toBe(`${config.publicUrl}/api/Meli/AuthBack`);
    expect(a.url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(a.codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.state.split(".")).toHaveLength(2);
    // The sandbox's consent page is told which seller to offer (two local sites: a global seller selling on both).
    expect(a.url.searchParams.get("site")).toBe("CBT");
    expect(a.url.searchParams.get("marketplaces")).toBe("MLM,MLB");
    // The page opens for a browser.
    const page = await s.app.inject({ method: "GET", url: a.url.pathname + a.url.search });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="consent"');
  });

  it("refuses an owner of another tenant, and a sub-account asking for someone else", async () => {
    const B = await s.createTenant();
    const other = await s.api("GET", "/api/Meli/GetAuthUrl", { token: A.token, query: { uid: B.userId } });
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe("用户不存在或已停用");
    const sub = await s.createSubUser(A);
    const res = await s.api("GET", "/api/Meli/GetAuthUrl", { token: sub.token, query: { uid: A.userId } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe("子账号只能为自己绑定店铺");
    const bad = await s.api("GET", "/api/Meli/GetAuthUrl", { token: A.token, query: { sites: [6] } });
    expect(bad.status).toBe(400);
  });
});

describe("AuthBack", () => {
  it("connects a local seller through the consent page and lists the shop; the tokens are stored encrypted", async () => {
    const nickname = nick("MX");
    const page = await connectShop(s, A.token, { nickname, site: "MLM", sites: [1], viaForm: true });
    expect(page.status).toBe(200);
    expect(page, page.message).toMatchObject({ ok: true, reason: null });
    expect(page.message).toContain(`美客多账号「${nickname}」授权成功`);
    expect(page.target.startsWith(`${s.deps.config.publicUrl}/#/shops/list?auth=success`)).toBe(true);
    expect(page.params.get("added")).toBe("1");

    const list = await accounts(A.token, { KeyWord: nickname });
    expect(list.totalCount).toBe(1);
    const seller = s.deps.sandbox!.store.userByNickname(nickname)!;
    expect(list.items[0]).toMatchObject({
      group: page.params.get("groupId"),
      groupName: nickname,
      ownerId: A.userId,
      site: 1,
      name: nickname,
      status: 1,
      isCbt: false,
      custId: String(seller.id),
      currency: "MXN",
      isRecieveOrder: true,
      email: `test_user_${seller.id}@testuser.com`,
    });

    // At rest: neither token in the row; each decrypts only for its own row and column.
    const g = await groupRow(A.tenantId, String(seller.id));
    const grant = s.deps.sandbox!.store.state.grants.get(`${s.deps.config.meliClientId}:${seller.id}`)!;
    const raw = JSON.stringify(g);
    expect(raw).not.toContain(grant.refreshToken);
    expect(raw).not.toContain(String(seller.id) + "-"); // the sandbox's tokens end in "-<user id>"
    const ctx = `meli_account_groups:${A.tenantId}:${g.id}`;
    expect(s.deps.secrets.decrypt(g.refreshToken, `${ctx}:refresh_token`)).toBe(grant.refreshToken);
    expect(() => s.deps.secrets.decrypt(g.refreshToken, `${ctx}:access_token`)).toThrow();
    const me = await getMe(s.deps.meli.shop({ tenantId: A.tenantId, groupId: g.id }));
    expect(me.nickname).toBe(nickname);
  });

  it("connects a global seller as one shop per marketplace site (the chosen ones when sites name any)", async () => {
    const nickname = nick("CBT");
    const all = await connectShop(s, A.token, { nickname, site: "CBT", marketplaces: ["MLM", "MLB", "MCO"], sites: [5] });
    expect(all, all.message).toMatchObject({ ok: true });
    const seller = s.deps.sandbox!.control.seller(s.deps.sandbox!.store.userByNickname(nickname)!.id)!;
    const list = await accounts(A.token, { KeyWord: nickname, Sorting: "site asc" });
    expect(list.items.map((a) => [a.site, a.isCbt, a.currency, a.custId])).toEqual(
      [1, 2, 4].map((site) => [
        site,
        true,
        "USD",
        String(seller.marketplaces.find((m) => m.site_id === ["", "MLM", "MLB", "MLC", "MCO"][site])!.user_id),
      ]),
    );
    const groups = (await s.api("GET", "/api/MeliAccount/GetMeliAccGroup", { token: A.token })).body.result;
    const group = groups.groups.find((x: any) => x.name === nickname);
    expect(group).toMatchObject({ sites: [1, 2, 4], isCbt: true, custId: String(seller.id), status: 1 });
    expect(group.accs).toHaveLength(3);

    // Another global seller, only two of its marketplaces chosen.
    const two = nick("CBT2");
    const page = await connectShop(s, A.token, { nickname: two, site: "CBT", marketplaces: ["MLM", "MLB", "MLC"], sites: [2, 3] });
    expect(page.ok, page.message).toBe(true);
    expect((await accounts(A.token, { KeyWord: two })).items.map((a) => a.site).sort()).toEqual([2, 3]);

    // Chosen sites the seller does not sell on: refused, nothing stored.
    const none = nick("CBT3");
    const refused = await connectShop(s, A.token, { nickname: none, site: "CBT", marketplaces: ["MLM"], sites: [3] });
    expect(refused).toMatchObject({ ok: false, reason: "site" });
    expect(refused.message).toContain("智利");
    expect((await accounts(A.token, { KeyWord: none })).totalCount).toBe(0);
  });

  it("refuses a code used twice with a clear message", async () => {
    const nickname = nick("TWICE");
    const first = await authUrl(s, A.token);
    const code = await consent(s, first, { nickname });
    expect((await authBack(s, { code, state: first.state })).ok).toBe(true);
    const second = await authUrl(s, A.token);
    const again = await authBack(s, { code, state: second.state });
    expect(again).toMatchObject({ ok: false, reason: "exchange" });
    expect(again.message).toBe("授权码无效或已被使用（美客多授权码只能使用一次，10 分钟内有效），请重新授权");
  });

  it("refuses a forged, an expired and a reused state, and connects nothing", async () => {
    const a = await authUrl(s, A.token);
    const code = await consent(s, a, { nickname: nick("STATE") });
    const [body, mac] = a.state.split(".");
    const payload = JSON.parse(Buffer.from(body, "base64url").toString());
    const forgedBody = Buffer.from(JSON.stringify({ ...payload, t: (await s.createTenant()).tenantId })).toString("base64url");
    // One flipped bit of the MAC (editing its base64url text could leave the bytes the same: a mac ending in "AA").
    const flippedMac = Buffer.from(mac, "base64url");
    flippedMac[0] ^= 1;
    const flipped = `${body}.${flippedMac.toString("base64url")}`;
    for (const state of [`${forgedBody}.${mac}`, flipped, "x", `${body}`]) {
      const page = await authBack(s, { code, state });
      expect(page, state).toMatchObject({ ok: false, reason: "forged" });
      expect(page.message).toBe("授权链接无效，请回到店铺列表重新授权");
    }
    const now = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(now + 11 * 60_000);
    try {
      expect(await authBack(s, { code, state: a.state })).toMatchObject({ ok: false, reason: "expired" });
    } finally {
      clock.mockRestore();
    }
    // The real one works once (the code was never sent above), then the state is spent.
    expect((await authBack(s, { code, state: a.state })).ok).toBe(true);
    const reused = await authBack(s, { code, state: a.state });
    expect(reused).toMatchObject({ ok: false, reason: "used" });
    expect(reused.message).toBe("该授权链接已使用过，请回到店铺列表重新授权");
  });

  it("tells the seller who cancelled at Mercado Libre, and spends the state", async () => {
    const a = await authUrl(s, A.token);
    const page = await authBack(s, { error: "access_denied", error_description: "The user denied access", state: a.state });
    expect(page).toMatchObject({ ok: false, reason: "denied", message: "您已在美客多取消授权，店铺未绑定" });
    expect((await authBack(s, { code: "TG-x", state: a.state })).reason).toBe("used");
  });

  it("answers a page that leads back to the console (and to a window that opened it)", async () => {
    const a = await authUrl(s, A.token);
    const res = await s.api("GET", "/api/Meli/AuthBack", { query: { state: a.state, error: "access_denied" } });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(String(res.headers["content-security-policy"])).toMatch(/script-src 'nonce-/);
    expect(res.raw).toContain("window.opener.postMessage");
    expect(res.raw).toContain("location.replace");
    expect(res.raw).toContain('"type":"meli-auth"');
    // Without a state it is an ordinary validation error.
    const bare = await s.api("GET", "/api/Meli/AuthBack", { query: { code: "x" } });
    expect(bare.status).toBe(400);
    expect(bare.body.error.validationErrors[0].message).toBe("The parameter state cannot be null.");
  });

  it("re-authorizing a connected seller refreshes its tokens without adding or counting shops", async () => {
    const nickname = nick("AGAIN");
    expect((await connectShop(s, A.token, { nickname })).ok).toBe(true);
    const seller = s.deps.sandbox!.store.userByNickname(nickname)!;
    const before = await groupRow(A.tenantId, String(seller.id));
    await s.api("POST", "/api/MeliAccount/UpdateAccount", {
      token: A.token,
      body: { id: (await accounts(A.token, { KeyWord: nickname })).items[0].id, info: { alias: "我的店" } },
    });
    const page = await connectShop(s, A.token, { nickname });
    expect(page, page.message).toMatchObject({ ok: true });
    expect(page.params.get("added")).toBe("0");
    expect(page.params.get("updated")).toBe("1");
    expect(page.message).toContain("已更新店铺");
    const after = await groupRow(A.tenantId, String(seller.id));
    expect(after.id).toBe(before.id);
    expect(after.tokenVersion).toBe(before.tokenVersion + 1);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    const list = await accounts(A.token, { KeyWord: nickname });
    expect(list.totalCount).toBe(1);
    expect(list.items[0].alias).toBe("我的店");
  });
});

describe("limits and tenants", () => {
  it("enforces the owner's limitMeliAccount on new shops, never on re-authorization", async () => {
    const T = await s.createTenant();
    const sub = await s.createSubUser(T, uniqueName("limited"), { limitMeliAccount: 2 });
    const first = nick("L1");
    expect((await connectShop(s, sub.token, { nickname: first })).ok).toBe(true);
    // A global seller with two marketplaces would make three.
    const cbt = nick("L2");
    const over = await connectShop(s, sub.token, { nickname: cbt, site: "CBT", marketplaces: ["MLM", "MLB"] });
    expect(over).toMatchObject({ ok: false, reason: "limit" });
    expect(over.message).toBe("店铺数量已达上限（2 个，已绑定 1 个，本次需新增 2 个），请解绑不用的店铺或联系主账号提高上限");
    expect((await accounts(sub.token)).totalCount).toBe(1);
    const second = nick("L3");
    expect((await connectShop(s, sub.token, { nickname: second })).ok).toBe(true);
    expect((await accounts(sub.token)).totalCount).toBe(2);
    // At the limit, the connected shops can still be authorized again.
    expect((await connectShop(s, sub.token, { nickname: first })).ok).toBe(true);
    // The main account connecting for the sub-account is held to the sub-account's limit too.
    const forSub = await connectShop(s, T.token, { nickname: nick("L4"), uid: sub.id });
    expect(forSub.reason).toBe("limit");
    // GetMyInfo counts the shops.
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: sub.token })).body.result.meliAccountCount).toBe(2);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: T.token })).body.result.meliAccountCount).toBe(2);
  });

  it("a global seller at the limit gets its tokens renewed but no new marketplace shop", async () => {
    const T = await s.createTenant();
    const sub = await s.createSubUser(T, uniqueName("cap"), { limitMeliAccount: 1 });
    const nickname = nick("CAP");
    s.deps.sandbox!.control.createSeller({ nickname, site: "CBT", marketplaces: ["MLM", "MLB"] });
    expect((await connectShop(s, sub.token, { nickname, sites: [1] })).ok).toBe(true);
    const page = await connectShop(s, sub.token, { nickname, sites: [1, 2] });
    expect(page.ok, page.message).toBe(true);
    expect(page.message).toContain("店铺数量已达上限（1 个），未新增：巴西");
    expect((await accounts(sub.token)).items.map((a) => a.site)).toEqual([1]);
  });

  it("a connected global seller authorized again for sites it does not sell on keeps its shops and the new pair", async () => {
    const nickname = nick("NOCL");
    s.deps.sandbox!.control.createSeller({ nickname, site: "CBT", marketplaces: ["MLM"] });
    expect((await connectShop(s, A.token, { nickname })).ok).toBe(true);
    const seller = s.deps.sandbox!.store.userByNickname(nickname)!;
    const before = await groupRow(A.tenantId, String(seller.id));
    const page = await connectShop(s, A.token, { nickname, sites: [3] });
    expect(page.ok, page.message).toBe(true);
    expect(page.message).toContain("该全球卖家账号未开通所选站点（智利）");
    expect((await groupRow(A.tenantId, String(seller.id))).tokenVersion).toBe(before.tokenVersion + 1);
    expect((await accounts(A.token, { KeyWord: nickname })).items.map((a) => a.site)).toEqual([1]);
  });

  it("an owner disabled during the authorization gets no new shop, but a connected shop keeps the new pair", async () => {
    const T = await s.createTenant();
    const sub = await s.createSubUser(T, uniqueName("leaving"));
    const nickname = nick("KEEP");
    expect((await connectShop(s, sub.token, { nickname })).ok).toBe(true);
    const seller = s.deps.sandbox!.store.userByNickname(nickname)!;
    const before = await groupRow(T.tenantId, String(seller.id));
    const again = await authUrl(s, T.token, { uid: sub.id });
    const fresh = await authUrl(s, T.token, { uid: sub.id });
    expect((await s.api("PUT", "/api/User/Enabled", { token: T.token, query: { userId: sub.id, enable: false } })).status).toBe(204);
    const renewed = await authBack(s, { code: await consent(s, again, { nickname }), state: again.state });
    expect(renewed.ok, renewed.message).toBe(true);
    expect((await groupRow(T.tenantId, String(seller.id))).tokenVersion).toBe(before.tokenVersion + 1);
    const refused = await authBack(s, { code: await consent(s, fresh, { nickname: nick("NEWSHOP") }), state: fresh.state });
    expect(refused).toMatchObject({ ok: false, reason: "owner", message: "店铺所属的账号不存在或已停用，不能绑定新店铺" });
  });

  it("connects a seller to one tenant only: another tenant is refused and the first keeps working", async () => {
    const nickname = nick("ONE");
    expect((await connectShop(s, A.token, { nickname })).ok).toBe(true);
    const seller = s.deps.sandbox!.store.userByNickname(nickname)!;
    const B = await s.createTenant();
    const page = await connectShop(s, B.token, { nickname });
    expect(page).toMatchObject({ ok: false, reason: "other-tenant" });
    expect(page.message).toBe(`美客多账号「${nickname}」已绑定在其他公司，不能重复绑定；如需转移，请联系平台管理员`);
    expect((await accounts(B.token)).totalCount).toBe(0);
    // B's grant spent A's refresh token; A holds the new pair, so A's shop still refreshes.
    const g = await groupRow(A.tenantId, String(seller.id));
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx.execute(
        sql`update meli_account_groups set token_expires_at = now() - interval '1 minute' where tenant_id = ${A.tenantId} and id = ${g.id}`,
      ),
    );
    expect((await getMe(s.deps.meli.shop({ tenantId: A.tenantId, groupId: g.id }))).nickname).toBe(nickname);
    expect((await accounts(A.token, { KeyWord: nickname })).items[0].status).toBe(1);
  });

  it("marks a shop whose refresh token Mercado Libre refuses as needing authorization, until authorized again", async () => {
    const nickname = nick("GONE");
    expect((await connectShop(s, A.token, { nickname })).ok).toBe(true);
    const seller = s.deps.sandbox!.store.userByNickname(nickname)!;
    const g = await groupRow(A.tenantId, String(seller.id));
    // Someone else used the grant (a second app install, a copied token): our refresh token is no longer the newest.
    s.deps.sandbox!.control.tokens({ nickname });
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx.execute(
        sql`update meli_account_groups set token_expires_at = now() - interval '1 minute' where tenant_id = ${A.tenantId} and id = ${g.id}`,
      ),
    );
    const err = await getMe(s.deps.meli.shop({ tenantId: A.tenantId, groupId: g.id })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeliApiError);
    expect((err as MeliApiError).kind).toBe("reauthorize");
    expect((err as MeliApiError).status).toBe(403);
    expect((err as MeliApiError).message).toBe(`店铺「${nickname}」美客多授权已失效（刷新令牌被拒绝），请在店铺列表中重新授权`);
    const shop = (await accounts(A.token, { KeyWord: nickname })).items[0];
    expect(shop).toMatchObject({ status: 3, statusMessage: "美客多授权已失效（刷新令牌被拒绝），请在店铺列表中重新授权" });
    expect((await accounts(A.token, { KeyWord: nickname, Status: 3 })).totalCount).toBe(1);
    // Further calls do not try the dead token again.
    const calls = s.deps.sandbox!.control.callCount("POST /oauth/token");
    await expect(getMe(s.deps.meli.shop({ tenantId: A.tenantId, groupId: g.id }))).rejects.toThrow(/重新授权/);
    expect(s.deps.sandbox!.control.callCount("POST /oauth/token")).toBe(calls);
    // Authorizing again brings it back.
    expect((await connectShop(s, A.token, { nickname })).ok).toBe(true);
    expect((await accounts(A.token, { KeyWord: nickname })).items[0]).toMatchObject({ status: 1, statusMessage: null });
    const rows = rowsOf<{ n: number }>(
      await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
        tx.execute(
          sql`select count(*)::int as n from meli_account_groups where tenant_id = ${A.tenantId} and cust_id = ${String(seller.id)}`,
        ),
      ),
    );
    expect(rows[0].n).toBe(1);
  });
});
