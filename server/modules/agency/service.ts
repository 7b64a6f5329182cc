// Agencies (spec §7 Agency; §3 Tenant plan/recommend row, Recommend set). A tenant's recommender is kept on its tenants
// row (recommend_tenant_id, recommend_type, recommend_time, and agency_remark, the agency's note): one recommender per
// tenant, set by the host. The agency's calls read the tenants that name it and its own ledger's commission entries
// (wallet_logs under its tenant's row-level security), each query filtered by the caller's tenant.
import { and, asc, count, desc, eq, gte, ilike, isNotNull, lt, ne, or, sql, sum } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf, type Tx } from "../../db/client.ts";
import { HOST_TENANT_ID, tenants, walletLogs } from "../../db/schema.ts";
import { containsPattern, orderBy } from "../../db/query.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { WalletLogType } from "#shared/contract/enums.ts";
import { fenToYuan } from "#shared/contract/wallet.ts";
import type {
  AgencyTransactionPage,
  editAgencyRemarkInput,
  getAgencyTransactionRecordQuery,
  getInviteRecordsQuery,
  InviteRecordPage,
  RecommendInfo,
  setRecommendInput,
} from "#shared/contract/agency.ts";
import { prepareCommission } from "./commission.ts";

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const num = (v: unknown) => Number(v ?? 0);

/** The commission fen an agency earned, per recommended tenant (the agency's own ledger). */
function commissionsBy(tx: Tx, agencyId: string) {
  return tx
    .select({ inviteTenantId: walletLogs.inviteTenantId, fen: sum(walletLogs.amountFen).as("fen") })
    .from(walletLogs)
    .where(and(eq(walletLogs.tenantId, agencyId), eq(walletLogs.type, WalletLogType.Commission), isNotNull(walletLogs.inviteTenantId)))
    .groupBy(walletLogs.inviteTenantId)
    .as("commissions");
}

/** GetInviteRecords: the tenants that name the caller's tenant as their recommender, with the commission each earned it. */
async function getInviteRecords(ctx: CallContext, q: z.output<typeof getInviteRecordsQuery>): Promise<InviteRecordPage> {
  const agencyId = ctx.tenantId;
  const search = q.Search ? containsPattern(q.Search) : null;
  const where = and(
    eq(tenants.recommendTenantId, agencyId),
    search ? or(ilike(tenants.name, search), ilike(tenants.agencyRemark, search)) : undefined,
    q.IsActive !== undefined ? eq(tenants.isActive, q.IsActive) : undefined,
  );
  const [{ n }] = await ctx.tx.select({ n: count() }).from(tenants).where(where);
  const [total] = await ctx.tx
    .select({ fen: sum(walletLogs.amountFen) })
    .from(walletLogs)
    .where(and(eq(walletLogs.tenantId, agencyId), eq(walletLogs.type, WalletLogType.Commission)));
  const totalCommission = fenToYuan(num(total?.fen));
  if (!n || q.SkipCount >= n) return { items: [], totalCount: n, totalCommission };
  const [agency] = await ctx.tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, agencyId));
  const c = commissionsBy(ctx.tx, agencyId);
  const earned = sql<string>`coalesce(${c.fen}, 0)`;
  const rows = await ctx.tx
    .select({
      id: tenants.id,
      name: tenants.name,
      expireTime: tenants.accountExpireTime,
      type: tenants.recommendType,
      remark: tenants.agencyRemark,
      isActive: tenants.isActive,
      recommendTime: tenants.recommendTime,
      earned,
    })
    .from(tenants)
    .leftJoin(c, eq(c.inviteTenantId, tenants.id))
    .where(where)
    .orderBy(
      orderBy(
        q.Sorting,
        { tenentName: tenants.name, recommendTime: tenants.recommendTime, balance: earned, expireTime: tenants.accountExpireTime },
        desc(tenants.recommendTime),
      ),
      asc(tenants.id),
    )
    .limit(q.MaxResultCount)
    .offset(q.SkipCount);
  return {
    items: rows.map((r) => ({
      id: r.id,
      tenentName: r.name,
      balance: fenToYuan(num(r.earned)),
      expireTime: iso(r.expireTime),
      type: r.type ?? 0,
      remark: r.remark,
      recommendTenantName: agency?.name ?? "",
      isActive: r.isActive,
      recommendTime: iso(r.recommendTime),
    })),
    totalCount: n,
    totalCommission,
  };
}

/** EditRemark: the agency's note on one tenant it recommended; another tenant's is answered as if it did not exist. */
async function editRemark(ctx: CallContext, body: z.output<typeof editAgencyRemarkInput>): Promise<void> {
  const rows = await ctx.tx
    .update(tenants)
    .set({ agencyRemark: body.remark || null })
    .where(and(eq(tenants.id, body.id), eq(tenants.recommendTenantId, ctx.tenantId)))
    .returning({ id: tenants.id });
  if (!rows.length) throw notFound("推荐的公司不存在");
}

/** GetAgencyTransactionRecord: the caller's ledger entries naming a recommended tenant (its commissions), newest first. */
async function getAgencyTransactionRecord(
  ctx: CallContext,
  q: z.output<typeof getAgencyTransactionRecordQuery>,
): Promise<AgencyTransactionPage> {
  const search = q.Search ? containsPattern(q.Search) : null;
  const where = and(
    eq(walletLogs.tenantId, ctx.tenantId),
    isNotNull(walletLogs.inviteTenantId),
    q.StartDate ? gte(walletLogs.creationTime, q.StartDate) : undefined,
    q.EndDate ? lt(walletLogs.creationTime, q.EndDate) : undefined,
    q.Type !== undefined ? eq(walletLogs.type, q.Type) : undefined,
    search ? or(ilike(tenants.name, search), ilike(walletLogs.remark, search)) : undefined,
  );
  const [agg] = await ctx.tx
    .select({ n: count(), fen: sum(walletLogs.amountFen) })
    .from(walletLogs)
    .leftJoin(tenants, eq(tenants.id, walletLogs.inviteTenantId))
    .where(where);
  const n = Number(agg?.n ?? 0);
  const totalMoney = fenToYuan(num(agg?.fen));
  if (!n || q.SkipCount >= n) return { items: [], totalCount: n, totalMoney };
  const rows = await ctx.tx
    .select({ log: walletLogs, tenantName: tenants.name })
    .from(walletLogs)
    .leftJoin(tenants, eq(tenants.id, walletLogs.inviteTenantId))
    .where(where)
    .orderBy(
      orderBy(q.Sorting, { creationTime: walletLogs.creationTime, money: walletLogs.amountFen }, desc(walletLogs.creationTime)),
      desc(walletLogs.id),
    )
    .limit(q.MaxResultCount)
    .offset(q.SkipCount);
  return {
    items: rows.map(({ log, tenantName }) => ({
      id: log.id,
      creationTime: log.creationTime.toISOString(),
      type: log.type,
      money: fenToYuan(num(log.amountFen)),
      remark: log.remark,
      inviteTenantName: tenantName,
      inviteTenantId: log.inviteTenantId,
    })),
    totalCount: n,
    totalMoney,
  };
}

async function recommendInfoOf(tx: Tx, tenantId: string): Promise<RecommendInfo> {
  const rows = rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      select t.id as "tenantId", t.name as "tenantName", t.recommend_tenant_id as "recommandTenantId",
             a.name as "recommendTenantName", t.recommend_type as "type", t.recommend_time as "recommendTime"
      from tenants t left join tenants a on a.id = t.recommend_tenant_id where t.id = ${tenantId}`),
  );
  const r = rows[0];
  if (!r) throw notFound("公司未找到");
  return {
    tenantId: String(r.tenantId),
    tenantName: String(r.tenantName),
    recommandTenantId: (r.recommandTenantId as string | null) ?? null,
    recommendTenantName: (r.recommendTenantName as string | null) ?? null,
    type: r.type === null || r.type === undefined ? null : Number(r.type),
    recommendTime: iso(r.recommendTime as string | Date | null),
  };
}

/**
 * Hosted SetRecommendTenant (host): `tenantId` was recommended by the agency `recommandTenantId` (null clears it). A
 * tenant cannot recommend itself, and the platform is neither; a new agency starts without the old one's remark.
 * Commissions already paid stay where they are.
 */
async function setRecommend(ctx: CallContext, body: z.output<typeof setRecommendInput>): Promise<RecommendInfo> {
  if (body.tenantId === HOST_TENANT_ID || body.recommandTenantId === HOST_TENANT_ID) throw badRequest("平台不能参与推荐");
  if (body.recommandTenantId === body.tenantId) throw badRequest("公司不能推荐自己");
  const found = await ctx.tx
    .select({ id: tenants.id, recommendTenantId: tenants.recommendTenantId })
    .from(tenants)
    .where(or(eq(tenants.id, body.tenantId), body.recommandTenantId ? eq(tenants.id, body.recommandTenantId) : undefined));
  const tenant = found.find((t) => t.id === body.tenantId);
  if (!tenant) throw notFound("公司未找到");
  if (body.recommandTenantId && !found.some((t) => t.id === body.recommandTenantId)) throw notFound("推荐公司未找到");
  const changed = tenant.recommendTenantId !== body.recommandTenantId;
  await ctx.tx
    .update(tenants)
    .set(
      body.recommandTenantId
        ? {
            recommendTenantId: body.recommandTenantId,
            recommendType: body.type,
            ...(changed ? { recommendTime: new Date(), agencyRemark: null } : {}),
          }
        : { recommendTenantId: null, recommendType: null, recommendTime: null, agencyRemark: null },
    )
    .where(and(eq(tenants.id, body.tenantId), ne(tenants.id, HOST_TENANT_ID)));
  return recommendInfoOf(ctx.tx, body.tenantId);
}

/** Hosted GetRecommendInfo (host): one tenant's recommender. */
const getRecommendInfo = (ctx: CallContext, tenantId: string) => recommendInfoOf(ctx.tx, tenantId);

export function createAgencyService() {
  // prepareCommission: what a purchase paid from a wallet asks before its debit (deps.ts hands it to the purchases).
  return { getInviteRecords, editRemark, getAgencyTransactionRecord, setRecommend, getRecommendInfo, prepareCommission };
}
export type AgencyService = ReturnType<typeof createAgencyService>;
