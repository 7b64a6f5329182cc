// One tenant's statistics over a period (GetTenantStatisticsInfo): its totals, a point per day for the charts and each
// user's figures.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import type { StatisticsPeriod } from "../statistics-series.ts";

const statisticsKeys = {
  all: ["hosted", "tenant-statistics"] as const,
  tenant: (tenantId: string, p: StatisticsPeriod) => [...statisticsKeys.all, tenantId, p.start, p.end] as const,
};

const getTenantStatisticsQueryOptions = (tenantId: string, p: StatisticsPeriod) =>
  queryOptions({
    queryKey: statisticsKeys.tenant(tenantId, p),
    queryFn: ({ signal }) =>
      api.tenantAdmin.getTenantStatisticsInfo(
        { TenantId: tenantId, StartDate: p.start, EndDate: p.end, SkipCount: 0, MaxResultCount: 1 },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

/** Nothing is asked without a tenant or with a period the server would refuse. */
export const useTenantStatistics = (tenantId: string | null, p: StatisticsPeriod, enabled: boolean) =>
  useQuery({ ...getTenantStatisticsQueryOptions(tenantId ?? "", p), enabled: !!tenantId && enabled });
