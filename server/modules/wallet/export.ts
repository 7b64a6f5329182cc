// Wallet log export (issue 19: /finance/wallet/list's xlsx). ExportWalletLogs records a task and queues a job that
// writes the caller's tenant's entries matching the list's filters through the shared export machine
// (server/jobs/xlsx-export.ts): read 1,000 at a time by keyset on the ledger's order (seq), newest first as the list
// shows them, under the tenant's scope; amounts are numbers in yuan shown with two decimals. DownloadWalletLogExport streams
// the finished file to the task's creator.
import { and, count, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../db/client.ts";
import { tenants, users, walletLogs } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask } from "../../jobs/tasks.ts";
import {
  exportFileName,
  runXlsxExport,
  sendExportFile,
  type Cursor,
  type XlsxColumn,
  type XlsxExportDeps,
  type XlsxExportJob,
} from "../../jobs/xlsx-export.ts";
import { TaskType, WalletLogType } from "#shared/contract/enums.ts";
import {
  WALLET_LOG_EXPORT_MAX_ROWS,
  walletLogExportHeaders,
  walletLogTypeNames,
  type exportWalletLogsQuery,
  type ExportWalletLogsResult,
} from "#shared/contract/wallet.ts";
import { assertFinanceVisible } from "./visibility.ts";

const EXPORT_WALLET_LOGS_JOB = "export-wallet-logs";
const BATCH = 1000;
const DEFAULT_UTC_OFFSET_MINUTES = 480;
const PREFIX = "钱包记录";
const fileNamePattern = /^钱包记录-\d{8}-\d{6}\.xlsx$/;

/** The list's filters as the job carries them (dates as ISO text). */
type Filter = { startTime: string | null; endTime: string | null; type: number | null; userId: string | null };
type WalletExportJob = XlsxExportJob & { filter: Filter };

export type WalletExportDeps = XlsxExportDeps & { jobs: Jobs };

function filterWhere(tenantId: string, f: Filter): SQL {
  return and(
    eq(walletLogs.tenantId, tenantId),
    f.startTime ? gte(walletLogs.creationTime, new Date(f.startTime)) : undefined,
    f.endTime ? lt(walletLogs.creationTime, new Date(f.endTime)) : undefined,
    f.type !== null ? eq(walletLogs.type, f.type) : undefined,
    f.userId ? eq(walletLogs.userId, f.userId) : undefined,
  )!;
}

type Row = Awaited<ReturnType<typeof readBatch>>[number];

function readBatch(tx: Tx, where: SQL, after: Cursor | null) {
  // The cursor's "time" carries the last entry's seq: unique within the tenant, it alone is the keyset.
  const keyset = after ? sql`${walletLogs.seq} < ${after.time}::bigint` : undefined;
  return tx
    .select({
      id: walletLogs.id,
      cursorTime: sql<string>`${walletLogs.seq}::text`,
      creationTime: walletLogs.creationTime,
      type: walletLogs.type,
      amountFen: walletLogs.amountFen,
      balanceAfterFen: walletLogs.balanceAfterFen,
      remark: walletLogs.remark,
      userId: walletLogs.userId,
      userName: users.userName,
      inviteTenantName: tenants.name,
    })
    .from(walletLogs)
    .leftJoin(users, and(eq(users.tenantId, walletLogs.tenantId), eq(users.id, walletLogs.userId)))
    .leftJoin(tenants, eq(tenants.id, walletLogs.inviteTenantId))
    .where(keyset ? and(where, keyset) : where)
    .orderBy(desc(walletLogs.seq))
    .limit(BATCH);
}

const yuan = (fen: number) => Number(fen) / 100;
const columns: XlsxColumn<Row>[] = (
  [
    // Excel dates carry no zone: the time is written as the clock reads at the caller's offset.
    { width: 20, numFmt: "yyyy-mm-dd hh:mm:ss", value: (r, offsetMs) => new Date(r.creationTime.getTime() + offsetMs) },
    { width: 10, value: (r) => walletLogTypeNames[r.type] ?? String(r.type) },
    { width: 14, numFmt: "0.00", value: (r) => yuan(r.amountFen) },
    { width: 14, numFmt: "0.00", value: (r) => yuan(r.balanceAfterFen) },
    { width: 40, value: (r) => r.remark || null },
    { width: 16, value: (r) => r.userName ?? (r.type === WalletLogType.HostAdjust && r.userId ? "平台" : null) },
    { width: 16, value: (r) => r.inviteTenantName ?? null },
    { width: 38, value: (r) => r.id },
  ] satisfies Omit<XlsxColumn<Row>, "header">[]
).map((c, i) => ({ ...c, header: walletLogExportHeaders[i] }));

export function createWalletExport(deps: WalletExportDeps) {
  const exportWorker = worker<WalletExportJob>(EXPORT_WALLET_LOGS_JOB, (job) =>
    runXlsxExport(deps, job, () => {
      const where = filterWhere(job.tenantId, job.filter);
      return {
        sheetName: PREFIX,
        columns,
        batchSize: BATCH,
        maxRows: WALLET_LOG_EXPORT_MAX_ROWS,
        tooMany: (total) => `一次最多导出 ${WALLET_LOG_EXPORT_MAX_ROWS} 条记录（选中 ${total} 条），请缩小时间范围`,
        done: (n) => `共 ${n} 条记录`,
        count: async (tx) => (await tx.select({ n: count() }).from(walletLogs).where(where))[0]?.n ?? 0,
        batch: (tx, after) => readBatch(tx, where, after),
      };
    }),
  );

  async function exportWalletLogs(ctx: CallContext, q: z.output<typeof exportWalletLogsQuery>): Promise<ExportWalletLogsResult> {
    await assertFinanceVisible(ctx);
    const u = ctx.user!;
    const filter: Filter = {
      startTime: q.StartTime ? q.StartTime.toISOString() : null,
      endTime: q.EndTime ? q.EndTime.toISOString() : null,
      type: q.Type ?? null,
      userId: q.UserId ?? null,
    };
    const utcOffsetMinutes = q.UtcOffsetMinutes ?? DEFAULT_UTC_OFFSET_MINUTES;
    const content =
      filter.startTime || filter.endTime || filter.type !== null || filter.userId ? "导出钱包记录（按筛选条件）" : "导出钱包记录";
    const taskId = await createTask(ctx.tx, { tenantId: ctx.tenantId, taskType: TaskType.ExportWalletLogs, content, creatorId: u.id });
    const job: WalletExportJob = {
      tenantId: ctx.tenantId,
      taskId,
      userId: u.id,
      utcOffsetMinutes,
      fileName: exportFileName(PREFIX, new Date(), utcOffsetMinutes),
      content,
      filter,
    };
    await deps.jobs.send<WalletExportJob>(EXPORT_WALLET_LOGS_JOB, job, { tx: ctx.tx });
    return { taskId };
  }

  return {
    exportWalletLogs,
    downloadWalletLogExport: (ctx: CallContext, taskId: string) =>
      sendExportFile(deps.dataDir, ctx, taskId, {
        taskType: TaskType.ExportWalletLogs,
        fileNamePattern,
        fallbackName: `${PREFIX}.xlsx`,
        prefix: PREFIX,
        asciiPrefix: "wallet-logs",
      }),
    workers: [exportWorker],
  };
}
