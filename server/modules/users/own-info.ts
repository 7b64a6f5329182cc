// The caller's own info (GetUserInfo, GetMyInfo) and init cache (GetUserInitCache), and the account summary the host's
// tenant calls also show.
import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { HOST_TENANT_ID, tenants, type users } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import type { SessionTenant } from "../../http/session-user.ts";
import type { TenantAccountSummary, UserInfo, UserInitCache } from "#shared/contract/users.ts";
import type { ShopFigures } from "./extensions.ts";

type UserRow = typeof users.$inferSelect;
// The session check's raw rows hold timestamps as text (http/session-user.ts), the query builder's as Date.
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const wireTenantId = (tenantId: string) => (tenantId === HOST_TENANT_ID ? null : tenantId);

function roleList(u: Pick<UserRow, "isHost" | "isMainAccount">): string[] {
  return u.isHost ? ["host"] : u.isMainAccount ? ["super"] : ["sub"];
}

async function getUserInfo(ctx: CallContext): Promise<UserInfo> {
  const u = ctx.user!;
  return {
    id: u.id,
    userName: u.userName,
    name: u.name,
    email: u.email,
    tenantId: wireTenantId(u.tenantId),
    tenantName: u.tenantName,
    isMainAccount: u.isMainAccount,
    isHost: u.isHost,
    roleList: roleList(u),
    isShowPageCrwal: u.isShowPageCrwal,
    limitMeliAccount: u.limitMeliAccount,
    collectCount: u.collectCount,
    productCount: u.productCount,
  };
}

/** The shop figures are the only thing of another area these calls read. */
export function createOwnInfo({ shops }: { shops: ShopFigures }) {
  /** The tenant account summary of one user (spec §3); also used by the host's tenant calls. */
  async function accountSummary(tx: Tx, u: UserRow, knownTenant?: SessionTenant | null): Promise<TenantAccountSummary> {
    const tenant =
      u.tenantId === HOST_TENANT_ID
        ? null
        : (knownTenant ?? (await tx.select().from(tenants).where(eq(tenants.id, u.tenantId)))[0] ?? null);
    return {
      id: u.id,
      userName: u.userName,
      name: u.name,
      tenantId: wireTenantId(u.tenantId),
      tenantName: tenant?.name ?? null,
      email: u.email,
      phoneNumber: u.phoneNumber,
      phoneNumberConfirmed: u.phoneNumberConfirmed,
      isActive: u.isActive,
      lockoutEnabled: u.lockoutEnabled,
      lockoutEnd: iso(u.lockoutEnd),
      isMainAccount: u.isMainAccount,
      subAccountType: u.subAccountType,
      subAccountExpireTime: iso(u.subAccountExpireTime),
      balance: tenant?.balance ?? "0",
      subAccountCount: u.isMainAccount ? (tenant?.subAccountCount ?? 0) : 0,
      isHost: u.isHost,
      accountExpireTime: iso(tenant?.accountExpireTime),
      accountPaymentType: tenant?.accountPaymentType ?? 1,
      // The tenant's shop accounts for a main account, its own for a sub-account (none for the host).
      meliAccountCount: u.tenantId === HOST_TENANT_ID ? 0 : await shops.countShopAccounts(tx, u),
    };
  }

  function getMyInfo(ctx: CallContext) {
    return accountSummary(ctx.tx, ctx.user!, ctx.user!.tenant);
  }

  async function getUserInitCache(ctx: CallContext): Promise<UserInitCache> {
    const u = ctx.user!;
    const groups = await shops.accountGroups(ctx.tx, u);
    const subUsers = u.isMainAccount ? groups.subUsers : [{ id: u.id, name: u.userName }];
    return {
      accs: groups.accs,
      subUsers,
      moduleAuths: groups.moduleAuths,
      groups: groups.groups.map(({ groupId, name, alias, brand, sites }) => ({ groupId, name, alias, brand, sites })),
    };
  }

  return { accountSummary, getMyInfo, getUserInitCache, getUserInfo };
}
