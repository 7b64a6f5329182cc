// Connecting a shop (spec §7 Meli GetAuthUrl, AuthBack). GetAuthUrl records a pending authorization (its row holds the
// PKCE verifier) and answers Mercado Libre's authorization page with a signed state (auth-state.ts). AuthBack spends
// the state in its transaction, then (after commit, outside any transaction) exchanges the code, reads the seller,
// provisions its shops (shop-provisioning.ts) and answers a page leading back to /#/shops/list (auth-result-page.ts).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import { HOST_TENANT_ID, meliAuthStates, users } from "../../db/schema.ts";
import { setScope } from "../../db/scope.ts";
import { AfterCommit, type CallContext } from "../../http/calls.ts";
import { forbidden, notFound } from "../../http/errors.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { MELI_SITES, type authBackQuery, type getAuthUrlQuery, type MeliSiteNumber } from "#shared/contract/meli.ts";
import { authFailure, sendResultPage, type AuthOutcome } from "./auth-result-page.ts";
import { readState, signState, STATE_TTL_MS, stateKeyFrom } from "./auth-state.ts";
import { createShopProvisioning, type PendingAuthorization } from "./shop-provisioning.ts";
import { getMarketplaceUser, getMe } from "../../integrations/mercadolibre/endpoints/users.ts";

const authBackPath = "/api/Meli/AuthBack";

/** The sandbox's consent page pre-selects the site (and a global seller's marketplaces) the seller chose here. */
function sandboxHints(sites: number[]): Record<string, string> {
  const locals = sites.filter((s) => s !== 5).map((s) => MELI_SITES[s as MeliSiteNumber].meli);
  const site = sites.includes(5) || locals.length > 1 ? "CBT" : (locals[0] ?? "MLM");
  return { site, ...(site === "CBT" && locals.length ? { marketplaces: locals.join(",") } : {}) };
}

export type ShopAuthorizationService = ReturnType<typeof createShopAuthorizationService>;

export function createShopAuthorizationService({
  config,
  log,
  database,
  meli,
}: {
  config: Pick<Config, "publicUrl" | "tokenSigningKey" | "meliSandbox">;
  log: FastifyBaseLogger;
  database: Database;
  meli: MeliClient;
}) {
  const stateKey = stateKeyFrom(config.tokenSigningKey);
  const redirectUri = `${config.publicUrl}${authBackPath}`;
  const provisioning = createShopProvisioning({ database, tokens: meli.tokens });

  async function getAuthUrl(ctx: CallContext, q: z.output<typeof getAuthUrlQuery>): Promise<string> {
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
    const state = signState(stateKey, { v: 1, t: u.tenantId, u: u.id, o: ownerId, s: sites, n: nonce, e: expiresAt });
    return meli.authorizationUrl({
      redirectUri,
      state,
      codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
      extra: config.meliSandbox ? sandboxHints(sites) : undefined,
    });
  }

  async function authBack(ctx: CallContext, q: z.output<typeof authBackQuery>): Promise<AfterCommit> {
    const answer = (outcome: AuthOutcome) => new AfterCommit((reply) => sendResultPage(reply, config.publicUrl, outcome));
    const read = readState(stateKey, q.state);
    if (!read.ok) {
      return answer(
        read.reason === "expired"
          ? authFailure("expired", "授权链接已过期（10 分钟内有效），请回到店铺列表重新授权")
          : authFailure("forged", "授权链接无效，请回到店铺列表重新授权"),
      );
    }
    const p = read.payload;
    // The seller has no token of ours here: the signed state names the tenant; its row is spent in this transaction.
    await setScope(ctx.tx, { tenantId: p.t });
    const [pending] = await ctx.tx
      .delete(meliAuthStates)
      .where(and(eq(meliAuthStates.tenantId, p.t), eq(meliAuthStates.id, p.n)))
      .returning();
    if (!pending) return answer(authFailure("used", "该授权链接已使用过，请回到店铺列表重新授权"));
    if (q.error) {
      return answer(
        q.error === "access_denied"
          ? authFailure("denied", "您已在美客多取消授权，店铺未绑定")
          : authFailure("denied", `美客多授权未完成：${q.error_description ?? q.error}`),
      );
    }
    if (!q.code) return answer(authFailure("denied", "美客多未返回授权码，请重新授权"));
    const code = q.code;
    return new AfterCommit(async (reply) => {
      let outcome: AuthOutcome;
      try {
        outcome = await connect(pending, code);
      } catch (err) {
        if (err instanceof MeliApiError) {
          log.warn({ err: { message: err.message, meli: err.meli } }, "shop authorization refused");
          outcome = authFailure(err.kind === "invalid-code" ? "exchange" : "error", err.message);
        } else {
          log.error({ err }, "shop authorization failed");
          outcome = authFailure("error", "绑定店铺时发生错误，请稍后重试");
        }
      }
      await sendResultPage(reply, config.publicUrl, outcome);
    });
  }

  /** The code for a pair, the seller read with it, then its shops. */
  async function connect(pending: PendingAuthorization, code: string): Promise<AuthOutcome> {
    const tokens = await meli.exchangeCode({ code, redirectUri, codeVerifier: pending.codeVerifier });
    if (!tokens.refresh_token) {
      return authFailure("exchange", "美客多授权未包含离线访问权限（offline_access），请在美客多应用设置中开启后重新授权");
    }
    const session = meli.withToken(tokens.access_token, tokens.user_id);
    const me = await getMe(session);
    const market = me.site_id === "CBT" ? await getMarketplaceUser(session, me.id) : null;
    return provisioning.provision({ pending, tokens, me, market });
  }

  return { getAuthUrl, authBack };
}
