// Freight rules (spec §7 MeliOther): PullMeliFreight reads a site's freight table from Mercado Libre (before the call's
// transaction) and replaces the tenant's rules of that site with it; GetMeliFreights lists them; freightRulesOf gives
// publishing the rules it prices with (modules/publishing/plan.ts, when isContainsFreight).
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Tx } from "../../db/client.ts";
import { orderBy, pageOf } from "../../db/query.ts";
import { meliFreightRules } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest } from "../../http/errors.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import type { ShippingCosts } from "../../integrations/mercadolibre/public-reads.ts";
import type { FreightRule, FreightRulePage, getMeliFreightsQuery } from "../../../shared/contract/freight.ts";
import { MELI_SITES, type MeliSiteNumber } from "../../../shared/contract/meli.ts";

type Row = typeof meliFreightRules.$inferSelect;

const toRule = (r: Row): FreightRule => ({
  id: r.id,
  site: r.site as MeliSiteNumber,
  start: Number(r.start),
  end: Number(r.end),
  freight: Number(r.freight),
  currency: r.currency,
  creationTime: r.creationTime.toISOString(),
});

/** The table read before the transaction, for the handler of the same request. */
const fetched = new WeakMap<FastifyRequest, ShippingCosts>();

/** A table we can store: bands in order, each over the last, none empty. */
function checkTable(table: ShippingCosts, currency: string) {
  if (table.currency_id.toUpperCase() !== currency) throw badRequest(`美客多返回的运费币种${table.currency_id}与站点币种${currency}不符`);
  if (!table.costs.length) throw badRequest("美客多没有返回该站点的运费表");
  let last = -1;
  for (const c of table.costs) {
    if (c.to_weight <= c.from_weight || c.from_weight < last) throw badRequest("美客多返回的运费表重量区间有误");
    last = c.to_weight;
  }
}

export function createFreightService({ meli }: { meli: MeliClient }) {
  return {
    /** Reads the site's table from Mercado Libre; no transaction is open. */
    async fetchTable(req: FastifyRequest, site: MeliSiteNumber) {
      const table = await meli.catalog.shippingCosts(MELI_SITES[site].meli);
      checkTable(table, MELI_SITES[site].currency);
      fetched.set(req, table);
    },

    /** Replaces the tenant's rules of the site with the table just read. */
    async storeTable(ctx: CallContext, site: MeliSiteNumber) {
      const table = fetched.get(ctx.req)!;
      await ctx.tx.delete(meliFreightRules).where(and(eq(meliFreightRules.tenantId, ctx.tenantId), eq(meliFreightRules.site, site)));
      await ctx.tx.insert(meliFreightRules).values(
        table.costs.map((c) => ({
          tenantId: ctx.tenantId,
          id: randomUUID(),
          site,
          start: String(c.from_weight),
          end: String(c.to_weight),
          freight: String(c.cost),
          currency: table.currency_id.toUpperCase(),
          creatorId: ctx.user?.id ?? null,
        })),
      );
      return { site, count: table.costs.length, currency: table.currency_id.toUpperCase() };
    },

    async getMeliFreights(ctx: CallContext, q: z.output<typeof getMeliFreightsQuery>): Promise<FreightRulePage> {
      const conditions: SQL[] = [eq(meliFreightRules.tenantId, ctx.tenantId)];
      if (q.Site) conditions.push(eq(meliFreightRules.site, q.Site));
      const columns = {
        site: meliFreightRules.site,
        start: meliFreightRules.start,
        end: meliFreightRules.end,
        freight: meliFreightRules.freight,
        creationTime: meliFreightRules.creationTime,
      };
      return pageOf(
        ctx.tx,
        meliFreightRules,
        and(...conditions),
        {
          skip: q.SkipCount,
          take: q.MaxResultCount,
          order: [
            orderBy(q.Sorting, columns, asc(meliFreightRules.site)),
            asc(meliFreightRules.site),
            asc(meliFreightRules.start),
            asc(meliFreightRules.id),
          ],
        },
        toRule,
      );
    },
  };
}
export type FreightService = ReturnType<typeof createFreightService>;

/** The tenant's rules of these sites, by site, in weight order (publishing's price formula reads them). */
export async function freightRulesOf(tx: Tx, tenantId: string, sites: number[]): Promise<Map<number, FreightRule[]>> {
  const out = new Map<number, FreightRule[]>();
  if (!sites.length) return out;
  const rows = await tx
    .select()
    .from(meliFreightRules)
    .where(and(eq(meliFreightRules.tenantId, tenantId), inArray(meliFreightRules.site, [...new Set(sites)])))
    .orderBy(asc(meliFreightRules.site), asc(meliFreightRules.start));
  for (const r of rows) {
    const list = out.get(r.site) ?? [];
    list.push(toRule(r));
    out.set(r.site, list);
  }
  return out;
}
