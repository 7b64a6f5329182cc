// Freight rules (spec §7 MeliOther): PullMeliFreight quotes a site's freight table from Mercado Libre (quote.ts, before
// the call's transaction, with one of the tenant's authorized shops of that site) and replaces the tenant's rules of
// that site with it; GetMeliFreights lists them; freightRulesOf gives publishing the rules it prices with
// (modules/publishing/plan.ts, when isContainsFreight).
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Database, Tx } from "../../db/client.ts";
import { orderBy, pageOf } from "../../db/query.ts";
import { meliAccountGroups, meliAccounts, meliFreightRules } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest } from "../../http/errors.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import type { FreightRule, FreightRulePage, getMeliFreightsQuery } from "#shared/contract/freight.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import { quoteGlobalTable, quoteLocalTable, type QuotedTable } from "./quote.ts";

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

/** The table quoted before the transaction, for the handler of the same request. */
const fetched = new WeakMap<FastifyRequest, QuotedTable>();

/**
 * The shop the site's table is quoted for: a local site's own (not a global seller's marketplace user, whose listings
 * are priced with global selling's table), global selling's a global seller; authorized and enabled, oldest first.
 */
async function quotingShop(tx: Tx, tenantId: string, site: MeliSiteNumber) {
  const isCbt = site === 5;
  const [shop] = await tx
    .select({ groupId: meliAccountGroups.id, custId: isCbt ? meliAccountGroups.custId : meliAccounts.custId })
    .from(meliAccounts)
    .innerJoin(
      meliAccountGroups,
      and(eq(meliAccountGroups.tenantId, meliAccounts.tenantId), eq(meliAccountGroups.id, meliAccounts.groupId)),
    )
    .where(
      and(
        eq(meliAccounts.tenantId, tenantId),
        eq(meliAccountGroups.isCbt, isCbt),
        eq(meliAccountGroups.authStatus, 1),
        eq(meliAccounts.isEnabled, true),
        isCbt ? undefined : eq(meliAccounts.site, site),
      ),
    )
    .orderBy(asc(meliAccounts.creationTime), asc(meliAccounts.id))
    .limit(1);
  if (!shop)
    throw badRequest(
      isCbt
        ? "没有已授权的跨境（CBT）店铺，无法向美客多查询跨境运费"
        : `${MELI_SITES[site].name}站点没有已授权的本地店铺，无法向美客多查询运费`,
    );
  return shop;
}

export function createFreightService({ database, meli }: { database: Database; meli: MeliClient }) {
  return {
    /** Quotes the site's table on Mercado Libre with one of the tenant's shops; no transaction is held meanwhile. */
    async fetchTable(req: FastifyRequest, tenantId: string, site: MeliSiteNumber) {
      const shop = await inScope(database.db, { tenantId }, (tx) => quotingShop(tx, tenantId, site));
      const session = meli.shop({ tenantId, groupId: shop.groupId });
      const table =
        site === 5 ? await quoteGlobalTable(session) : await quoteLocalTable(session, shop.custId, site, MELI_SITES[site].currency);
      fetched.set(req, table);
    },

    /** Replaces the tenant's rules of the site with the table just quoted. */
    async storeTable(ctx: CallContext, site: MeliSiteNumber) {
      const table = fetched.get(ctx.req)!;
      await ctx.tx.delete(meliFreightRules).where(and(eq(meliFreightRules.tenantId, ctx.tenantId), eq(meliFreightRules.site, site)));
      await ctx.tx.insert(meliFreightRules).values(
        table.bands.map((b) => ({
          tenantId: ctx.tenantId,
          id: randomUUID(),
          site,
          start: String(b.start),
          end: String(b.end),
          freight: String(b.freight),
          currency: table.currency,
          creatorId: ctx.user?.id ?? null,
        })),
      );
      return { site, count: table.bands.length, currency: table.currency };
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
    /** The tenant's rules by site: publishing's price formula reads them (deps.ts hands them over). */
    freightRulesOf,
  };
}
export type FreightService = ReturnType<typeof createFreightService>;

/** The tenant's rules of these sites, by site, in weight order (publishing's price formula reads them). */
async function freightRulesOf(tx: Tx, tenantId: string, sites: number[]): Promise<Map<number, FreightRule[]>> {
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
