// Size chart calls (spec §7 MeliSizeChart).
import {
  createMeliChartBody,
  getMeliSizeChartsQuery,
  pullMeliChartQuery,
  pullMeliChartResult,
  sizeChartCategoryList,
  sizeChart,
  sizeChartList,
} from "../contract/size-charts.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const meliSizeChartCalls = {
  pullMeliChart: call({ method: "GET", path: "/api/MeliSizeChart/PullMeliChart", query: pullMeliChartQuery, result: pullMeliChartResult }),
  getMeliSizeCharts: call({
    method: "GET",
    path: "/api/MeliSizeChart/GetMeliSizeCharts",
    query: getMeliSizeChartsQuery,
    result: sizeChartList,
  }),
  createMeliChart: call({ method: "POST", path: "/api/MeliSizeChart/CreateMeliChart", body: createMeliChartBody, result: sizeChart }),
  getMeliSizeChartCategories: call({ method: "GET", path: "/api/MeliSizeChart/GetMeliSizeChartCategories", result: sizeChartCategoryList }),
};

export const createMeliSizeChartApi = (client: ApiClient) => bindCalls(client, meliSizeChartCalls);
export type MeliSizeChartApi = ReturnType<typeof createMeliSizeChartApi>;
