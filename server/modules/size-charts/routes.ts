// Size chart calls, declared in shared/api/size-charts.ts.
import type { Registrar } from "../../http/calls.ts";
import { meliSizeChartCalls as calls } from "#shared/api/size-charts.ts";
import type { SizeChartService } from "./service.ts";

export function registerSizeCharts(r: Registrar, { sizeCharts }: { sizeCharts: SizeChartService }) {
  r.handle(calls.pullMeliChart, {
    beforeTransaction: (call, { query }) =>
      sizeCharts.fetchCharts(call.req, { id: call.principal!.userId, isMain: call.principal!.isMainAccount }, call.tenantId, query),
    handler: (ctx, { query }) => sizeCharts.storeCharts(ctx, query.AccountGroupId),
  });
  r.handle(calls.createMeliChart, {
    beforeTransaction: (call, { body }) =>
      sizeCharts.createOnMeli(call.req, { id: call.principal!.userId, isMain: call.principal!.isMainAccount }, call.tenantId, body),
    handler: (ctx, { body }) => sizeCharts.storeCreated(ctx, body.accountGroupId),
  });
  r.handle(calls.getMeliSizeCharts, { handler: (ctx, { query }) => sizeCharts.getMeliSizeCharts(ctx, query.accountGroupId) });
  r.handle(calls.getMeliSizeChartCategories, { handler: (ctx) => sizeCharts.getMeliSizeChartCategories(ctx) });
}
