// The host's maintenance of one tenant (issue 31): restore or purge deleted products, clear the call log, clear the
// tenant's data (the long ones start a task and answer its id), clear caches and rebuild indexes (answered at once).
// Each reloads the tenant list (its figures may change).
import { useMutation, useQueryClient } from "@tanstack/react-query";
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
