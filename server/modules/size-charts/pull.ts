// PullMeliChart: the shop group's charts of the fashion domains asked, searched on Mercado Libre the documented way
// (POST /catalog/charts/search: domain without the site prefix, the seller, and the GENDER and BRAND filters the search
// requires: every gender of the domain, with each of the group's brands), then the group's stored charts of those
// domains replaced. The search runs before the call's transaction (the group is checked in a short one of its own).
import { and, eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Database, Tx } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { meliSizeCharts } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest } from "../../http/errors.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import { searchCharts, type MeliChart } from "../../integrations/mercadolibre/endpoints/size-charts.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import type { pullMeliChartQuery } from "#shared/contract/size-charts.ts";
import { brandsOf, gendersOf, storedChart, upsertCharts, visibleGroup, type Who } from "./chart-data.ts";

type Domain = { site: MeliSiteNumber; domainId: string };
type Pulled = Domain & { charts: MeliChart[] };

const pulled = new WeakMap<FastifyRequest, Pulled[]>();
const PAGE = 50;

/** Each entry as (site, domain): a domain id with a gender mapping, or a category id of such a domain, on the group's sites. */
async function domainsOf(tx: Tx, entries: string[], sites: MeliSiteNumber[]): Promise<Domain[]> {
  const list = JSON.stringify(entries);
  const found = rowsOf<{ entry: string; site: number; domainId: string }>(
    await tx.execute(sql`
      select e.entry, g.site, g.domain_id as "domainId"
      from jsonb_array_elements_text(${list}::jsonb) as e(entry)
      join meli_gender_mappings g on g.domain_id = e.entry
      union
      select e.entry, g.site, g.domain_id
      from jsonb_array_elements_text(${list}::jsonb) as e(entry)
      join meli_categories c on c.cate_id = e.entry
      join meli_gender_mappings g on g.site = c.site and g.domain_id = c.domain`),
  );
  const unknown = entries.filter((e) => !found.some((f) => f.entry === e));
  if (unknown.length) throw badRequest(`没有尺码表的类目：${unknown.join("、")}（只有服装鞋类等有性别属性的类目可以同步尺码表）`);
  // Charts are a marketplace site's (global selling's categories ask for none).
  const out = found.filter((f) => f.site !== 5 && sites.includes(f.site as MeliSiteNumber));
  if (!out.length) throw badRequest("所选类目不在此店铺的站点上");
  const seen = new Set<string>();
  return out
    .filter((f) => !seen.has(`${f.site}|${f.domainId}`) && !!seen.add(`${f.site}|${f.domainId}`))
    .map((f) => ({ site: f.site as MeliSiteNumber, domainId: f.domainId }));
}

export function createChartPull({ database, meli }: { database: Database; meli: MeliClient }) {
  return {
    /** Checks the group, resolves the domains and their genders, and searches their charts; no transaction is held. */
    async fetchCharts(req: FastifyRequest, who: Who, tenantId: string, q: z.output<typeof pullMeliChartQuery>): Promise<void> {
      const entries = [...new Set((q.Categories ?? []).map((c) => c.trim()))];
      const plan = await inScope(database.db, { tenantId }, async (tx) => {
        const group = await visibleGroup(tx, tenantId, who, q.AccountGroupId);
        if (!entries.length) throw badRequest("请至少选择一个类目");
        const domains = await domainsOf(tx, entries, group.sites);
        const withGenders = [];
        for (const d of domains) withGenders.push({ ...d, genders: await gendersOf(tx, d.site, d.domainId) });
        return { group, domains: withGenders, brands: brandsOf(group, q.Brand) };
      });
      const shop = meli.shop({ tenantId, groupId: q.AccountGroupId });
      const out: Pulled[] = [];
      for (const d of plan.domains) {
        const sellerId = plan.group.shops.find((s) => s.site === d.site)!.custId;
        const charts = new Map<string, MeliChart>();
        for (const gender of d.genders)
          for (const brand of plan.brands)
            for (let offset = 0; ; offset += PAGE) {
              const page = await searchCharts(shop, {
                domainId: d.domainId,
                siteId: MELI_SITES[d.site].meli,
                sellerId,
                gender,
                brand,
                offset,
                limit: PAGE,
              });
              for (const c of page.charts) charts.set(c.id, c);
              if (!page.charts.length || offset + PAGE >= page.paging.total) break;
            }
        out.push({ site: d.site, domainId: d.domainId, charts: [...charts.values()] });
      }
      pulled.set(req, out);
    },

    /** Replaces the group's charts of the domains just searched. */
    async storeCharts(ctx: CallContext, groupId: string) {
      const found = pulled.get(ctx.req)!;
      for (const d of found) {
        await ctx.tx
          .delete(meliSizeCharts)
          .where(
            and(
              eq(meliSizeCharts.tenantId, ctx.tenantId),
              eq(meliSizeCharts.accountGroupId, groupId),
              eq(meliSizeCharts.site, d.site),
              eq(meliSizeCharts.domainId, d.domainId),
            ),
          );
      }
      const rows = found.flatMap((d) => d.charts.map((c) => storedChart(ctx.tenantId, groupId, d.site, d.domainId, c)));
      await upsertCharts(ctx.tx, rows);
      return { count: rows.length, domains: found.length };
    },
  };
}
