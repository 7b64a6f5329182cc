// Connecting a shop (spec §7 Meli GetAuthUrl, AuthBack). GetAuthUrl records a pending authorization and answers
// Mercado Libre's authorization page with a signed state (HMAC over tenant, user, owner, sites, nonce and expiry; the
// nonce's row makes it single-use and holds the PKCE verifier). The seller comes back to AuthBack without our token, so
// the state is all that says whose shop it is: a forged, expired or reused state connects nothing. AuthBack spends the
// state in its transaction, then (after commit, outside any transaction) exchanges the code, reads the seller, and
// creates or refreshes the account group and its shop accounts (a global seller: one per marketplace site), and answers
// a small page that takes the seller back to /#/shops/list with the result.
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { and, count, eq, lt, ne, sql } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import type { z } from "zod";
import type { AppDeps } from "../../app.ts";
import type { Tx } from "../../db/client.ts";
import { HOST_TENANT_ID, meliAccountGroups, meliAccounts, meliAuthStates, tenants, users } from "../../db/schema.ts";
import { hostAllScope, inScope, setScope } from "../../db/scope.ts";
import { AfterCommit, type CallContext } from "../../http/calls.ts";
import { forbidden, notFound } from "../../http/errors.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { encryptPair, MeliAuthStatus } from "../../integrations/mercadolibre/tokens.ts";
import type { MarketplaceUser, MeliUser, TokenAnswer } from "../../integrations/mercadolibre/types.ts";
import { secretKeyFrom } from "../../security/secrets.ts";
import { MELI_SITES, siteNumberOf, type authBackQuery, type getAuthUrlQuery, type MeliSiteNumber } from "../../../shared/contract/meli.ts";

const STATE_TTL_MS = 10 * 60_000;
const LOCAL_SITES = [1, 2, 3, 4] as const;

export const authBackPath = "/api/Meli/AuthBack";
export const redirectUriOf = (deps: AppDeps) => `${deps.config.publicUrl}${authBackPath}`;

// ---------------------------------------------------------------------------------------------------------------
// The state.

type StatePayload = { v: 1; t: string; u: string; o: string; s: number[]; n: string; e: number };

const stateKeys = new WeakMap<AppDeps, Buffer>();
function stateKey(deps: AppDeps): Buffer {
  let k = stateKeys.get(deps);
  if (!k) {
    k = secretKeyFrom(deps.config.tokenSigningKey, "erp/meli-oauth-state/v1");
    stateKeys.set(deps, k);
  }
  return k;
}

export function signState(key: Buffer, p: StatePayload): string {
  const body = Buffer.from(JSON.stringify(p)).toString("base64url");
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

export function readState(
  key: Buffer,
  raw: string,
  now = Date.now(),
): { ok: true; payload: StatePayload } | { ok: false; reason: "forged" | "expired" } {
  const [body, mac, extra] = raw.split(".");
  if (!body || !mac || extra !== undefined) return { ok: false, reason: "forged" };
  const expected = createHmac("sha256", key).update(body).digest();
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "forged" };
  let p: StatePayload;
  try {
    p = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "forged" };
  }
  if (p?.v !== 1 || typeof p.t !== "string" || typeof p.n !== "string" || typeof p.e !== "number") return { ok: false, reason: "forged" };
  if (p.e <= now) return { ok: false, reason: "expired" };
  return { ok: true, payload: p };
}

// ---------------------------------------------------------------------------------------------------------------
// GetAuthUrl.

export async function getAuthUrl(ctx: CallContext, q: z.output<typeof getAuthUrlQuery>): Promise<string> {
  const u = ctx.user!;
  if (u.isHost || u.tenantId === HOST_TENANT_ID) throw forbidden("平台管理员不能绑定店铺，请使用公司账号登录");
  const ownerId = q.uid ?? u.id;
  if (ownerId !== u.id) {
    if (!u.isMainAccount) throw forbidden("子账号只能为自己绑定店铺");
    const [owner] = await ctx.tx
      .select({ isActive: users.isActive, isDeleted: users.isDeleted })
      .from(users)
      .where(and(eq(users.tenantId, u.tenantId), eq(users.id, ownerId)));
    if (!owner || owner.isDeleted || !owner.isActive) throw notFound("用户不存在或已停用");
  }
  const sites = [...new Set(q.sites ?? [])].sort((a, b) => a - b);
  const nonce = randomUUID();
  const verifier = randomBytes(32).toString("base64url");
  const expiresAt = Date.now() + STATE_TTL_MS;
  // Pending authorizations nobody finished are dropped as new ones start.
  await ctx.tx.delete(meliAuthStates).where(and(eq(meliAuthStates.tenantId, u.tenantId), lt(meliAuthStates.expiresAt, new Date())));
  await ctx.tx.insert(meliAuthStates).values({
    tenantId: u.tenantId,
    id: nonce,
    userId: u.id,
    ownerId,
    sites,
    codeVerifier: verifier,
    expiresAt: new Date(expiresAt),
  });
  const state = signState(stateKey(ctx.deps), { v: 1, t: u.tenantId, u: u.id, o: ownerId, s: sites, n: nonce, e: expiresAt });
  return ctx.deps.meli.authorizationUrl({
    redirectUri: redirectUriOf(ctx.deps),
    state,
    codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
    extra: ctx.deps.config.meliSandbox ? sandboxHints(sites) : undefined,
  });
}

/** The sandbox's consent page pre-selects the site (and a global seller's marketplaces) the seller chose here. */
function sandboxHints(sites: number[]): Record<string, string> {
  const locals = sites.filter((s) => s !== 5).map((s) => MELI_SITES[s as MeliSiteNumber].meli);
  const site = sites.includes(5) || locals.length > 1 ? "CBT" : (locals[0] ?? "MLM");
  return { site, ...(site === "CBT" && locals.length ? { marketplaces: locals.join(",") } : {}) };
}

// ---------------------------------------------------------------------------------------------------------------
// AuthBack.

export type AuthOutcome = {
  ok: boolean;
  /** What the page and the console show. */
  message: string;
  /** failed: forged, expired, used, denied, exchange, limit, other-tenant, site, owner, error. */
  reason?: string;
  groupId?: string;
  added?: number;
  updated?: number;
};

const fail = (reason: string, message: string): AuthOutcome => ({ ok: false, reason, message });

export async function authBack(ctx: CallContext, q: z.output<typeof authBackQuery>): Promise<AfterCommit> {
  const deps = ctx.deps;
  const answer = (outcome: AuthOutcome) => new AfterCommit((reply) => sendResultPage(reply, deps, outcome));
  const read = readState(stateKey(deps), q.state);
  if (!read.ok) {
    return answer(
      read.reason === "expired"
        ? fail("expired", "授权链接已过期（10 分钟内有效），请回到店铺列表重新授权")
        : fail("forged", "授权链接无效，请回到店铺列表重新授权"),
    );
  }
  const p = read.payload;
  // The seller has no token of ours here: the signed state names the tenant; its row is spent in this transaction.
  await setScope(ctx.tx, { tenantId: p.t });
  const [pending] = await ctx.tx
    .delete(meliAuthStates)
    .where(and(eq(meliAuthStates.tenantId, p.t), eq(meliAuthStates.id, p.n)))
    .returning();
  if (!pending) return answer(fail("used", "该授权链接已使用过，请回到店铺列表重新授权"));
  if (q.error) {
    return answer(
      q.error === "access_denied"
        ? fail("denied", "您已在美客多取消授权，店铺未绑定")
        : fail("denied", `美客多授权未完成：${q.error_description ?? q.error}`),
    );
  }
  if (!q.code) return answer(fail("denied", "美客多未返回授权码，请重新授权"));
  const code = q.code;
  return new AfterCommit(async (reply) => {
    let outcome: AuthOutcome;
    try {
      outcome = await connectShop(deps, pending, code);
    } catch (err) {
      if (err instanceof MeliApiError) {
        deps.log.warn({ err: { message: err.message, meli: err.meli } }, "shop authorization refused");
        outcome = fail(err.kind === "invalid-code" ? "exchange" : "error", err.message);
      } else {
        deps.log.error({ err }, "shop authorization failed");
        outcome = fail("error", "绑定店铺时发生错误，请稍后重试");
      }
    }
    await sendResultPage(reply, deps, outcome);
  });
}

type Pending = typeof meliAuthStates.$inferSelect;

type PlannedShop = { site: MeliSiteNumber; siteCode: string; custId: string; isCbt: boolean; isFull: boolean; currency: string };

/** The shop accounts an authorized seller gives: its own site, or a global seller's marketplaces (those chosen, if any). */
export function planShops(me: MeliUser, market: MarketplaceUser | null, chosen: number[]): PlannedShop[] | { error: string } {
  if (me.site_id === "CBT") {
    const wanted = chosen.filter((s) => (LOCAL_SITES as readonly number[]).includes(s));
    const all = (market?.marketplaces ?? []).flatMap((m) => {
      const site = siteNumberOf(m.site_id);
      return site && site !== 5
        ? [
            {
              site,
              siteCode: m.site_id,
              custId: m.user_id,
              isCbt: true,
              isFull: m.logistic_type === "fulfillment",
              currency: MELI_SITES[5].currency,
            },
          ]
        : [];
    });
    const plan = wanted.length ? all.filter((s) => wanted.includes(s.site)) : all;
    if (!plan.length) {
      const names = (wanted.length ? wanted : LOCAL_SITES).map((s) => MELI_SITES[s as MeliSiteNumber].name).join("、");
      return { error: `该全球卖家账号未开通所选站点（${names}），请选择其已开通的站点` };
    }
    return plan;
  }
  const site = siteNumberOf(me.site_id);
  if (!site || site === 5) return { error: `暂不支持该站点（${me.site_id}）的美客多账号` };
  return [{ site, siteCode: me.site_id, custId: me.id, isCbt: false, isFull: false, currency: MELI_SITES[site].currency }];
}

async function connectShop(deps: AppDeps, pending: Pending, code: string): Promise<AuthOutcome> {
  const tenantId = pending.tenantId;
  const tokens = await deps.meli.exchangeCode({ code, redirectUri: redirectUriOf(deps), codeVerifier: pending.codeVerifier });
  if (!tokens.refresh_token) {
    return fail("exchange", "美客多授权未包含离线访问权限（offline_access），请在美客多应用设置中开启后重新授权");
  }
  const session = deps.meli.withToken(tokens.access_token, tokens.user_id);
  const me = await session.me();
  const market = me.site_id === "CBT" ? await session.marketplaceUser(me.id) : null;
  const plan = planShops(me, market, pending.sites as number[]);

  // One seller, one tenant: another tenant's shop keeps working with the pair just issued (the exchange has spent the
  // pair it held), and this tenant is refused.
  const elsewhere = await inScope(deps.database.db, hostAllScope, async (tx) => {
    const [g] = await tx
      .select({ tenantId: meliAccountGroups.tenantId, id: meliAccountGroups.id })
      .from(meliAccountGroups)
      .where(and(eq(meliAccountGroups.custId, me.id), ne(meliAccountGroups.tenantId, tenantId)))
      .limit(1);
    return g ?? null;
  });
  if (elsewhere) {
    await inScope(deps.database.db, { tenantId: elsewhere.tenantId }, (tx) => storeTokens(tx, deps, elsewhere, tokens));
    return fail("other-tenant", `美客多账号「${me.nickname}」已绑定在其他公司，不能重复绑定；如需转移，请联系平台管理员`);
  }
  return inScope(deps.database.db, { tenantId }, (tx) => storeShops(tx, deps, pending, me, tokens, plan));
}

/** Writes a newly issued pair over a group's, whatever state it was in (a fresh grant is authorized again). */
async function storeTokens(tx: Tx, deps: AppDeps, ref: { tenantId: string; id: string }, tokens: TokenAnswer) {
  await tx
    .update(meliAccountGroups)
    .set({
      ...encryptPair(
        deps.secrets,
        { tenantId: ref.tenantId, groupId: ref.id },
        { accessToken: tokens.access_token, refreshToken: tokens.refresh_token! },
      ),
      tokenExpiresAt: sql`now() + make_interval(secs => ${tokens.expires_in})`,
      tokenVersion: sql`${meliAccountGroups.tokenVersion} + 1`,
      authStatus: MeliAuthStatus.Authorized,
      authMessage: null,
      refreshLeaseUntil: null,
      refreshLeaseId: null,
      lastRefreshTime: sql`now()`,
      lastModificationTime: new Date(),
    })
    .where(and(eq(meliAccountGroups.tenantId, ref.tenantId), eq(meliAccountGroups.id, ref.id)));
}

async function storeShops(
  tx: Tx,
  deps: AppDeps,
  pending: Pending,
  me: MeliUser,
  tokens: TokenAnswer,
  planned: PlannedShop[] | { error: string },
): Promise<AuthOutcome> {
  const { tenantId, ownerId } = pending;
  const [tenant] = await tx.select({ isActive: tenants.isActive }).from(tenants).where(eq(tenants.id, tenantId));
  // The owner's row is the lock that serializes changes to its shop count (AssignAccount takes it too).
  const [owner] = await tx
    .select({ userName: users.userName, limit: users.limitMeliAccount, isActive: users.isActive, isDeleted: users.isDeleted })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, ownerId)))
    .for("update");
  const [existing] = await tx
    .select({ id: meliAccountGroups.id })
    .from(meliAccountGroups)
    .where(and(eq(meliAccountGroups.tenantId, tenantId), eq(meliAccountGroups.custId, me.id)))
    .for("update");
  // A connected seller keeps its new pair whatever else is refused: the exchange has spent the one we held.
  const ownerProblem = !tenant?.isActive
    ? "公司已停用，不能绑定新店铺"
    : !owner || owner.isDeleted || !owner.isActive
      ? "店铺所属的账号不存在或已停用，不能绑定新店铺"
      : null;
  if (!existing && "error" in planned) return fail("site", planned.error);
  if (!existing && ownerProblem) return fail("owner", ownerProblem);
  const plan = "error" in planned ? [] : planned;
  const groupId = existing?.id ?? randomUUID();
  const have = existing
    ? await tx
        .select({ id: meliAccounts.id, site: meliAccounts.site })
        .from(meliAccounts)
        .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.groupId, groupId)))
    : [];
  const haveSites = new Set(have.map((a) => a.site));
  let fresh = plan.filter((s) => !haveSites.has(s.site));
  let skipped: { why: string; shops: PlannedShop[] } | null = null;
  if (fresh.length && ownerProblem) {
    skipped = { why: ownerProblem, shops: fresh };
    fresh = [];
  }
  const limit = owner?.limit ?? null;
  if (fresh.length && limit !== null) {
    const [{ n }] = await tx
      .select({ n: count() })
      .from(meliAccounts)
      .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.ownerId, ownerId)));
    if (Number(n) + fresh.length > limit) {
      const limitText = `店铺数量已达上限（${limit} 个，已绑定 ${n} 个，本次需新增 ${fresh.length} 个）`;
      if (!existing) return fail("limit", `${limitText}，请解绑不用的店铺或联系主账号提高上限`);
      skipped = { why: `店铺数量已达上限（${limit} 个）`, shops: fresh };
      fresh = [];
    }
  }

  const now = new Date();
  const company = me.company?.corporate_name ?? me.company?.brand_name ?? null;
  const sites = [...new Set([...haveSites, ...fresh.map((s) => s.site)])].sort((a, b) => a - b);
  if (existing) {
    await storeTokens(tx, deps, { tenantId, id: groupId }, tokens);
    await tx
      .update(meliAccountGroups)
      .set({
        name: me.nickname,
        email: me.email ?? null,
        siteCode: me.site_id,
        isCbt: me.site_id === "CBT",
        sites,
        lastModificationTime: now,
      })
      .where(and(eq(meliAccountGroups.tenantId, tenantId), eq(meliAccountGroups.id, groupId)));
    // Name and e-mail follow Mercado Libre; the seller's own settings (alias, prices, owner, switches) stay.
    await tx
      .update(meliAccounts)
      .set({ name: me.nickname, email: me.email ?? null, corp: company, lastModificationTime: now })
      .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.groupId, groupId)));
  } else {
    await tx.insert(meliAccountGroups).values({
      tenantId,
      id: groupId,
      ownerId,
      custId: me.id,
      siteCode: me.site_id,
      isCbt: me.site_id === "CBT",
      name: me.nickname,
      email: me.email ?? null,
      sites,
      ...encryptPair(deps.secrets, { tenantId, groupId }, { accessToken: tokens.access_token, refreshToken: tokens.refresh_token! }),
      tokenExpiresAt: sql`now() + make_interval(secs => ${tokens.expires_in})`,
      lastRefreshTime: now,
      creationTime: now,
      creatorId: pending.userId,
    });
  }
  if (fresh.length) {
    await tx.insert(meliAccounts).values(
      fresh.map((s, i) => ({
        tenantId,
        id: randomUUID(),
        groupId,
        ownerId,
        site: s.site,
        siteCode: s.siteCode,
        custId: s.custId,
        isCbt: s.isCbt,
        name: me.nickname,
        email: me.email ?? null,
        corp: company,
        isFull: s.isFull,
        currency: s.currency,
        sort: 0,
        // One moment per group, apart by a millisecond per site, so the newest-first list keeps the site order.
        creationTime: new Date(now.getTime() - i),
        creatorId: pending.userId,
      })),
    );
  }
  const names = (list: PlannedShop[]) => list.map((s) => MELI_SITES[s.site].name).join("、");
  const parts = [
    fresh.length ? `已新增 ${fresh.length} 个店铺（${names(fresh)}）` : "",
    existing ? `已更新店铺「${me.nickname}」的授权` : "",
    skipped ? `${skipped.why}，未新增：${names(skipped.shops)}` : "",
    "error" in planned ? planned.error : "",
  ].filter(Boolean);
  return {
    ok: true,
    message: `美客多账号「${me.nickname}」授权成功：${parts.join("；")}`,
    groupId,
    added: fresh.length,
    updated: have.length,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The result page: back to the console's shop list with the result in the URL (or, when the console opened the
// authorization in a window of its own, to that window by postMessage, then closing).

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const scriptJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

export function resultUrl(deps: AppDeps, o: AuthOutcome): string {
  const q = new URLSearchParams({ auth: o.ok ? "success" : "failed" });
  if (o.reason) q.set("reason", o.reason);
  if (o.groupId) q.set("groupId", o.groupId);
  if (o.added !== undefined) q.set("added", String(o.added));
  if (o.updated !== undefined) q.set("updated", String(o.updated));
  q.set("message", o.message);
  return `${deps.config.publicUrl}/#/shops/list?${q}`;
}

export async function sendResultPage(reply: FastifyReply, deps: AppDeps, o: AuthOutcome) {
  const url = resultUrl(deps, o);
  const origin = new URL(deps.config.publicUrl).origin;
  const nonce = randomBytes(16).toString("base64");
  const data = { type: "meli-auth", ok: o.ok, reason: o.reason ?? null, message: o.message, groupId: o.groupId ?? null, url };
  const title = o.ok ? "店铺授权成功" : "店铺授权失败";
  const html = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="3;url=${escapeHtml(url)}">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;background:#f5f5f5;margin:0}main{max-width:480px;margin:80px auto;background:#fff;border-radius:8px;padding:28px 32px;box-shadow:0 1px 3px rgba(0,0,0,.12)}h1{font-size:20px;margin:0 0 12px;color:${o.ok ? "#1a7f37" : "#c62828"}}p{line-height:1.6}</style>
</head>
<body><main>
<h1 id="result" data-ok="${o.ok}" data-reason="${escapeHtml(o.reason ?? "")}">${title}</h1>
<p id="message">${escapeHtml(o.message)}</p>
<p>正在返回店铺列表…… <a id="back" href="${escapeHtml(url)}">立即返回</a></p>
</main>
<script nonce="${nonce}">(function(){var r=${scriptJson(data)};try{if(window.opener&&window.opener!==window){window.opener.postMessage(r,${scriptJson(origin)});window.close();}}catch(e){}location.replace(r.url);})();</script>
</body>
</html>`;
  return (
    reply
      .code(200)
      .header("cache-control", "no-store")
      // The page's own address carries the code and state: never pass it on.
      .header("referrer-policy", "no-referrer")
      .header(
        "content-security-policy",
        `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'`,
      )
      .type("text/html; charset=utf-8")
      .send(html)
  );
}
