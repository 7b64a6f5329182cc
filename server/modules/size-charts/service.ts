// Size charts (spec §7 MeliSizeChart). PullMeliChart searches the shop group's charts on Mercado Libre for the fashion
// domains asked (before the call's transaction: the group is checked in a short transaction of its own first) and
// replaces the group's stored charts of those domains; GetMeliSizeCharts lists a group's charts, and
// GetMeliSizeChartCategories the domains charts exist for (the gender mappings the attribute sync builds).
import { randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Database, Tx } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { meliAccountGroups, meliAccounts, meliSizeCharts } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import type { Principal } from "../../http/auth.ts";
import { MELI_SITES, type MeliSiteNumber } from "../../../shared/contract/meli.ts";
import type { pullMeliChartQuery, SizeChart, SizeChartCategory } from "../../../shared/contract/size-charts.ts";

type ChartValue = { id?: string; name: string };
type ChartAttribute = { id: string; values?: ChartValue[] };
type MeliChart = {
  id: string;
  names?: Record<string, string>;
  domain_id: string;
  site_id: string;
  type?: string;
  main_attribute_id?: string;
  main_attribute?: { attributes?: { id?: string }[] };
  attributes?: ChartAttribute[];
  rows?: { id: string; attributes?: ChartAttribute[] }[];
};
type Pulled = { site: MeliSiteNumber; domainId: string; charts: MeliChart[] };

const pulled = new WeakMap<FastifyRequest, Pulled[]>();

const toChart = (r: typeof meliSizeCharts.$inferSelect): SizeChart => ({
  id: r.id,
  accountGroupId: r.accountGroupId,
  chartId: r.chartId,
  site: r.site as MeliSiteNumber,
  domainId: r.domainId,
  name: r.name,
  chartType: r.chartType,
  gender: r.gender,
  mainAttributeId: r.mainAttributeId,
  rows: (r.rows ?? []) as SizeChart["rows"],
  fetchedAt: r.fetchedAt.toISOString(),
});

/** The group in the caller's tenant (a sub-account: one it has a shop of) with its shops' sites, or 404. */
async function visibleGroup(tx: Tx, tenantId: string, who: { id: string; isMain: boolean }, groupId: string) {
  const [group] = await tx
    .select({ id: meliAccountGroups.id, isCbt: meliAccountGroups.isCbt })
    .from(meliAccountGroups)
    .where(and(eq(meliAccountGroups.tenantId, tenantId), eq(meliAccountGroups.id, groupId)));
  const shops = group
    ? await tx
        .select({ site: meliAccounts.site, ownerId: meliAccounts.ownerId })
        .from(meliAccounts)
        .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.groupId, groupId)))
    : [];
  if (!group || (!who.isMain && !shops.some((s) => s.ownerId === who.id))) throw notFound("店铺不存在");
  return { ...group, sites: [...new Set(shops.map((s) => s.site as MeliSiteNumber))] };
}

/** Each entry as (site, domain): a domain id with a gender mapping, or a category id of such a domain, on the group's sites. */
async function domainsOf(tx: Tx, entries: string[], sites: MeliSiteNumber[]): Promise<{ site: MeliSiteNumber; domainId: string }[]> {
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
  const out = found.filter((f) => sites.includes(f.site as MeliSiteNumber));
  if (!out.length) throw badRequest("所选类目不在此店铺的站点上");
  const seen = new Set<string>();
  return out
    .filter((f) => !seen.has(`${f.site}|${f.domainId}`) && !!seen.add(`${f.site}|${f.domainId}`))
    .map((f) => ({ site: f.site as MeliSiteNumber, domainId: f.domainId }));
}

const valuesOf = (attrs: ChartAttribute[] | undefined, id: string | undefined) =>
  (attrs ?? []).find((a) => a.id === id)?.values?.map((v) => v.name) ?? [];

function chartRow(tenantId: string, groupId: string, site: MeliSiteNumber, domainId: string, c: MeliChart) {
  const code = MELI_SITES[site].meli;
  const main = c.main_attribute_id ?? c.main_attribute?.attributes?.[0]?.id ?? null;
  const names = c.names ?? {};
  return {
    tenantId,
    id: randomUUID(),
    accountGroupId: groupId,
    chartId: String(c.id),
    site,
    domainId: c.domain_id || domainId,
    name: names[code] ?? Object.values(names)[0] ?? String(c.id),
    chartType: c.type ?? "SPECIFIC",
    gender: valuesOf(c.attributes, "GENDER")[0] ?? null,
    mainAttributeId: main,
    rows: (c.rows ?? []).map((r) => ({ id: String(r.id), label: valuesOf(r.attributes, main ?? undefined).join(" / ") || String(r.id) })),
  };
}

export function createSizeChartService({ database, meli }: { database: Database; meli: MeliClient }) {
  return {
    /** Checks the group, resolves the domains and searches their charts on Mercado Libre; no transaction is held. */
    async fetchCharts(
      req: FastifyRequest,
      principal: Principal | null,
      tenantId: string,
      q: z.output<typeof pullMeliChartQuery>,
    ): Promise<void> {
      const who = { id: principal!.userId, isMain: principal!.isMainAccount };
      const entries = [...new Set((q.Categories ?? []).map((c) => c.trim()))];
      const domains = await inScope(database.db, { tenantId }, async (tx) => {
        const group = await visibleGroup(tx, tenantId, who, q.AccountGroupId);
        if (!entries.length) throw badRequest("请至少选择一个类目");
        return domainsOf(tx, entries, group.sites);
      });
      const shop = meli.shop({ tenantId, groupId: q.AccountGroupId });
      const out: Pulled[] = [];
      for (const d of domains) {
        const answer = await shop.send<{ charts?: MeliChart[] }>("POST", "/catalog/charts/search", {
          body: { domain_id: d.domainId, site_id: MELI_SITES[d.site].meli },
          retryUnsure: true,
        });
        out.push({ ...d, charts: Array.isArray(answer?.charts) ? answer.charts : [] });
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
      const rows = found.flatMap((d) => d.charts.map((c) => chartRow(ctx.tenantId, groupId, d.site, d.domainId, c)));
      if (rows.length)
        await ctx.tx
          .insert(meliSizeCharts)
          .values(rows)
          .onConflictDoUpdate({
            target: [meliSizeCharts.tenantId, meliSizeCharts.accountGroupId, meliSizeCharts.chartId],
            set: {
              name: sql`excluded.name`,
              rows: sql`excluded.rows`,
              gender: sql`excluded.gender`,
              domainId: sql`excluded.domain_id`,
              fetchedAt: sql`now()`,
            },
          });
      return { count: rows.length, domains: found.length };
    },

    async getMeliSizeCharts(ctx: CallContext, groupId: string): Promise<SizeChart[]> {
      const u = ctx.user!;
      await visibleGroup(ctx.tx, ctx.tenantId, { id: u.id, isMain: u.isMainAccount }, groupId);
      const rows = await ctx.tx
        .select()
        .from(meliSizeCharts)
        .where(and(eq(meliSizeCharts.tenantId, ctx.tenantId), eq(meliSizeCharts.accountGroupId, groupId)))
        .orderBy(asc(meliSizeCharts.site), asc(meliSizeCharts.domainId), asc(meliSizeCharts.name), asc(meliSizeCharts.id));
      return rows.map(toChart);
    },

    async getMeliSizeChartCategories(ctx: CallContext): Promise<SizeChartCategory[]> {
      const rows = rowsOf<{ site: number; domainId: string; alias: string | null; genderAttrId: string }>(
        await ctx.tx.execute(sql`select site, domain_id as "domainId", alias, gender_attr_id as "genderAttrId"
          from meli_gender_mappings order by site, alias nulls last, domain_id`),
      );
      return rows.map((r) => ({
        site: r.site as MeliSiteNumber,
        domainId: r.domainId,
        name: r.alias ?? r.domainId,
        genderAttrId: r.genderAttrId,
      }));
    },
  };
}
export type SizeChartService = ReturnType<typeof createSizeChartService>;
