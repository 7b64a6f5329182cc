// The host's actions on tenants: open an account, edit its remark, unlock it, reset the main account's password.
// Each reloads the tenant queries.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { tenantKeys } from "./get-tenants.ts";

/** What OpenTenantAccount takes (dates as Date or ISO string). */
export type OpenTenantBody = Parameters<typeof api.hosted.openTenantAccount>[0];

export const openTenant = (body: OpenTenantBody) => api.hosted.openTenantAccount(body);
export const editTenantRemark = (v: { id: string; remark: string }) => api.hosted.editRemark(v);
/** Clears the login lockout of every user of the tenant. */
export const unlockTenant = (tenantId: string) => api.hosted.unLockTenant({ tenantId });
/** Resets the main account's password: the given one, or (without pwd) a generated one that the answer shows once. */
export const resetTenantPassword = (v: { tenantId: string; pwd?: string }) =>
  api.hosted.resetTenantPassword({ TenantId: v.tenantId, ...(v.pwd ? { Pwd: v.pwd } : {}) });

function useInvalidateTenants() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: tenantKeys.all });
}

export function useOpenTenant({ mutationConfig }: MutationHookOptions<typeof openTenant> = {}) {
  const invalidate = useInvalidateTenants();
  return useMutation(withCallerConfig({ mutationFn: openTenant, onSuccess: () => invalidate() }, mutationConfig));
}

export function useEditTenantRemark({ mutationConfig }: MutationHookOptions<typeof editTenantRemark> = {}) {
  const invalidate = useInvalidateTenants();
  return useMutation(withCallerConfig({ mutationFn: editTenantRemark, onSuccess: () => invalidate() }, mutationConfig));
}

export function useUnlockTenant({ mutationConfig }: MutationHookOptions<typeof unlockTenant> = {}) {
  const invalidate = useInvalidateTenants();
  return useMutation(withCallerConfig({ mutationFn: unlockTenant, onSuccess: () => invalidate() }, mutationConfig));
}

export function useResetTenantPassword({ mutationConfig }: MutationHookOptions<typeof resetTenantPassword> = {}) {
  const invalidate = useInvalidateTenants();
  return useMutation(withCallerConfig({ mutationFn: resetTenantPassword, onSuccess: () => invalidate() }, mutationConfig));
}
