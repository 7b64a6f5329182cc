// Shop accounts and account groups (spec §7 MeliAccount). A main account sees and manages its tenant's shops, a
// sub-account the shops it owns (connected itself or was assigned). Another user's or tenant's shop answers 404 on
// single-shop calls and counts 0 on batch calls. accountGroups, countShopAccounts and meliDataCleaner are what the
// users area takes from here (passed in at assembly, server/deps.ts).
import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../db/client.ts";
import { meliAccountGroups, meliAccounts, users } from "../../db/schema.ts";
import { containsPattern } from "../../db/query.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, businessError, notFound } from "../../http/errors.ts";
import { MeliAuthStatus } from "../../integrations/mercadolibre/tokens.ts";
import type { SessionUser } from "../../http/session-user.ts";
import { heldModuleAuths } from "../module-auth/index.ts";
import { MeliAccountStatus } from "#shared/contract/enums.ts";
import type {
  AccountGroupResponse,
  AccountInfo,
  assignAccountInput,
  batchUpdateAccountInput,
  enableAccountInput,
  enableReceiveOrderQuery,
  getAccountsQuery,
  getMeliOneQuery,
  ShopAccount,
  updateAccountInput,
} from "#shared/contract/meli.ts";

type Who = Pick<SessionUser, "tenantId" | "id" | "isMainAccount">;

/** The shops a user may see: the tenant's for a main account, its own for a sub-account. */
function visibleShops(u: Who): SQL {
  const tenant = eq(meliAccounts.tenantId, u.tenantId);
  return u.isMainAccount ? tenant : and(tenant, eq(meliAccounts.ownerId, u.id))!;
}

/** The wire status: off by the seller, else needing authorization when the group's tokens were refused. */
const statusSql = sql<number>`case when not ${meliAccounts.isEnabled} then ${MeliAccountStatus.Disabled}
  when ${meliAccountGroups.authStatus} <> ${MeliAuthStatus.Authorized} then ${MeliAccountStatus.NeedsAuthorization}
  else ${MeliAccountStatus.Active} end`.mapWith(Number);

const columns = {
  account: meliAccounts,
  groupName: meliAccountGroups.name,
  authMessage: meliAccountGroups.authMessage,
  status: statusSql,
  ownerName: users.userName,
};

function selectShops(tx: Tx) {
  return tx
    .select(columns)
    .from(meliAccounts)
    .innerJoin(
      meliAccountGroups,
      and(eq(meliAccountGroups.tenantId, meliAccounts.tenantId), eq(meliAccountGroups.id, meliAccounts.groupId)),
    )
    .leftJoin(users, and(eq(users.tenantId, meliAccounts.tenantId), eq(users.id, meliAccounts.ownerId)));
}

type ShopRow = {
  account: typeof meliAccounts.$inferSelect;
  groupName: string;
  authMessage: string | null;
  status: number;
  ownerName: string | null;
};

const num = (v: string | null) => (v === null ? null : Number(v));

function toShopAccount(r: ShopRow): ShopAccount {
  const a = r.account;
  return {
    id: a.id,
    group: a.groupId,
    groupName: r.groupName,
    ownerId: a.ownerId,
    ownerName: r.ownerName,
    alias: a.alias,
    site: a.site,
    name: a.name,
    email: a.email,
    corp: a.corp,
    status: r.status,
    statusMessage: r.status === MeliAccountStatus.NeedsAuthorization ? (r.authMessage ?? "美客多授权已失效，请重新授权") : null,
    isCbt: a.isCbt,
    custId: a.custId,
    isFull: a.isFull,
    adjustRate: num(a.adjustRate),
    tinyPrice: num(a.tinyPrice),
    limitMinPrice: num(a.limitMinPrice),
    limitMaxPrice: num(a.limitMaxPrice),
    currency: a.currency,
    brand: a.brand,
    creationTime: a.creationTime.toISOString(),
    isRecieveOrder: a.isReceiveOrder,
    sort: a.sort,
    overPrice: num(a.overPrice),
    minMargin: num(a.minMargin),
    autoReprice: a.autoReprice,
    autoRepriceMaxPercent: num(a.autoRepriceMaxPercent),
    lastModificationTime: a.lastModificationTime?.toISOString() ?? null,
  };
}

const defaultOrder = [asc(meliAccounts.sort), desc(meliAccounts.creationTime), asc(meliAccounts.id)];

const sortColumns = {
  creationTime: meliAccounts.creationTime,
  lastModificationTime: meliAccounts.lastModificationTime,
  sort: meliAccounts.sort,
  alias: meliAccounts.alias,
  name: meliAccounts.name,
  site: meliAccounts.site,
  status: statusSql,
} as const;

function orderOf(sorting: string | undefined): SQL[] {
  if (!sorting) return defaultOrder;
  const [field, dir] = sorting.trim().split(/\s+/);
  const key = (Object.keys(sortColumns) as (keyof typeof sortColumns)[]).find((k) => k.toLowerCase() === field.toLowerCase());
  if (!key) return defaultOrder;
  const column = sortColumns[key];
  return [dir?.toLowerCase() === "desc" ? sql`${column} desc nulls last` : sql`${column} asc nulls last`, asc(meliAccounts.id)];
}

async function getAccounts(ctx: CallContext, q: z.output<typeof getAccountsQuery>) {
  const u = ctx.user!;
  const conditions: (SQL | undefined)[] = [visibleShops(u)];
  const keyword = q.KeyWord?.trim();
  if (keyword) {
    const like = containsPattern(keyword);
    conditions.push(
      or(
        ilike(meliAccounts.alias, like),
        ilike(meliAccounts.name, like),
        ilike(meliAccounts.email, like),
        ilike(meliAccounts.custId, like),
        ilike(meliAccountGroups.name, like),
      ),
    );
  }
  if (q.Site !== undefined) conditions.push(eq(meliAccounts.site, q.Site));
  if (q.Status !== undefined) conditions.push(sql`${statusSql} = ${q.Status}`);
  if (q.UserId) conditions.push(eq(meliAccounts.ownerId, q.UserId));
  const where = and(...conditions);
  const [{ n }] = await ctx.tx
    .select({ n: count() })
    .from(meliAccounts)
    .innerJoin(
      meliAccountGroups,
      and(eq(meliAccountGroups.tenantId, meliAccounts.tenantId), eq(meliAccountGroups.id, meliAccounts.groupId)),
    )
    .where(where);
  if (!n || q.SkipCount >= n) return { items: [], totalCount: Number(n) };
  const rows = await selectShops(ctx.tx)
    .where(where)
    .orderBy(...orderOf(q.Sorting))
    .limit(q.MaxResultCount)
    .offset(q.SkipCount);
  return { items: rows.map(toShopAccount), totalCount: Number(n) };
}

/** Every shop the caller sees (its own for a sub-account), in display order: the publish and order screens' pickers. */
async function getAllSelfShop(ctx: CallContext): Promise<ShopAccount[]> {
  const rows = await selectShops(ctx.tx)
    .where(visibleShops(ctx.user!))
    .orderBy(...defaultOrder)
    .limit(10_000);
  return rows.map(toShopAccount);
}

async function findShop(tx: Tx, u: Who, id: string, lock = false): Promise<ShopRow> {
  const q = selectShops(tx).where(and(visibleShops(u), eq(meliAccounts.id, id)));
  const [row] = lock ? await q.for("update", { of: meliAccounts }) : await q;
  if (!row) throw notFound("店铺不存在");
  return row;
}

async function getMeliOne(ctx: CallContext, q: z.output<typeof getMeliOneQuery>): Promise<ShopAccount> {
  return toShopAccount(await findShop(ctx.tx, ctx.user!, q.id));
}

/** Mercado Libre's seller ids of the caller's shops (to tell its own listings apart on Mercado Libre). */
async function getMeliShopIds(ctx: CallContext): Promise<string[]> {
  const rows = await ctx.tx
    .selectDistinct({ custId: meliAccounts.custId })
    .from(meliAccounts)
    .where(visibleShops(ctx.user!))
    .orderBy(asc(meliAccounts.custId));
  return rows.map((r) => r.custId);
}

/**
 * The account groups the caller sees, each with its shops and the users holding them, plus the cached shop accounts
 * (one per group) and the users who may hold shops: GetMeliAccGroup, and the user cache's accs and groups.
 */
export async function accountGroups(tx: Tx, u: Who): Promise<AccountGroupResponse> {
  const rows = await selectShops(tx)
    .where(visibleShops(u))
    .orderBy(asc(meliAccountGroups.creationTime), asc(meliAccountGroups.id), asc(meliAccounts.site));
  const groupIds = [...new Set(rows.map((r) => r.account.groupId))];
  const groupRows = groupIds.length
    ? await tx
        .select()
        .from(meliAccountGroups)
        .where(and(eq(meliAccountGroups.tenantId, u.tenantId), inArray(meliAccountGroups.id, groupIds)))
    : [];
  const byId = new Map(groupRows.map((g) => [g.id, g]));
  const groups: AccountGroupResponse["groups"] = [];
  for (const gid of groupIds) {
    const g = byId.get(gid);
    if (!g) continue;
    const accs = rows.filter((r) => r.account.groupId === gid).map(toShopAccount);
    const holders = new Map(accs.map((a) => [a.ownerId, a.ownerName ?? a.ownerId]));
    groups.push({
      groupId: g.id,
      name: g.name,
      alias: g.alias,
      brand: g.brand,
      sites: accs.map((a) => a.site).sort((x, y) => x - y),
      isCbt: g.isCbt,
      custId: g.custId,
      status: g.authStatus === MeliAuthStatus.Authorized ? MeliAccountStatus.Active : MeliAccountStatus.NeedsAuthorization,
      statusMessage: g.authStatus === MeliAuthStatus.Authorized ? null : (g.authMessage ?? "美客多授权已失效，请重新授权"),
      subUsers: [...holders].map(([id, name]) => ({ id, name })),
      accs,
    });
  }
  const subUsers = u.isMainAccount
    ? await tx
        .select({ id: users.id, name: users.userName })
        .from(users)
        .where(and(eq(users.tenantId, u.tenantId), eq(users.isDeleted, false)))
        .orderBy(asc(users.creationTime))
    : await tx
        .select({ id: users.id, name: users.userName })
        .from(users)
        .where(and(eq(users.tenantId, u.tenantId), eq(users.id, u.id)));
  return {
    subUsers,
    accs: groups.map((g) => ({ groupId: g.groupId, name: g.name, alias: g.alias, brand: g.brand })),
    // The module authorizations the tenant holds in force (the authorization centre, issue 19).
    moduleAuths: await heldModuleAuths(tx, u.tenantId),
    groups,
  };
}

/** Shop accounts a user counts toward limits and summaries: the tenant's for a main account, its own otherwise. */
export async function countShopAccounts(tx: Tx, u: Who): Promise<number> {
  const [{ n }] = await tx.select({ n: count() }).from(meliAccounts).where(visibleShops(u));
  return Number(n);
}

// ---------------------------------------------------------------------------------------------------------------
// Edits.

const infoColumns = {
  alias: "alias",
  tinyPrice: "tinyPrice",
  adjustRate: "adjustRate",
  limitMinPrice: "limitMinPrice",
  limitMaxPrice: "limitMaxPrice",
  brand: "brand",
  sort: "sort",
  overPrice: "overPrice",
  minMargin: "minMargin",
  autoReprice: "autoReprice",
  autoRepriceMaxPercent: "autoRepriceMaxPercent",
} as const satisfies Record<keyof AccountInfo, keyof typeof meliAccounts.$inferInsert>;

/** The columns an info object sets: fields left out keep their value, null clears, blank text clears too. */
function changesOf(info: AccountInfo) {
  const set: Partial<typeof meliAccounts.$inferInsert> = {};
  for (const [field, column] of Object.entries(infoColumns) as [keyof AccountInfo, (typeof infoColumns)[keyof AccountInfo]][]) {
    const v = info[field];
    if (v === undefined) continue;
    if (typeof v === "string") (set as Record<string, unknown>)[column] = v === "" ? null : v;
    else if (typeof v === "number" && column !== "sort") (set as Record<string, unknown>)[column] = String(v);
    else (set as Record<string, unknown>)[column] = v;
  }
  return set;
}

/** The price limits after the change must still make a range. */
function checkLimits(current: { limitMinPrice: string | null; limitMaxPrice: string | null }, info: AccountInfo, name: string) {
  const min = info.limitMinPrice !== undefined ? info.limitMinPrice : num(current.limitMinPrice);
  const max = info.limitMaxPrice !== undefined ? info.limitMaxPrice : num(current.limitMaxPrice);
  if (min !== null && max !== null && min > max) {
    throw badRequest(`店铺「${name}」的最低限价（${min}）不能高于最高限价（${max}）`);
  }
}

const touched = (u: Who) => ({ lastModificationTime: new Date(), lastModifierId: u.id, concurrencyStamp: randomUUID() });

/** Fields of a shop's pricing rule: changing one moves its listings' margins (issue 32). */
const ruleFields = [
  "tinyPrice",
  "adjustRate",
  "limitMinPrice",
  "limitMaxPrice",
  "overPrice",
  "minMargin",
  "autoReprice",
  "autoRepriceMaxPercent",
] as const;
const changesRule = (info: AccountInfo) => ruleFields.some((f) => info[f] !== undefined);
/** Told of shops whose pricing rule was saved, in the call's transaction (the listings' margin recompute). */
type RuleChanged = (tx: Tx, tenantId: string, accountIds: string[]) => Promise<unknown>;

async function updateAccount(ctx: CallContext, body: z.output<typeof updateAccountInput>, ruleChanged?: RuleChanged): Promise<ShopAccount> {
  const u = ctx.user!;
  const row = await findShop(ctx.tx, u, body.id, true);
  checkLimits(row.account, body.info, row.account.alias ?? row.account.name);
  const set = changesOf(body.info);
  if (Object.keys(set).length) {
    await ctx.tx
      .update(meliAccounts)
      .set({ ...set, ...touched(u) })
      .where(and(eq(meliAccounts.tenantId, u.tenantId), eq(meliAccounts.id, body.id)));
    if (ruleChanged && changesRule(body.info)) await ruleChanged(ctx.tx, u.tenantId, [body.id]);
  }
  return toShopAccount(await findShop(ctx.tx, u, body.id));
}

async function batchUpdateAccount(ctx: CallContext, body: z.output<typeof batchUpdateAccountInput>, ruleChanged?: RuleChanged) {
  const u = ctx.user!;
  const rows = await ctx.tx
    .select({
      id: meliAccounts.id,
      name: meliAccounts.name,
      alias: meliAccounts.alias,
      limitMinPrice: meliAccounts.limitMinPrice,
      limitMaxPrice: meliAccounts.limitMaxPrice,
    })
    .from(meliAccounts)
    .where(and(visibleShops(u), inArray(meliAccounts.id, body.ids)))
    .for("update");
  for (const r of rows) checkLimits(r, body.info, r.alias ?? r.name);
  const set = changesOf(body.info);
  if (!rows.length || !Object.keys(set).length) return { count: 0 };
  const updated = await ctx.tx
    .update(meliAccounts)
    .set({ ...set, ...touched(u) })
    .where(
      and(
        eq(meliAccounts.tenantId, u.tenantId),
        inArray(
          meliAccounts.id,
          rows.map((r) => r.id),
        ),
      ),
    )
    .returning({ id: meliAccounts.id });
  if (ruleChanged && updated.length && changesRule(body.info))
    await ruleChanged(
      ctx.tx,
      u.tenantId,
      updated.map((r) => r.id),
    );
  return { count: updated.length };
}

async function enableAccount(ctx: CallContext, body: z.output<typeof enableAccountInput>) {
  const u = ctx.user!;
  const updated = await ctx.tx
    .update(meliAccounts)
    .set({ isEnabled: body.enable, ...touched(u) })
    .where(and(visibleShops(u), inArray(meliAccounts.id, body.ids), ne(meliAccounts.isEnabled, body.enable)))
    .returning({ id: meliAccounts.id });
  return { count: updated.length };
}

/** Moves shops to a user of the tenant (main account only); that user's limitMeliAccount still holds afterwards. */
async function assignAccount(ctx: CallContext, body: z.output<typeof assignAccountInput>) {
  const u = ctx.user!;
  // The target's row is the lock that serializes changes to its shop count (as connecting a shop takes it too).
  const [target] = await ctx.tx
    .select({ id: users.id, userName: users.userName, limit: users.limitMeliAccount, isActive: users.isActive, isDeleted: users.isDeleted })
    .from(users)
    .where(and(eq(users.tenantId, u.tenantId), eq(users.id, body.userId)))
    .for("update");
  if (!target || target.isDeleted || !target.isActive) throw notFound("用户不存在或已停用");
  const moved = await ctx.tx
    .update(meliAccounts)
    .set({ ownerId: target.id, ...touched(u) })
    .where(and(eq(meliAccounts.tenantId, u.tenantId), inArray(meliAccounts.id, body.ids), ne(meliAccounts.ownerId, target.id)))
    .returning({ id: meliAccounts.id });
  if (moved.length && target.limit !== null) {
    const owned = await countShopAccounts(ctx.tx, { tenantId: u.tenantId, id: target.id, isMainAccount: false });
    if (owned > target.limit) {
      throw businessError(
        `用户「${target.userName}」的店铺数量将超过上限（${target.limit} 个，分配后为 ${owned} 个），请先提高其店铺数上限`,
        "Meli.ShopLimitReached",
      );
    }
  }
  return { count: moved.length };
}

async function enableReceiveOrder(ctx: CallContext, q: z.output<typeof enableReceiveOrderQuery>): Promise<ShopAccount> {
  const u = ctx.user!;
  const row = await findShop(ctx.tx, u, q.Id, true);
  if (row.account.isReceiveOrder !== q.Enable) {
    await ctx.tx
      .update(meliAccounts)
      .set({ isReceiveOrder: q.Enable, ...touched(u) })
      .where(and(eq(meliAccounts.tenantId, u.tenantId), eq(meliAccounts.id, q.Id)));
  }
  return toShopAccount(await findShop(ctx.tx, u, q.Id));
}

// ---------------------------------------------------------------------------------------------------------------
// What the users area takes from here.

/** When a sub-account is cleared (ClearSubAccountInfo), its shops go back to the main account: they stay connected. */
export const meliDataCleaner = {
  label: "店铺（已转回主账号）",
  async clear(tx: Tx, tenantId: string, userId: string): Promise<number> {
    const [main] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.isMainAccount, true)))
      .limit(1);
    if (!main || main.id === userId) return 0;
    const rows = await tx
      .update(meliAccounts)
      .set({ ownerId: main.id, lastModificationTime: new Date(), lastModifierId: main.id, concurrencyStamp: randomUUID() })
      .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.ownerId, userId)))
      .returning({ id: meliAccounts.id });
    return rows.length;
  },
};

export type ShopAccountService = ReturnType<typeof createShopAccountService>;

/** The MeliAccount calls: they need nothing beyond the call's transaction and user. */
export function createShopAccountService() {
  return {
    getAccounts,
    getAllSelfShop,
    getMeliOne,
    getAccountGroups: (ctx: CallContext) => accountGroups(ctx.tx, ctx.user!),
    getMeliShopIds,
    updateAccount,
    batchUpdateAccount,
    enableAccount,
    assignAccount,
    enableReceiveOrder,
  };
}
