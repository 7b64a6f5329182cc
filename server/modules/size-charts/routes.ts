// Size chart calls (spec §7 MeliSizeChart PullMeliChart, GetMeliSizeCharts, GetMeliSizeChartCategories; CreateMeliChart
// is ours: the spec has no creation, and a seller without a chart could not publish fashion).
import type { Registrar } from "../../http/calls.ts";
import {
  createMeliChartBody,
  getMeliSizeChartsQuery,
  pullMeliChartQuery,
  pullMeliChartResult,
  sizeChart,
  sizeChartCategoryList,
  sizeChartList,
} from "#shared/contract/size-charts.ts";
import type { SizeChartService } from "./service.ts";

export function registerSizeCharts(r: Registrar, { sizeCharts }: { sizeCharts: SizeChartService }) {
  r.call({
    group: "MeliSizeChart",
    name: "PullMeliChart",
    method: "GET",
    access: "user",
    summary:
      "Reads the shop group's size charts from Mercado Libre for the fashion domains (or categories of them) named, and replaces the stored charts of those domains",
    query: pullMeliChartQuery,
    result: pullMeliChartResult,
    beforeTransaction: (call, { query }) =>
      sizeCharts.fetchCharts(call.req, { id: call.principal!.userId, isMain: call.principal!.isMainAccount }, call.tenantId, query),
    handler: (ctx, { query }) => sizeCharts.storeCharts(ctx, query.AccountGroupId),
  });
  r.call({
    group: "MeliSizeChart",
    name: "CreateMeliChart",
    method: "POST",
    access: "user",
    summary:
      "Creates a size chart on Mercado Libre for the category's fashion domain and a gender, one row per size (or adds the sizes an existing chart lacks), and stores it for the shop group",
    body: createMeliChartBody,
    result: sizeChart,
    beforeTransaction: (call, { body }) =>
      sizeCharts.createOnMeli(call.req, { id: call.principal!.userId, isMain: call.principal!.isMainAccount }, call.tenantId, body),
    handler: (ctx, { body }) => sizeCharts.storeCreated(ctx, body.accountGroupId),
  });
  r.call({
    group: "MeliSizeChart",
    name: "GetMeliSizeCharts",
    method: "GET",
    access: "user",
    summary: "The shop group's stored size charts with their rows (a chart is SIZE_GRID_ID, a row SIZE_GRID_ROW_ID)",
    query: getMeliSizeChartsQuery,
    result: sizeChartList,
    handler: (ctx, { query }) => sizeCharts.getMeliSizeCharts(ctx, query.accountGroupId),
  });
  r.call({
    group: "MeliSizeChart",
    name: "GetMeliSizeChartCategories",
    method: "GET",
    access: "user",
    summary: "The fashion domains per site that size charts exist for (domains whose categories have a GENDER attribute)",
    result: sizeChartCategoryList,
    handler: (ctx) => sizeCharts.getMeliSizeChartCategories(ctx),
  });
}
