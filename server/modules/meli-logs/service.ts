// The marketplace call log (spec §7 MeliStatLog). recordMeliCall is how the publisher and the listing centre store a
// call (the service's recorders, handed to them by deps.ts); GetLogsByPage lists calls without their bodies,
// GetLogDetail answers one with them. A main account sees every call of its tenant, a sub-account the calls of the
// shop groups it owns a shop of (as it sees shops); row-level security backs the tenant filter.
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { meliAccounts, meliCallLogs } from "../../db/schema.ts";
import type { Tx } from "../../db/client.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { orderBy } from "../../db/query.ts";
import {
  MELI_LOG_COUNT_CAP,
  type getLogsByPageQuery,
  type MeliCallLog,
  type MeliCallLogDetail,
  type MeliCallLogPage,
} from "#shared/contract/meli-logs.ts";
import type { MeliExchange } from "../../integrations/mercadolibre/client.ts";
import { scrubBody, scrubPath } from "./scrub.ts";

export type MeliCallEntry = {
  tenantId: string;
  accountGroupId?: string | null;
  listingId?: string | null;
  batchId?: string | null;
  site?: number | null;
  method: string;
  /** The path called, with its query (secret parameters are scrubbed). */
  path: string;
  /** The HTTP status answered; null when no answer came. */
  status: number | null;
  /** What was sent: a value, a JSON text or any text (headers may be included: an Authorization header is scrubbed). */
  request?: unknown;
  /** What came back, as the request. */
  response?: unknown;
  durationMs?: number | null;
  /** Who the call was made for (the user whose publish ran it). */
  creatorId?: string | null;
  /** Why it was made, when the caller says (a repricing's reason). */
  reason?: string | null;
};

/** The call-log fields of one exchange the Mercado Libre client observed. */
export const exchangeEntry = (x: MeliExchange) => ({
  method: x.method,
  path: x.path,
  status: x.status,
  request: x.requestBody,
  response: x.responseBody,
  durationMs: x.durationMs,
});

/** The listing a call was made for, as the call log files it. */
type LoggedListing = { tenantId: string; accountGroupId: string; id: string; batchId: string | null; site: number };

/** Stores (and empties) the exchanges the client observed, each filed under the same `where`, in the caller's transaction. */
async function recordMeliCalls(tx: Tx, where: Omit<MeliCallEntry, keyof ReturnType<typeof exchangeEntry>>, exchanges: MeliExchange[]) {
  for (const x of exchanges.splice(0)) await recordMeliCall(tx, { ...where, ...exchangeEntry(x) });
}

/** Stores (and empties) the exchanges the client observed for one listing, in the caller's transaction. */
async function recordListingCalls(tx: Tx, l: LoggedListing, exchanges: MeliExchange[], creatorId?: string | null, reason?: string | null) {
  const where = { tenantId: l.tenantId, accountGroupId: l.accountGroupId, listingId: l.id, batchId: l.batchId, site: l.site };
  await recordMeliCalls(tx, { ...where, creatorId: creatorId ?? null, reason: reason ?? null }, exchanges);
}

/**
 * Stores one marketplace call in the caller's transaction (its tenant scope), its bodies scrubbed of secrets and cut
 * at MELI_LOG_BODY_MAX_BYTES; answers the id. Outside a transaction: `inScope(db, { tenantId }, (tx) => recordMeliCall(tx,
 * entry))`. (A transaction handle cannot be told from the database at run time, so there is no "either" form.)
 */
export async function recordMeliCall(tx: Tx, entry: MeliCallEntry): Promise<string> {
  const id = randomUUID();
  await tx.insert(meliCallLogs).values({
    tenantId: entry.tenantId,
    id,
    accountGroupId: entry.accountGroupId ?? null,
    listingId: entry.listingId ?? null,
    batchId: entry.batchId ?? null,
    site: entry.site ?? null,
    method: entry.method.toUpperCase(),
    path: scrubPath(entry.path),
    status: entry.status,
    request: scrubBody(entry.request),
    response: scrubBody(entry.response),
    durationMs: entry.durationMs == null ? null : Math.max(0, Math.round(entry.durationMs)),
    creatorId: entry.creatorId ?? null,
    reason: entry.reason ?? null,
  });
  return id;
}

const sortColumns = {
  creationTime: meliCallLogs.creationTime,
  status: meliCallLogs.status,
  durationMs: meliCallLogs.durationMs,
  site: meliCallLogs.site,
};

/** The calls the caller may see: its tenant's for a main account, its own shop groups' for a sub-account. */
function visibleLogs(ctx: CallContext): SQL {
  const u = ctx.user!;
  const tenant = eq(meliCallLogs.tenantId, u.tenantId);
  if (u.isMainAccount) return tenant;
  const ownGroups = ctx.tx
    .select({ id: meliAccounts.groupId })
    .from(meliAccounts)
    .where(and(eq(meliAccounts.tenantId, u.tenantId), eq(meliAccounts.ownerId, u.id)));
  return and(tenant, inArray(meliCallLogs.accountGroupId, ownGroups))!;
}

const listColumns = {
  id: meliCallLogs.id,
  accountGroupId: meliCallLogs.accountGroupId,
  listingId: meliCallLogs.listingId,
  batchId: meliCallLogs.batchId,
  site: meliCallLogs.site,
  method: meliCallLogs.method,
  path: meliCallLogs.path,
  status: meliCallLogs.status,
  durationMs: meliCallLogs.durationMs,
  reason: meliCallLogs.reason,
  creationTime: meliCallLogs.creationTime,
};

const toLog = (r: { [K in keyof typeof listColumns]: (typeof meliCallLogs.$inferSelect)[K] }): MeliCallLog => ({
  ...r,
  creationTime: r.creationTime.toISOString(),
});

async function getLogsByPage(ctx: CallContext, q: z.output<typeof getLogsByPageQuery>): Promise<MeliCallLogPage> {
  if (q.StartTime && q.EndTime && q.StartTime > q.EndTime) throw badRequest("开始时间不能晚于结束时间");
  const conditions: SQL[] = [visibleLogs(ctx)];
  if (q.AccountgroupId) conditions.push(eq(meliCallLogs.accountGroupId, q.AccountgroupId));
  if (q.ListingId) conditions.push(eq(meliCallLogs.listingId, q.ListingId));
  if (q.BatchId) conditions.push(eq(meliCallLogs.batchId, q.BatchId));
  if (q.StartTime) conditions.push(gte(meliCallLogs.creationTime, q.StartTime));
  if (q.EndTime) conditions.push(lte(meliCallLogs.creationTime, q.EndTime));
  const where = and(...conditions);

  // Counting stops after MELI_LOG_COUNT_CAP + 1 rows: a publish of thousands of products logs many more calls.
  const limited = ctx.tx
    .select({ one: sql`1` })
    .from(meliCallLogs)
    .where(where)
    .limit(MELI_LOG_COUNT_CAP + 1)
    .as("m");
  const [{ n }] = await ctx.tx.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(limited);
  const capped = n > MELI_LOG_COUNT_CAP;
  const totalCount = capped ? MELI_LOG_COUNT_CAP : n;
  if (!n || (!capped && q.SkipCount >= n)) return { items: [], totalCount, totalCountCapped: capped };

  const rows = await ctx.tx
    .select(listColumns)
    .from(meliCallLogs)
    .where(where)
    .orderBy(orderBy(q.Sorting, sortColumns, desc(meliCallLogs.creationTime)), desc(meliCallLogs.creationTime), asc(meliCallLogs.id))
    .limit(q.MaxResultCount)
    .offset(q.SkipCount);
  return { items: rows.map(toLog), totalCount, totalCountCapped: capped };
}

async function getLogDetail(ctx: CallContext, id: string): Promise<MeliCallLogDetail> {
  const [row] = await ctx.tx
    .select({ ...listColumns, request: meliCallLogs.request, response: meliCallLogs.response })
    .from(meliCallLogs)
    .where(and(visibleLogs(ctx), eq(meliCallLogs.id, id)));
  if (!row) throw notFound("日志不存在");
  const { request, response, ...rest } = row;
  return { ...toLog(rest), request, response };
}

export function createMeliLogService() {
  // The recorders: how the areas that call Mercado Libre store their calls (deps.ts hands them over).
  return { getLogsByPage, getLogDetail, recordMeliCalls, recordListingCalls, recordMeliCall };
}
export type MeliLogService = ReturnType<typeof createMeliLogService>;
