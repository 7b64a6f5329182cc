// CreateMeliChart (ours): a seller without a chart creates one from the product's sizes, where the chart is picked (the
// console's publish screen, the side panel). On Mercado Libre: a SPECIFIC chart for the category's domain (without the
// site prefix) and a GENDER of it, main attribute SIZE, a row per size (POST /catalog/charts); or, with chartId, the
// sizes an existing chart of the group lacks added as rows (POST /catalog/charts/{id}/rows, then GET /catalog/charts/{id}).
// Done before the call's transaction; the chart is then stored for the group and answered, so it can be picked at once.
import { and, eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Database } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { meliSizeCharts } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import { addChartRow, createChart, getChart, type MeliChart } from "../../integrations/mercadolibre/endpoints/size-charts.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import type { CreateMeliChartBody, SizeChart } from "#shared/contract/size-charts.ts";
import { gendersOf, storedChart, toChart, upsertCharts, visibleGroup, type Who } from "./chart-data.ts";

type Created = { site: MeliSiteNumber; domainId: string; chart: MeliChart };
const created = new WeakMap<FastifyRequest, Created>();

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .trim()
    .toLowerCase();

export function createChartCreation({ database, meli }: { database: Database; meli: MeliClient }) {
  return {
    /** Checks the group, the category and the gender, then creates (or completes) the chart on Mercado Libre. */
    async createOnMeli(req: FastifyRequest, who: Who, tenantId: string, b: CreateMeliChartBody): Promise<void> {
      const site = b.site as MeliSiteNumber;
      const plan = await inScope(database.db, { tenantId }, async (tx) => {
        const group = await visibleGroup(tx, tenantId, who, b.accountGroupId);
        if (!group.sites.includes(site)) throw badRequest(`该店铺没有${MELI_SITES[site].name}站点`);
        const [category] = rowsOf<{ domainId: string | null }>(
          await tx.execute(sql`select g.domain_id as "domainId" from meli_categories c
            join meli_gender_mappings g on g.site = c.site and g.domain_id = c.domain
            where c.site = ${site} and c.cate_id = ${b.cateId}`),
        );
        if (!category?.domainId) throw badRequest(`类目 ${b.cateId} 不需要尺码表（只有服装鞋类等有性别属性的类目才有尺码表）`);
        const genders = await gendersOf(tx, site, category.domainId);
        const gender = genders.find((g) => g.id === b.gender || fold(g.name) === fold(b.gender));
        if (!gender) throw badRequest(`性别「${b.gender}」不是该类目的取值，可选：${genders.map((g) => g.name).join("、")}`);
        const [existing] = b.chartId
          ? await tx
              .select()
              .from(meliSizeCharts)
              .where(
                and(
                  eq(meliSizeCharts.tenantId, tenantId),
                  eq(meliSizeCharts.accountGroupId, b.accountGroupId),
                  eq(meliSizeCharts.chartId, b.chartId),
                  eq(meliSizeCharts.site, site),
                ),
              )
          : [];
        if (b.chartId && !existing) throw notFound("尺码表不存在，请先同步尺码表");
        return { domainId: category.domainId, gender, existing: existing ? toChart(existing) : null };
      });
      const shop = meli.shop({ tenantId, groupId: b.accountGroupId });
      let chart: MeliChart;
      if (plan.existing) {
        const main = plan.existing.mainAttributeId ?? "SIZE";
        const have = new Set(plan.existing.rows.map((r) => fold(r.label)));
        const missing = b.sizes.filter((s) => !have.has(fold(s)));
        if (!missing.length) throw badRequest(`尺码表「${plan.existing.name}」已有这些尺码`);
        for (const size of missing) await addChartRow(shop, plan.existing.chartId, [{ id: main, values: [size] }]);
        chart = await getChart(shop, plan.existing.chartId);
      } else {
        chart = await createChart(shop, {
          name: b.name,
          domainId: plan.domainId,
          siteId: MELI_SITES[site].meli,
          gender: plan.gender,
          mainAttributeId: "SIZE",
          rows: b.sizes.map((size) => [{ id: "SIZE", values: [size] }]),
        });
      }
      created.set(req, { site, domainId: plan.domainId, chart });
    },

    /** Stores the chart just created for the group and answers it. */
    async storeCreated(ctx: CallContext, groupId: string): Promise<SizeChart> {
      const c = created.get(ctx.req)!;
      const [row] = await upsertCharts(ctx.tx, [storedChart(ctx.tenantId, groupId, c.site, c.domainId, c.chart)]);
      return toChart(row);
    },
  };
}
