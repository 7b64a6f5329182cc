// Size charts (spec §7 MeliSizeChart). PullMeliChart searches the shop group's charts on Mercado Libre for the fashion
// domains asked and replaces the group's stored ones (pull.ts); CreateMeliChart (ours) creates one from the product's
// sizes (create.ts); GetMeliSizeCharts lists a group's charts, and GetMeliSizeChartCategories the domains charts exist
// for (the gender mappings the attribute sync builds).
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { meliSizeCharts } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import type { MeliSiteNumber } from "#shared/contract/meli.ts";
import type { SizeChart, SizeChartCategory } from "#shared/contract/size-charts.ts";
import { toChart, visibleGroup } from "./chart-data.ts";
import { createChartCreation } from "./create.ts";
import { createChartPull } from "./pull.ts";

export function createSizeChartService(deps: { database: Database; meli: MeliClient }) {
  return {
    ...createChartPull(deps),
    ...createChartCreation(deps),

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
