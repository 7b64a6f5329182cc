// The wallet's calls (issue 19; spec §7 WalletLog, ChargeRecord, withdrawals, Hosted AddOrSubMoney / GetHostWalletInfo).
// Every movement goes through postLedgerEntry (ledger.ts) in the call's transaction. A top-up or withdrawal is audited
// once: the audit locks its row (for update) and refuses one no longer pending, so an approve and a reject sent at once
// end as exactly one of them. Receipt images live under DATA_DIR/receipts/<tenantId>/, checked by their bytes.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { and, asc, count, desc, eq, gte, ilike, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { PgDialect, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { columnsText, Params, rowsOf, textRows, type Tx } from "../../db/client.ts";
import { chargeRecords, HOST_TENANT_ID, tenants, users, walletLogs, withdrawals } from "../../db/schema.ts";
import { cappedPageJson, containsPattern, pagedJsonStatement, sortOfText } from "../../db/query.ts";
import { AfterCommit, JsonText, type CallContext } from "../../http/calls.ts";
import { badRequest, businessError, forbidden, notFound } from "../../http/errors.ts";
import { checkUploadedImage, receiveUpload } from "../../http/upload.ts";
import { makeImagePreview } from "../../http/image-preview.ts";
import { BalanceAdjustType, ChargeStatus, WalletLogType, WithdrawStatus } from "#shared/contract/enums.ts";
import {
  fenToYuan,
  MAX_RECEIPT_BYTES,
  RECEIPT_PIC_PATTERN,
  WALLET_LOG_COUNT_CAP,
  yuanToFen,
  type addOrSubMoneyInput,
  type auditChargeRecordInput,
  type ChargeRecord,
  type getChargeRecordsQuery,
  type getHostWalletInfoQuery,
  type getReceiptQuery,
  type getWalletLogsQuery,
  type getWithdrawsQuery,
  type HostWalletInfo,
  type paymentQuery,
  type PaymentResult,
  type requestWithdrawInput,
  type submitChargeRecordInput,
  type Withdrawal,
} from "#shared/contract/wallet.ts";
import type { PagedResult } from "#shared/contract/common.ts";
import { postLedgerEntry, type PrepareCommission } from "./ledger.ts";
import { createWalletExport, type WalletExportDeps } from "./export.ts";
import { assertFinanceVisible } from "./visibility.ts";
import { lockReceipts, receiptDir, receiptPreviewPath, receiptSweepWorker, scheduleReceiptSweep } from "./receipts.ts";
import { readReceivingAccounts, receivingAccountPics } from "./receiving-accounts.ts";

/** prepareCommission: the recommending agency's commission on a Payment (the agency's, handed over by deps.ts). */
export type WalletDeps = WalletExportDeps & { prepareCommission: PrepareCommission };

/** Fen from a validated yuan amount (the contract already refused more than two decimals). */
const fen = (yuan: number) => yuanToFen(yuan)!;
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const num = (v: unknown) => Number(v);

function sortBy(sorting: string | undefined, columns: Record<string, AnyPgColumn | SQL>, fallback: SQL[]): SQL[] {
  if (!sorting) return fallback;
  const [field, dir] = sorting.trim().split(/\s+/);
  const key = Object.keys(columns).find((k) => k.toLowerCase() === field.toLowerCase());
  if (!key) return fallback;
  return [dir?.toLowerCase() === "desc" ? desc(columns[key]) : asc(columns[key]), ...fallback];
}

// ---------------------------------------------------------------------------------------------------------------
// WalletLog

/** The wallet_logs table's columns as SQL text ("wallet_logs"."tenant_id"). */
const W = columnsText(walletLogs);

/**
 * One entry's row as PostgreSQL selects it for row_to_json: the contract's walletLogEntry, named, ordered and valued as
 * the mapping this replaced wrote it (yuan as fen / 100 in a double, as fenToYuan; creationTime as toISOString; a host
 * adjustment's user, not in the tenant's users, as 平台).
 */
const walletLogRow = new PgDialect().sqlToQuery(sql`select ${walletLogs.id} as "id", ${walletLogs.type} as "type",
    ${walletLogs.amountFen}::float8 / 100 as "money", ${walletLogs.balanceAfterFen}::float8 / 100 as "balance",
    ${walletLogs.remark} as "remark", ${walletLogs.userId} as "userId",
    coalesce(${users.userName}, case when ${walletLogs.type} = ${sql.raw(String(WalletLogType.HostAdjust))}
      and ${walletLogs.userId} is not null then '平台' end) as "userName",
    ${tenants.name} as "inviteTenantName", ${walletLogs.refId} as "refId",
    to_char(${walletLogs.creationTime} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "creationTime"
    from ${walletLogs}
    left join ${users} on ${users.tenantId} = ${walletLogs.tenantId} and ${users.id} = ${walletLogs.userId}
    left join ${tenants} on ${tenants.id} = ${walletLogs.inviteTenantId}`).sql;

/** Time order is the ledger's own (seq: the order the balances chain in), so the running balance reads straight down. */
const walletLogSort = { creationTime: W.seq, money: W.amountFen };

/**
 * GetWalletLogs in one statement: the capped count (it stops after WALLET_LOG_COUNT_CAP + 1 entries: a busy wallet's
 * year holds a million), the balance now and the page's rows as JSON text, sent as the answer without parsing it. The
 * page is chosen on the filter's index (ids and the sort key: (tenant, seq) or (tenant, type, seq) for time order,
 * (tenant, amount, id) or, under a Type or UserId filter, (tenant, type or user, amount, id)), then its rows are read
 * by primary key for the JSON, as GetOrders.
 */
export async function getWalletLogs(ctx: CallContext, q: z.output<typeof getWalletLogsQuery>): Promise<JsonText> {
  await assertFinanceVisible(ctx);
  const p = new Params(ctx.tenantId);
  const c = [`${W.tenantId} = ${p.tenant}`];
  if (q.StartTime) c.push(`${W.creationTime} >= ${p.add(q.StartTime.toISOString())}`);
  if (q.EndTime) c.push(`${W.creationTime} < ${p.add(q.EndTime.toISOString())}`);
  if (q.Type !== undefined) c.push(`${W.type} = ${p.add(q.Type)}`);
  if (q.UserId) c.push(`${W.userId} = ${p.add(q.UserId)}`);
  const where = c.map((x) => `(${x})`).join(" and ");
  const statement = pagedJsonStatement({
    table: "wallet_logs",
    columns: W,
    where,
    sort: sortOfText(q.Sorting, walletLogSort, "creationTime"),
    uniqueSorts: [W.seq],
    limit: p.add(q.MaxResultCount),
    offset: p.add(q.SkipCount),
    tenant: p.tenant,
    cap: WALLET_LOG_COUNT_CAP,
    rowSelect: walletLogRow,
    extra: `(select balance_fen from tenants where id = ${p.tenant})::text as "balanceFen"`,
  });
  const [r] = await textRows<{ n: number; balanceFen: string | null; items: string }>(ctx.tx, statement, p.values);
  const balance = fenToYuan(Number(r.balanceFen ?? 0));
  return new JsonText(cappedPageJson(r, WALLET_LOG_COUNT_CAP, `,"balance":${JSON.stringify(balance)}`));
}

/** Payment: a purchase paid from the caller's tenant's balance. */
async function payment(prepareCommission: PrepareCommission, ctx: CallContext, q: z.output<typeof paymentQuery>): Promise<PaymentResult> {
  const commission = await prepareCommission(ctx.tx, ctx.tenantId);
  const entry = await postLedgerEntry(ctx.tx, {
    tenantId: ctx.tenantId,
    type: WalletLogType.Purchase,
    amountFen: -fen(q.money),
    userId: ctx.user!.id,
    remark: q.remark,
  });
  // The recommending agency's commission on the purchase, in this transaction (agency/commission.ts).
  await commission.credit({ purchaseFen: fen(q.money), purchaseEntryId: entry.id, what: `支付：${q.remark}` });
  return { id: entry.id, balance: fenToYuan(entry.balanceAfterFen) };
}

// ---------------------------------------------------------------------------------------------------------------
// Receipt images

const EXTENSIONS = { jpeg: "jpg", png: "png", webp: "webp", gif: "gif" } as const;
const CONTENT_TYPES: Record<string, string> = { jpg: "image/jpeg", png: "image/png", webp: "image/webp", gif: "image/gif" };

/** UploadReceipt: an image by its bytes (JPEG, PNG, WebP, GIF; at most 5 MB), stored for the caller's tenant. */
async function uploadReceipt(deps: WalletDeps, ctx: CallContext): Promise<{ pic: string }> {
  const buf = await receiveUpload(ctx, MAX_RECEIPT_BYTES);
  const image = checkUploadedImage(buf, "转账截图");
  const preview = await makeImagePreview(buf, "转账截图");
  const name = `${randomBytes(16).toString("hex")}.${EXTENSIONS[image.format]}`;
  const dir = receiptDir(deps.dataDir, ctx.tenantId);
  const previewPath = receiptPreviewPath(deps.dataDir, ctx.tenantId, name);
  await mkdir(dirname(previewPath), { recursive: true });
  // The preview first, so a stored image always has one; each written whole, then renamed: a reader never sees half a file.
  await writeFile(`${previewPath}.tmp`, preview);
  await rename(`${previewPath}.tmp`, previewPath);
  const temp = join(dir, `.${name}.tmp`);
  await writeFile(temp, buf);
  await rename(temp, join(dir, name));
  // An upload may never be submitted: the orphan sweep's chain is queued (again) here (receipts.ts).
  await scheduleReceiptSweep(deps.jobs, ctx.tx);
  return { pic: `${ctx.tenantId}/${name}` };
}

/** GetReceipt: the image to its tenant and the host; anyone else is answered as if it did not exist. */
async function getReceipt(deps: WalletDeps, ctx: CallContext, q: z.output<typeof getReceiptQuery>): Promise<AfterCommit> {
  const m = RECEIPT_PIC_PATTERN.exec(q.pic);
  if (!m) throw notFound("图片不存在");
  const [, tenantId, name] = m;
  // A receiving account's QR code is the platform's, shown to every tenant.
  if (!ctx.user!.isHost && tenantId !== ctx.tenantId && !(await receivingAccountPics(ctx.tx)).has(q.pic)) throw notFound("图片不存在");
  const original = join(receiptDir(deps.dataDir, tenantId), name);
  // An image uploaded before previews were made has none: the original stands in.
  const preview = q.size === "preview" ? await readFile(receiptPreviewPath(deps.dataDir, tenantId, name)).catch(() => null) : null;
  const buf = preview ?? (await readFile(original).catch(() => null));
  if (!buf) throw notFound("图片不存在");
  const type = preview ? "image/webp" : CONTENT_TYPES[m[3]];
  return new AfterCommit(async (reply) =>
    reply
      .code(200)
      .header("content-type", type)
      .header("cache-control", "private, no-store")
      .header("x-content-type-options", "nosniff")
      .header("content-security-policy", "default-src 'none'")
      .send(buf),
  );
}

/**
 * A pic named in a request must be one of the caller's tenant's uploads. The tenant's receipt lock is held (shared) to
 * the call's commit, so the orphan sweep cannot remove the image between this check and the record naming it.
 */
async function checkOwnPic(deps: WalletDeps, ctx: CallContext, pic: string) {
  await lockReceipts(ctx.tx, ctx.tenantId, "shared");
  const m = RECEIPT_PIC_PATTERN.exec(pic);
  const exists =
    !!m &&
    m[1] === ctx.tenantId &&
    (await stat(join(receiptDir(deps.dataDir, m[1]), m[2]))
      .then(() => true)
      .catch(() => false));
  if (!exists) throw badRequest("图片不存在，请重新上传");
}

// ---------------------------------------------------------------------------------------------------------------
// ChargeRecord

type ChargeRow = typeof chargeRecords.$inferSelect & { tenantName: string | null; userName: string | null };

const chargeOut = (r: ChargeRow): ChargeRecord => ({
  id: r.id,
  tenantId: r.tenantId,
  tenantName: r.tenantName ?? "",
  userId: r.userId,
  userName: r.userName,
  money: fenToYuan(num(r.moneyFen)),
  payType: r.payType,
  pic: r.pic,
  remark: r.remark,
  status: r.status,
  reason: r.reason,
  auditTime: iso(r.auditTime),
  creationTime: r.creationTime.toISOString(),
});

const chargeSelect = (tx: Tx) =>
  tx
    .select({ record: chargeRecords, tenantName: tenants.name, userName: users.userName })
    .from(chargeRecords)
    .leftJoin(tenants, eq(tenants.id, chargeRecords.tenantId))
    .leftJoin(users, and(eq(users.tenantId, chargeRecords.tenantId), eq(users.id, chargeRecords.userId)));

async function chargeById(tx: Tx, id: string): Promise<ChargeRecord> {
  const [row] = await chargeSelect(tx).where(eq(chargeRecords.id, id));
  return chargeOut({ ...row.record, tenantName: row.tenantName, userName: row.userName });
}

async function submitChargeRecord(deps: WalletDeps, ctx: CallContext, input: z.output<typeof submitChargeRecordInput>) {
  if (ctx.user!.isHost) throw forbidden("平台管理员无需充值");
  await checkOwnPic(deps, ctx, input.pic);
  const id = randomUUID();
  await ctx.tx.insert(chargeRecords).values({
    tenantId: ctx.tenantId,
    id,
    userId: ctx.user!.id,
    moneyFen: fen(input.money),
    payType: input.payType,
    pic: input.pic,
    remark: input.remark || null,
    status: ChargeStatus.Pending,
  });
  return chargeById(ctx.tx, id);
}

type ListQuery = z.output<typeof getChargeRecordsQuery>;

async function listCharges(ctx: CallContext, q: ListQuery, tenantId: string | null): Promise<PagedResult<ChargeRecord>> {
  const search = q.Search ? containsPattern(q.Search) : null;
  const where = and(
    tenantId ? eq(chargeRecords.tenantId, tenantId) : undefined,
    q.StartTime ? gte(chargeRecords.creationTime, q.StartTime) : undefined,
    q.EndTime ? lt(chargeRecords.creationTime, q.EndTime) : undefined,
    q.Status !== undefined ? eq(chargeRecords.status, q.Status) : undefined,
    search ? or(ilike(tenants.name, search), ilike(chargeRecords.remark, search)) : undefined,
  );
  const [{ n }] = await ctx.tx
    .select({ n: count() })
    .from(chargeRecords)
    .leftJoin(tenants, eq(tenants.id, chargeRecords.tenantId))
    .where(where);
  if (!n || q.SkipCount >= n) return { items: [], totalCount: n };
  const rows = await chargeSelect(ctx.tx)
    .where(where)
    .orderBy(
      ...sortBy(
        q.Sorting,
        {
          creationTime: chargeRecords.creationTime,
          money: chargeRecords.moneyFen,
          status: chargeRecords.status,
          auditTime: chargeRecords.auditTime,
        },
        [desc(chargeRecords.creationTime), desc(chargeRecords.id)],
      ),
    )
    .limit(q.MaxResultCount)
    .offset(q.SkipCount);
  return { items: rows.map((r) => chargeOut({ ...r.record, tenantName: r.tenantName, userName: r.userName })), totalCount: n };
}

/** Approve (credit the wallet once) or reject (with a reason) a pending top-up; the host only. */
async function auditChargeRecord(ctx: CallContext, input: z.output<typeof auditChargeRecordInput>): Promise<ChargeRecord> {
  const [record] = rowsOf<{ tenantId: string; status: number; moneyFen: string | number }>(
    await ctx.tx.execute(
      sql`select tenant_id as "tenantId", status, money_fen as "moneyFen" from charge_records where id = ${input.id} for update`,
    ),
  );
  if (!record) throw notFound("充值记录不存在");
  if (record.status !== ChargeStatus.Pending) throw businessError("该充值记录已审核，不能重复审核", "AlreadyAudited");
  if (input.status === ChargeStatus.Approved) {
    await postLedgerEntry(ctx.tx, {
      tenantId: record.tenantId,
      type: WalletLogType.TopUp,
      amountFen: num(record.moneyFen),
      userId: ctx.user!.id,
      remark: "充值审核通过",
      refId: input.id,
    });
  }
  await ctx.tx
    .update(chargeRecords)
    .set({
      status: input.status,
      reason: input.status === ChargeStatus.Rejected ? input.reason! : input.reason || null,
      auditTime: new Date(),
      auditorId: ctx.user!.id,
    })
    .where(and(eq(chargeRecords.tenantId, record.tenantId), eq(chargeRecords.id, input.id)));
  return chargeById(ctx.tx, input.id);
}

// ---------------------------------------------------------------------------------------------------------------
// Withdrawals

type WithdrawRow = typeof withdrawals.$inferSelect & { tenantName: string | null };

const withdrawOut = (r: WithdrawRow): Withdrawal => ({
  id: r.id,
  tenantId: r.tenantId,
  tenantName: r.tenantName ?? "",
  status: r.status,
  auditTime: iso(r.auditTime),
  money: fenToYuan(num(r.moneyFen)),
  alipayAccount: r.alipayAccount,
  pic: r.pic,
  reason: r.reason,
  creationTime: r.creationTime.toISOString(),
  remark: r.remark,
  source: r.source,
});

const withdrawSelect = (tx: Tx) =>
  tx.select({ record: withdrawals, tenantName: tenants.name }).from(withdrawals).leftJoin(tenants, eq(tenants.id, withdrawals.tenantId));

async function withdrawById(tx: Tx, id: string): Promise<Withdrawal> {
  const [row] = await withdrawSelect(tx).where(eq(withdrawals.id, id));
  return withdrawOut({ ...row.record, tenantName: row.tenantName });
}

/** The money is held at once (a Withdraw debit); a short balance is refused and nothing is written. */
async function requestWithdraw(deps: WalletDeps, ctx: CallContext, input: z.output<typeof requestWithdrawInput>) {
  if (input.pic) await checkOwnPic(deps, ctx, input.pic);
  const id = randomUUID();
  const amount = fen(input.money);
  await postLedgerEntry(ctx.tx, {
    tenantId: ctx.tenantId,
    type: WalletLogType.Withdraw,
    amountFen: -amount,
    userId: ctx.user!.id,
    remark: `提现申请：${input.alipayAccount}`,
    refId: id,
  });
  await ctx.tx.insert(withdrawals).values({
    tenantId: ctx.tenantId,
    id,
    userId: ctx.user!.id,
    moneyFen: amount,
    alipayAccount: input.alipayAccount,
    pic: input.pic ?? null,
    remark: input.remark || null,
    source: input.source,
    status: WithdrawStatus.Pending,
  });
  return withdrawById(ctx.tx, id);
}

async function listWithdraws(
  ctx: CallContext,
  q: z.output<typeof getWithdrawsQuery>,
  tenantId: string | null,
): Promise<PagedResult<Withdrawal>> {
  const search = q.Search ? containsPattern(q.Search) : null;
  const where = and(
    tenantId ? eq(withdrawals.tenantId, tenantId) : undefined,
    q.StartTime ? gte(withdrawals.creationTime, q.StartTime) : undefined,
    q.EndTime ? lt(withdrawals.creationTime, q.EndTime) : undefined,
    q.Status !== undefined ? eq(withdrawals.status, q.Status) : undefined,
    search ? or(ilike(tenants.name, search), ilike(withdrawals.alipayAccount, search), ilike(withdrawals.remark, search)) : undefined,
  );
  const [{ n }] = await ctx.tx
    .select({ n: count() })
    .from(withdrawals)
    .leftJoin(tenants, eq(tenants.id, withdrawals.tenantId))
    .where(where);
  if (!n || q.SkipCount >= n) return { items: [], totalCount: n };
  const rows = await withdrawSelect(ctx.tx)
    .where(where)
    .orderBy(
      ...sortBy(
        q.Sorting,
        {
          creationTime: withdrawals.creationTime,
          money: withdrawals.moneyFen,
          status: withdrawals.status,
          auditTime: withdrawals.auditTime,
        },
        [desc(withdrawals.creationTime), desc(withdrawals.id)],
      ),
    )
    .limit(q.MaxResultCount)
    .offset(q.SkipCount);
  return { items: rows.map((r) => withdrawOut({ ...r.record, tenantName: r.tenantName })), totalCount: n };
}

/** Approve (paid out: the held money stays out) or reject (the held money returned); the host only, once. */
async function auditWithdraw(ctx: CallContext, input: z.output<typeof auditChargeRecordInput>): Promise<Withdrawal> {
  const [record] = rowsOf<{ tenantId: string; status: number; moneyFen: string | number }>(
    await ctx.tx.execute(
      sql`select tenant_id as "tenantId", status, money_fen as "moneyFen" from withdrawals where id = ${input.id} for update`,
    ),
  );
  if (!record) throw notFound("提现记录不存在");
  if (record.status !== WithdrawStatus.Pending) throw businessError("该提现申请已审核，不能重复审核", "AlreadyAudited");
  if (input.status === WithdrawStatus.Rejected) {
    await postLedgerEntry(ctx.tx, {
      tenantId: record.tenantId,
      type: WalletLogType.WithdrawRefund,
      amountFen: num(record.moneyFen),
      userId: ctx.user!.id,
      remark: `提现驳回退回：${input.reason}`,
      refId: input.id,
    });
  }
  await ctx.tx
    .update(withdrawals)
    .set({
      status: input.status,
      reason: input.status === WithdrawStatus.Rejected ? input.reason! : input.reason || null,
      auditTime: new Date(),
      auditorId: ctx.user!.id,
    })
    .where(and(eq(withdrawals.tenantId, record.tenantId), eq(withdrawals.id, input.id)));
  return withdrawById(ctx.tx, input.id);
}

// ---------------------------------------------------------------------------------------------------------------
// Hosted

/** When the tenant's balance last moved: its newest ledger entry. */
const lastMovement = sql<Date | null>`(select max(l.creation_time) from wallet_logs l where l.tenant_id = ${tenants.id})`;

async function hostWalletOf(tx: Tx, tenantId: string): Promise<HostWalletInfo> {
  const [row] = await tx
    .select({ tenantName: tenants.name, balanceFen: tenants.balanceFen, last: lastMovement.mapWith(walletLogs.creationTime) })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return { tenantId, tenantName: row.tenantName, balance: fenToYuan(num(row.balanceFen)), lastModificationTime: iso(row.last) };
}

/** AddOrSubMoney: the host's adjustment, with its remark, as a HostAdjust entry; taking more than the balance is refused; an unknown tenant is a 404. */
async function addOrSubMoney(ctx: CallContext, input: z.output<typeof addOrSubMoneyInput>): Promise<HostWalletInfo> {
  const amount = fen(input.money);
  await postLedgerEntry(ctx.tx, {
    tenantId: input.tenantId,
    type: WalletLogType.HostAdjust,
    amountFen: input.type === BalanceAdjustType.Add ? amount : -amount,
    userId: ctx.user!.id,
    remark: input.remark,
  });
  return hostWalletOf(ctx.tx, input.tenantId);
}

/** Every tenant's balance (0 before its first movement). */
async function getHostWalletInfo(ctx: CallContext, q: z.output<typeof getHostWalletInfoQuery>): Promise<PagedResult<HostWalletInfo>> {
  const where = and(ne(tenants.id, HOST_TENANT_ID), q.Search ? ilike(tenants.name, containsPattern(q.Search)) : undefined);
  const [{ n }] = await ctx.tx.select({ n: count() }).from(tenants).where(where);
  if (!n || q.SkipCount >= n) return { items: [], totalCount: n };
  const last = lastMovement.mapWith(walletLogs.creationTime);
  const rows = await ctx.tx
    .select({ tenantId: tenants.id, tenantName: tenants.name, balanceFen: tenants.balanceFen, last })
    .from(tenants)
    .where(where)
    .orderBy(
      ...sortBy(q.Sorting, { tenantName: tenants.name, balance: tenants.balanceFen, lastModificationTime: lastMovement }, [
        desc(tenants.balanceFen),
        asc(tenants.id),
      ]),
    )
    .limit(q.MaxResultCount)
    .offset(q.SkipCount);
  return {
    items: rows.map((r) => ({
      tenantId: r.tenantId,
      tenantName: r.tenantName,
      balance: fenToYuan(num(r.balanceFen)),
      lastModificationTime: iso(r.last),
    })),
    totalCount: n,
  };
}

export function createWalletService(deps: WalletDeps) {
  const exports = createWalletExport(deps);
  return {
    getWalletLogs,
    ...exports,
    payment: (ctx: CallContext, q: z.output<typeof paymentQuery>) => payment(deps.prepareCommission, ctx, q),
    uploadReceipt: (ctx: CallContext) => uploadReceipt(deps, ctx),
    getReceipt: (ctx: CallContext, q: z.output<typeof getReceiptQuery>) => getReceipt(deps, ctx, q),
    getReceivingAccounts: (ctx: CallContext) => readReceivingAccounts(ctx.tx),
    submitChargeRecord: (ctx: CallContext, input: z.output<typeof submitChargeRecordInput>) => submitChargeRecord(deps, ctx, input),
    getChargeRecords: (ctx: CallContext, q: ListQuery) => listCharges(ctx, q, ctx.tenantId),
    getHostChargeRecords: (ctx: CallContext, q: ListQuery) => listCharges(ctx, q, null),
    auditChargeRecord,
    requestWithdraw: (ctx: CallContext, input: z.output<typeof requestWithdrawInput>) => requestWithdraw(deps, ctx, input),
    getWithdraws: (ctx: CallContext, q: z.output<typeof getWithdrawsQuery>) => listWithdraws(ctx, q, ctx.tenantId),
    getHostWithdraws: (ctx: CallContext, q: z.output<typeof getWithdrawsQuery>) => listWithdraws(ctx, q, null),
    auditWithdraw,
    addOrSubMoney,
    getHostWalletInfo,
    workers: [...exports.workers, receiptSweepWorker(deps)],
  };
}
