// Size chart calls (spec §7 MeliSizeChart PullMeliChart, GetMeliSizeCharts, GetMeliSizeChartCategories; CreateMeliChart
// is ours: the spec has no creation, and a seller without a chart could not publish fashion).
import {
  createMeliChartBody,
  getMeliSizeChartsQuery,
  pullMeliChartQuery,
  pullMeliChartResult,
  sizeChartCategoryList,
  sizeChart,
  sizeChartList,
} from "../contract/size-charts.ts";
import { call } from "./define.ts";

const group = "MeliSizeChart";

export const meliSizeChartCalls = {
  pullMeliChart: call({
    group,
    name: "PullMeliChart",
    method: "GET",
    access: "user",
    summary:
      "Reads the shop group's size charts from Mercado Libre for the fashion domains (or categories of them) named, and replaces the stored charts of those domains",
    query: pullMeliChartQuery,
    result: pullMeliChartResult,
  }),
  getMeliSizeCharts: call({
    group,
    name: "GetMeliSizeCharts",
    method: "GET",
    access: "user",
    summary: "The shop group's stored size charts with their rows (a chart is SIZE_GRID_ID, a row SIZE_GRID_ROW_ID)",
    query: getMeliSizeChartsQuery,
    result: sizeChartList,
  }),
  createMeliChart: call({
    group,
    name: "CreateMeliChart",
    method: "POST",
    access: "user",
    summary:
      "Creates a size chart on Mercado Libre for the category's fashion domain and a gender, one row per size (or adds the sizes an existing chart lacks), and stores it for the shop group",
    body: createMeliChartBody,
    result: sizeChart,
  }),
  getMeliSizeChartCategories: call({
    group,
    name: "GetMeliSizeChartCategories",
    method: "GET",
    access: "user",
    summary: "The fashion domains per site that size charts exist for (domains whose categories have a GENDER attribute)",
    result: sizeChartCategoryList,
  }),
};
