// Currency rates (spec §7 Currency): CNY for one unit of each currency, seeded at first start (server/bootstrap.ts) and
// edited by the host. CNY is the base: it always exists, keeps its code and has rate 1.
import { randomUUID } from "node:crypto";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import { currencies } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError, notFound } from "../../http/errors.ts";
import { BASE_CURRENCY, type createOrUpdateCurrencyInput, type Currency } from "#shared/contract/settings.ts";

type CurrencyRow = typeof currencies.$inferSelect;

/** numeric(18,8) comes back as "7.10000000"; the wire carries the shortest exact form ("7.1", "1"). */
function formatRate(rate: string): string {
  return rate.includes(".") ? rate.replace(/0+$/, "").replace(/\.$/, "") : rate;
}

function toCurrency(c: CurrencyRow): Currency {
  return { id: c.id, creationTime: c.creationTime.toISOString(), code: c.code, zh: c.zh, rate: formatRate(c.rate) };
}

/** Every currency, the base currency first, then by code. */
export async function getAllCurrency(ctx: CallContext): Promise<Currency[]> {
  const rows = await ctx.tx
    .select()
    .from(currencies)
    .orderBy(sql`${currencies.code} <> ${BASE_CURRENCY}`, asc(currencies.code));
  return rows.map(toCurrency);
}

async function findCurrency(ctx: CallContext, id: string): Promise<CurrencyRow> {
  const rows = await ctx.tx.select().from(currencies).where(eq(currencies.id, id)).limit(1);
  if (!rows[0]) throw notFound("币种不存在");
  return rows[0];
}

/**
 * Creates or changes a currency; `rateChanged` hears each code whose rate moved (a new code, a changed rate, the old
 * and new code of a renamed one), in the call's transaction (issue 32: the listings' margins are computed again).
 */
export async function createOrUpdateCurrency(
  ctx: CallContext,
  body: z.output<typeof createOrUpdateCurrencyInput>,
  rateChanged: (code: string) => Promise<unknown> = async () => {},
): Promise<Currency> {
  const current = body.id ? await findCurrency(ctx, body.id) : null;
  if (current?.code === BASE_CURRENCY && body.code !== BASE_CURRENCY) throw businessError("人民币是基准币种，不能修改代码");
  if (body.code === BASE_CURRENCY && Number(body.rate) !== 1) throw businessError("人民币是基准币种，汇率必须为1");
  const taken = await ctx.tx
    .select({ id: currencies.id })
    .from(currencies)
    .where(current ? and(eq(currencies.code, body.code), ne(currencies.id, current.id)) : eq(currencies.code, body.code))
    .limit(1);
  if (taken.length) throw businessError(`币种 ${body.code} 已存在`, "DuplicateCurrency");
  const values = { code: body.code, zh: body.zh, rate: body.rate };
  if (current) {
    const [row] = await ctx.tx
      .update(currencies)
      .set({ ...values, lastModificationTime: new Date(), lastModifierId: ctx.user!.id })
      .where(eq(currencies.id, current.id))
      .returning();
    if (current.code !== row.code) await rateChanged(current.code);
    if (current.code !== row.code || Number(current.rate) !== Number(row.rate)) await rateChanged(row.code);
    return toCurrency(row);
  }
  const [row] = await ctx.tx
    .insert(currencies)
    .values({ id: randomUUID(), ...values, creatorId: ctx.user!.id })
    .returning();
  await rateChanged(row.code);
  return toCurrency(row);
}

/** Answers the deleted currency's code (the listings priced in it lose their margin: issue 32). */
export async function deleteCurrency(ctx: CallContext, id: string): Promise<string> {
  const current = await findCurrency(ctx, id);
  if (current.code === BASE_CURRENCY) throw businessError("人民币是基准币种，不能删除");
  await ctx.tx.delete(currencies).where(eq(currencies.id, current.id));
  return current.code;
}
