// The host's tenant list (GetTenants) and one tenant's main account summary (GetTenantUserInfo).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export type TenantListQuery = { Search?: string; IsActive?: boolean; Sorting?: string; SkipCount: number; MaxResultCount: number };

export const tenantKeys = {
  all: ["hosted", "tenants"] as const,
  lists: () => [...tenantKeys.all, "list"] as const,
  list: (q: TenantListQuery) => [...tenantKeys.lists(), q] as const,
  userInfo: (tenantId: string) => [...tenantKeys.all, "user-info", tenantId] as const,
};

const getTenantsQueryOptions = (q: TenantListQuery) =>
  queryOptions({
    queryKey: tenantKeys.list(q),
    queryFn: ({ signal }) => api.hosted.getTenants(q, { signal }),
    placeholderData: keepPreviousData,
  });

/** The main account's summary, read fresh each time the dialog opens. */
const getTenantUserInfoQueryOptions = (tenantId: string | null) =>
  queryOptions({
    queryKey: tenantKeys.userInfo(tenantId ?? ""),
    queryFn: ({ signal }) => api.hosted.getTenantUserInfo({ TenantId: tenantId! }, { signal }),
    enabled: !!tenantId,
    staleTime: 0,
  });

export const useTenants = (q: TenantListQuery) => useQuery(getTenantsQueryOptions(q));

export const useTenantUserInfo = (tenantId: string | null) => useQuery(getTenantUserInfoQueryOptions(tenantId));
