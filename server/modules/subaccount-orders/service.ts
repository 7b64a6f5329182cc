// Sub-account packages (spec §7 SubAccountOrder, Hosted GetHostSubAccountOrders): the host's packages, a tenant's
// purchases paid from its wallet through the ledger, and the host's list of every purchase. A purchase is one
// transaction: the ledger debit (refused when the balance is short), the purchase row and the main account's expiry.
import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, gt, ilike, lte, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../db/client.ts";
import { containsPattern, orderBy, pageOf } from "../../db/query.ts";
import { subAccountOrders, subAccountPackages, tenants, users } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError, notFound } from "../../http/errors.ts";
import { SubAccountType, WalletLogType } from "#shared/contract/enums.ts";
import type {
  getHostSubAccountOrdersQuery,
  getMySubAccOrderQuery,
  HostSubAccOrderPage,
  MySubAccOrderPage,
  OrderSubAccResult,
  saveSubAccPackageInput,
  SubAccAllowance,
  SubAccOrder,
  SubAccPackage,
} from "#shared/contract/subaccount-orders.ts";
import { fenToYuan, yuanToFen } from "#shared/contract/wallet.ts";
import { postLedgerEntry, walletBalanceFen, type PrepareCommission } from "../wallet/index.ts";
import { subAccountAllowance } from "./allowance.ts";

type PackageRow = typeof subAccountPackages.$inferSelect;
type OrderRow = typeof subAccountOrders.$inferSelect;

const DAY_MS = 86_400_000;

function toPackage(p: PackageRow): SubAccPackage {
  return {
    id: p.id,
    name: p.name,
    count: p.count,
    days: p.days,
    price: fenToYuan(p.priceFen),
    isActive: p.isActive,
    sort: p.sort,
    creationTime: p.creationTime.toISOString(),
  };
}

function toOrder(o: OrderRow, now: Date): SubAccOrder {
  return {
    id: o.id,
    creationTime: o.creationTime.toISOString(),
    type: o.type,
    count: o.count,
    moeny: fenToYuan(o.priceFen),
    packageId: o.packageId,
    packageName: o.packageName,
    days: o.days,
    expireTime: o.expireTime.toISOString(),
    isActive: o.expireTime > now,
  };
}

async function allowanceOf(tx: Tx, tenantId: string): Promise<SubAccAllowance> {
  const a = await subAccountAllowance(tx, tenantId);
  return {
    freeCount: a.freeCount,
    purchasedCount: a.purchasedCount,
    limit: a.limit,
    activeSubAccounts: a.activeSubAccounts,
    expireTime: a.expireTime ? a.expireTime.toISOString() : null,
    balance: fenToYuan(await walletBalanceFen(tx, tenantId)),
  };
}

/** prepareCommission: the recommending agency's commission on a purchase (the agency's, handed over by deps.ts). */
export function createSubAccountOrderService({ prepareCommission }: { prepareCommission: PrepareCommission }) {
  /** Tenants see the packages on offer; the host sees withdrawn ones too. */
  async function getPackages(ctx: CallContext): Promise<SubAccPackage[]> {
    const rows = await ctx.tx
      .select()
      .from(subAccountPackages)
      .where(ctx.user?.isHost ? undefined : eq(subAccountPackages.isActive, true))
      .orderBy(asc(subAccountPackages.sort), asc(subAccountPackages.creationTime), asc(subAccountPackages.id));
    return rows.map(toPackage);
  }

  /** The host creates a package (no id) or edits one; purchases keep what they bought. */
  async function savePackage(ctx: CallContext, body: z.output<typeof saveSubAccPackageInput>): Promise<SubAccPackage> {
    const values = {
      name: body.name,
      count: body.count,
      days: body.days,
      priceFen: yuanToFen(body.price)!,
      isActive: body.isActive,
      sort: body.sort,
    };
    if (!body.id) {
      const [row] = await ctx.tx
        .insert(subAccountPackages)
        .values({ id: randomUUID(), ...values, creatorId: ctx.user!.id })
        .returning();
      return toPackage(row);
    }
    const [row] = await ctx.tx
      .update(subAccountPackages)
      .set({ ...values, lastModificationTime: new Date(), lastModifierId: ctx.user!.id })
      .where(eq(subAccountPackages.id, body.id))
      .returning();
    if (!row) throw notFound("套餐不存在");
    return toPackage(row);
  }

  const mySortColumns = {
    creationTime: subAccountOrders.creationTime,
    expireTime: subAccountOrders.expireTime,
    moeny: subAccountOrders.priceFen,
  };

  async function getMyOrders(ctx: CallContext, q: z.output<typeof getMySubAccOrderQuery>): Promise<MySubAccOrderPage> {
    const tenantId = ctx.user!.tenantId;
    const now = new Date();
    const page = await pageOf(
      ctx.tx,
      subAccountOrders,
      eq(subAccountOrders.tenantId, tenantId),
      {
        skip: q.SkipCount,
        take: q.MaxResultCount,
        order: [orderBy(q.Sorting, mySortColumns, desc(subAccountOrders.creationTime)), desc(subAccountOrders.id)],
      },
      (o) => toOrder(o, now),
    );
    return { ...page, allowance: await allowanceOf(ctx.tx, tenantId) };
  }

  /**
   * Buys a package: the ledger debit first (it locks the wallet and refuses a short balance, and the whole call rolls
   * back with it), then the purchase and the main account's sub-account type and expiry, all in the call's transaction.
   */
  async function order(ctx: CallContext, packageId: string): Promise<OrderSubAccResult> {
    const u = ctx.user!;
    const [pkg] = await ctx.tx
      .select()
      .from(subAccountPackages)
      .where(and(eq(subAccountPackages.id, packageId), eq(subAccountPackages.isActive, true)))
      .limit(1);
    if (!pkg) throw notFound("套餐不存在或已下架");
    // Without a free number the host set there is no limit: a package would take the money and change nothing.
    if ((await subAccountAllowance(ctx.tx, u.tenantId)).limit === null)
      throw businessError("平台目前不限制子账号数量，购买套餐不会增加可启用的子账号，无需购买", "SubAccountPackageChangesNothing");
    const now = new Date();
    const id = randomUUID();
    const commission = await prepareCommission(ctx.tx, u.tenantId);
    const debit = await postLedgerEntry(ctx.tx, {
      tenantId: u.tenantId,
      type: WalletLogType.Purchase,
      amountFen: -pkg.priceFen,
      userId: u.id,
      remark: `购买子账号套餐：${pkg.name}（${pkg.count} 个子账号 / ${pkg.days} 天）`,
      refId: id,
    });
    // The recommending agency's commission, in this transaction (agency/commission.ts).
    await commission.credit({ purchaseFen: pkg.priceFen, purchaseEntryId: debit.id, what: `购买子账号套餐：${pkg.name}` });
    const [row] = await ctx.tx
      .insert(subAccountOrders)
      .values({
        tenantId: u.tenantId,
        id,
        packageId: pkg.id,
        packageName: pkg.name,
        type: SubAccountType.Package,
        count: pkg.count,
        days: pkg.days,
        priceFen: pkg.priceFen,
        expireTime: new Date(now.getTime() + pkg.days * DAY_MS),
        creationTime: now,
        creatorId: u.id,
      })
      .returning();
    // The tenant's summary (GetMyInfo: subAccountType, subAccountExpireTime) is the main account's: the latest expiry.
    await ctx.tx
      .update(users)
      .set({
        subAccountType: SubAccountType.Package,
        subAccountExpireTime: sql`greatest(${users.subAccountExpireTime}, ${row.expireTime.toISOString()}::timestamptz)`,
      })
      .where(and(eq(users.tenantId, u.tenantId), eq(users.isMainAccount, true)));
    return { order: toOrder(row, now), allowance: await allowanceOf(ctx.tx, u.tenantId) };
  }

  const hostSortColumns = {
    creationTime: subAccountOrders.creationTime,
    expireTime: subAccountOrders.expireTime,
    moeny: subAccountOrders.priceFen,
    inviteTenantName: tenants.name,
  };

  /** Every tenant's purchases (host; runs with the tenant policy opted out). */
  async function getHostOrders(ctx: CallContext, q: z.output<typeof getHostSubAccountOrdersQuery>): Promise<HostSubAccOrderPage> {
    const now = new Date();
    const conditions: SQL[] = [];
    if (q.KeyWord) {
      const like = containsPattern(q.KeyWord);
      conditions.push(or(ilike(tenants.name, like), ilike(subAccountOrders.packageName, like))!);
    }
    if (q.Type !== undefined) conditions.push(eq(subAccountOrders.type, q.Type));
    if (q.IsActive !== undefined) {
      conditions.push(q.IsActive ? gt(subAccountOrders.expireTime, now) : lte(subAccountOrders.expireTime, now));
    }
    const where = conditions.length ? and(...conditions) : undefined;
    const [{ n }] = await ctx.tx
      .select({ n: count() })
      .from(subAccountOrders)
      .innerJoin(tenants, eq(tenants.id, subAccountOrders.tenantId))
      .where(where);
    if (!n || q.SkipCount >= n) return { items: [], totalCount: Number(n) };
    const rows = await ctx.tx
      .select({ o: subAccountOrders, tenantName: tenants.name })
      .from(subAccountOrders)
      .innerJoin(tenants, eq(tenants.id, subAccountOrders.tenantId))
      .where(where)
      .orderBy(orderBy(q.Sorting, hostSortColumns, desc(subAccountOrders.creationTime)), desc(subAccountOrders.id))
      .limit(q.MaxResultCount)
      .offset(q.SkipCount);
    return {
      totalCount: Number(n),
      items: rows.map(({ o, tenantName }) => ({
        id: o.id,
        tenantId: o.tenantId,
        inviteTenantName: tenantName,
        subAccountType: o.type,
        isActive: o.expireTime > now,
        expireTime: o.expireTime.toISOString(),
        creationTime: o.creationTime.toISOString(),
        remark: `${o.count} 个子账号 / ${o.days} 天`,
        packageName: o.packageName,
        count: o.count,
        days: o.days,
        moeny: fenToYuan(o.priceFen),
        tenantName,
        type: o.type,
        expireDate: o.expireTime.toISOString(),
      })),
    };
  }

  return { getPackages, savePackage, getMyOrders, order, getHostOrders };
}

export type SubAccountOrderService = ReturnType<typeof createSubAccountOrderService>;
