// The host's maintenance of one tenant (issue 31): restore or purge deleted products, clear the call log, clear the
// tenant's data (the long ones start a task and answer its id), clear caches and rebuild indexes (answered at once).
// Each reloads the tenant list (its figures may change). And for all tenants: the shared rate state tidied (RemoveDist)
// and the Mercado Libre calls per tenant over a period (GetStatLogStatics).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { tenantKeys } from "./get-tenants.ts";

function useTenantMutation<V, R>(mutationFn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => void queryClient.invalidateQueries({ queryKey: tenantKeys.all }) });
}

/** Restores the products deleted in [startTime, endTime). */
export const useReturnDelProduct = () =>
  useTenantMutation((v: { tenantId: string; startTime: string; endTime: string }) => api.tenantAdmin.returnDelProduct(v));

/** Deletes the deleted products for good. */
export const useRemoveAllDelProduct = () => useTenantMutation((tenantId: string) => api.tenantAdmin.removeAllDelProduct({ tenantId }));

/** Clears the whole marketplace call log. */
export const useClearMeliStat = () => useTenantMutation((tenantId: string) => api.tenantAdmin.clearMeliStat({ TenantId: tenantId }));

export const useClearTenantInfo = () =>
  useTenantMutation((v: { tenantId: string; confirmTenantName: string }) => api.tenantAdmin.clearTenantInfo(v));

/** Every cache of the tenant. */
export const useRemoveTenantCache = () =>
  useTenantMutation((tenantId: string) => api.tenantAdmin.removeTenantCache({ TenantId: tenantId }));

export const useCreateTenantMongoIndex = () =>
  useTenantMutation((tenantId: string) => api.tenantAdmin.createTenantMongoIndex({ TenantId: tenantId }));

/** Drops the idle rate buckets and the expired token refresh leases (all tenants'). */
export const useRemoveDist = () => useMutation({ mutationFn: () => api.tenantAdmin.removeDist() });

type StatLogQuery = Parameters<typeof api.tenantAdmin.getStatLogStatics>[0];

const statLogKeys = {
  all: ["hosted", "stat-log-statics"] as const,
  query: (q: StatLogQuery) => [...statLogKeys.all, q] as const,
};

const getStatLogStaticsQueryOptions = (q: StatLogQuery) =>
  queryOptions({
    queryKey: statLogKeys.query(q),
    queryFn: ({ signal }) => api.tenantAdmin.getStatLogStatics(q, { signal }),
    placeholderData: keepPreviousData,
  });

/** Calls per tenant, most first; asked only while the dialog is open with a valid period. */
export const useStatLogStatics = (q: StatLogQuery, enabled: boolean) => useQuery({ ...getStatLogStaticsQueryOptions(q), enabled });
