// Shop provisioning: after the seller granted access, creates or refreshes its account group and shop accounts (a
// global seller: one per marketplace site) from what Mercado Libre says of the seller, within the owner's shop limit.
// The token pair is written by the adapter's token store, in the same transaction.
import { randomUUID } from "node:crypto";
import { and, count, eq, ne } from "drizzle-orm";
import type { Database, Tx } from "../../db/client.ts";
import { meliAccountGroups, meliAccounts, meliAuthStates, tenants, users } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import type { TokenStore } from "../../integrations/mercadolibre/tokens.ts";
import type { MarketplaceUser, MeliUser } from "../../integrations/mercadolibre/endpoints/users.ts";
import type { TokenAnswer } from "../../integrations/mercadolibre/types.ts";
import { MELI_SITES, siteNumberOf, type MeliSiteNumber } from "#shared/contract/meli.ts";
import { authFailure, type AuthOutcome } from "./auth-result-page.ts";

const LOCAL_SITES = [1, 2, 3, 4] as const;

/** The pending authorization AuthBack spent: who asked, for whom, which sites. */
export type PendingAuthorization = typeof meliAuthStates.$inferSelect;

export type GrantedSeller = { pending: PendingAuthorization; tokens: TokenAnswer; me: MeliUser; market: MarketplaceUser | null };

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

export function createShopProvisioning({ database, tokens }: { database: Database; tokens: TokenStore }) {
  /** Provisions the seller's shops in the pending authorization's tenant; runs outside any transaction. */
  async function provision(granted: GrantedSeller): Promise<AuthOutcome> {
    const { pending, me } = granted;
    const tenantId = pending.tenantId;
    // One seller, one tenant: another tenant's shop keeps working with the pair just issued (the exchange has spent the
    // pair it held), and this tenant is refused.
    const elsewhere = await inScope(database.db, hostAllScope, async (tx) => {
      const [g] = await tx
        .select({ tenantId: meliAccountGroups.tenantId, id: meliAccountGroups.id })
        .from(meliAccountGroups)
        .where(and(eq(meliAccountGroups.custId, me.id), ne(meliAccountGroups.tenantId, tenantId)))
        .limit(1);
      return g ?? null;
    });
    if (elsewhere) {
      await inScope(database.db, { tenantId: elsewhere.tenantId }, (tx) =>
        tokens.grant(tx, { tenantId: elsewhere.tenantId, groupId: elsewhere.id }, granted.tokens),
      );
      return authFailure("other-tenant", `美客多账号「${me.nickname}」已绑定在其他公司，不能重复绑定；如需转移，请联系平台管理员`);
    }
    return inScope(database.db, { tenantId }, (tx) => storeShops(tx, granted));
  }

  async function storeShops(tx: Tx, { pending, tokens: answer, me, market }: GrantedSeller): Promise<AuthOutcome> {
    const { tenantId, ownerId } = pending;
    const planned = planShops(me, market, pending.sites as number[]);
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
    if (!existing && "error" in planned) return authFailure("site", planned.error);
    if (!existing && ownerProblem) return authFailure("owner", ownerProblem);
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
        if (!existing) return authFailure("limit", `${limitText}，请解绑不用的店铺或联系主账号提高上限`);
        skipped = { why: `店铺数量已达上限（${limit} 个）`, shops: fresh };
        fresh = [];
      }
    }

    const now = new Date();
    const company = me.company?.corporate_name ?? me.company?.brand_name ?? null;
    const sites = [...new Set([...haveSites, ...fresh.map((s) => s.site)])].sort((a, b) => a - b);
    const ref = { tenantId, groupId };
    if (existing) {
      await tokens.grant(tx, ref, answer);
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
      await tokens.grant(tx, ref, answer, {
        ownerId,
        custId: me.id,
        siteCode: me.site_id,
        isCbt: me.site_id === "CBT",
        name: me.nickname,
        email: me.email ?? null,
        sites,
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

  return { provision };
}
