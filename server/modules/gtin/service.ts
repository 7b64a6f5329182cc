// The GTIN pool (spec §7 MeliCode): the seller's bought codes, one tenant-wide pool. SetCodes adds checked codes
// (insert on conflict do nothing, so a repeated call is harmless), GetCodeCnt counts, ClearCode removes the unused
// ones (a used code stays: it records which listing got it, and is never given again). takeGtinCodes is how the
// publisher takes codes: in its own transaction, with row locks that concurrent takers skip.
import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { gtinCodes } from "../../db/schema.ts";
import { rowsOf, type Tx } from "../../db/client.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, businessError } from "../../http/errors.ts";
import { isGtin, type CodeCount, type setCodesInput } from "#shared/contract/gtin.ts";

/** How many invalid codes a refusal names (the rest are counted). */
const NAMED_INVALID = 20;

async function setCodes(ctx: CallContext, body: z.output<typeof setCodesInput>): Promise<{ added: number; ignored: number }> {
  const codes = body.codes.filter((c) => c !== "");
  // The whole list is refused when one code is wrong: a partly imported purchase is easy to miss, and sending the
  // corrected list again is harmless (codes already in the pool are ignored).
  const invalid = [...new Set(codes.filter((c) => !isGtin(c)))];
  if (invalid.length) {
    const named = invalid.slice(0, NAMED_INVALID).join("、") + (invalid.length > NAMED_INVALID ? ` 等 ${invalid.length} 个` : "");
    throw badRequest(
      `以下 GTIN 码无效（应为 8、12、13 或 14 位数字且校验位正确）：${named}`,
      undefined,
      invalid.slice(0, NAMED_INVALID).map((c) => ({ message: `无效的 GTIN 码：${c}`, members: ["codes"] })),
    );
  }
  if (!codes.length) throw badRequest("请输入 GTIN 码");
  const unique = [...new Set(codes)];
  const inserted = await ctx.tx
    .insert(gtinCodes)
    .values(unique.map((code) => ({ tenantId: ctx.tenantId, code, creatorId: ctx.user!.id })))
    .onConflictDoNothing()
    .returning({ code: gtinCodes.code });
  return { added: inserted.length, ignored: codes.length - inserted.length };
}

async function getCodeCount(ctx: CallContext): Promise<CodeCount> {
  const [r] = await ctx.tx
    .select({ total: count(), used: count(gtinCodes.listingId) })
    .from(gtinCodes)
    .where(eq(gtinCodes.tenantId, ctx.tenantId));
  return { unused: r.total - r.used, used: r.used, total: r.total };
}

async function clearCodes(ctx: CallContext): Promise<{ deleted: number }> {
  const gone = await ctx.tx
    .delete(gtinCodes)
    .where(and(eq(gtinCodes.tenantId, ctx.tenantId), isNull(gtinCodes.listingId)))
    .returning({ code: gtinCodes.code });
  return { deleted: gone.length };
}

export function createGtinService() {
  // takeGtinCodes and listingGtinCodes: how the publisher takes codes from the pool (deps.ts hands them over).
  return { setCodes, getCodeCount, clearCodes, takeGtinCodes, listingGtinCodes };
}
export type GtinService = ReturnType<typeof createGtinService>;

/**
 * Takes `count` unused codes of the tenant's pool for a listing, oldest first, and answers them; they are the
 * listing's from then on (when the caller's transaction commits). Concurrent takers lock different codes (`for update
 * skip locked`), so a code is never given twice. When fewer than `count` are free, none is taken (the partial take is
 * rolled back to a savepoint, which also releases its row locks) and a business error says how many are left.
 */
export async function takeGtinCodes(tx: Tx, tenantId: string, listingId: string, count: number): Promise<string[]> {
  if (!Number.isInteger(count) || count < 0) throw new Error(`takeGtinCodes: count must be a whole number, got ${count}`);
  if (count === 0) return [];
  await tx.execute(sql`savepoint gtin_take`);
  const taken = rowsOf<{ code: string; creation_time: string | Date }>(
    await tx.execute(sql`
      update ${gtinCodes} set listing_id = ${listingId}, used_time = now()
      where tenant_id = ${tenantId} and code in (
        select code from ${gtinCodes}
        where tenant_id = ${tenantId} and listing_id is null
        order by creation_time, code
        limit ${count}
        for update skip locked)
      returning code, creation_time`),
  );
  if (taken.length < count) {
    await tx.execute(sql`rollback to savepoint gtin_take`);
    await tx.execute(sql`release savepoint gtin_take`);
    throw businessError(`GTIN 码不足：需要 ${count} 个，剩余 ${taken.length} 个，请在 GTIN 管理中添加`, "Gtin.PoolExhausted");
  }
  await tx.execute(sql`release savepoint gtin_take`);
  return taken
    .sort((a, b) => new Date(a.creation_time).getTime() - new Date(b.creation_time).getTime() || (a.code < b.code ? -1 : 1))
    .map((r) => r.code);
}

/** The codes a listing took, in the order they were given (a retried publish job reuses them rather than taking more). */
export async function listingGtinCodes(tx: Tx, tenantId: string, listingId: string): Promise<string[]> {
  const rows = await tx
    .select({ code: gtinCodes.code })
    .from(gtinCodes)
    .where(and(eq(gtinCodes.tenantId, tenantId), eq(gtinCodes.listingId, listingId)))
    .orderBy(gtinCodes.creationTime, gtinCodes.code);
  return rows.map((r) => r.code);
}
