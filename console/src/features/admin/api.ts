// Server state of the host's admin screens: the tenant list and its actions (api.hosted) and the system settings
// (api.settings). Query keys per entity; every mutation invalidates its list. Errors are shown once, by the query
// client's global handler.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateOrUpdateSettingInput } from "@shared/contract/settings.ts";
import { api } from "../../lib/feature-api.ts";

export type TenantListQuery = { Search?: string; IsActive?: boolean; Sorting?: string; SkipCount: number; MaxResultCount: number };
/** What OpenTenantAccount takes (dates as Date or ISO string). */
export type OpenTenantBody = Parameters<typeof api.hosted.openTenantAccount>[0];
export type SettingListQuery = { Search?: string; SkipCount: number; MaxResultCount: number };

export const tenantKeys = {
  all: ["hosted", "tenants"] as const,
  lists: () => [...tenantKeys.all, "list"] as const,
  list: (q: TenantListQuery) => [...tenantKeys.lists(), q] as const,
  userInfo: (tenantId: string) => [...tenantKeys.all, "user-info", tenantId] as const,
};

/** The root "settings" is shared with the FAQ screen's setting value, so saving here refreshes it there. */
export const settingKeys = {
  all: ["settings"] as const,
  lists: () => [...settingKeys.all, "list"] as const,
  list: (q: SettingListQuery) => [...settingKeys.lists(), q] as const,
};

export function useTenants(q: TenantListQuery) {
  return useQuery({
    queryKey: tenantKeys.list(q),
    queryFn: ({ signal }) => api.hosted.getTenants(q, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The main account's summary, read fresh each time the dialog opens. */
export function useTenantUserInfo(tenantId: string | null) {
  return useQuery({
    queryKey: tenantKeys.userInfo(tenantId ?? ""),
    queryFn: ({ signal }) => api.hosted.getTenantUserInfo({ TenantId: tenantId! }, { signal }),
    enabled: !!tenantId,
    staleTime: 0,
  });
}

function useInvalidateTenants() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: tenantKeys.all });
}

export function useOpenTenant() {
  const invalidate = useInvalidateTenants();
  return useMutation({
    mutationFn: (body: OpenTenantBody) => api.hosted.openTenantAccount(body),
    onSuccess: () => invalidate(),
  });
}

export function useEditTenantRemark() {
  const invalidate = useInvalidateTenants();
  return useMutation({
    mutationFn: (v: { id: string; remark: string }) => api.hosted.editRemark(v),
    onSuccess: () => invalidate(),
  });
}

/** Clears the login lockout of every user of the tenant. */
export function useUnlockTenant() {
  const invalidate = useInvalidateTenants();
  return useMutation({
    mutationFn: (tenantId: string) => api.hosted.unLockTenant({ tenantId }),
    onSuccess: () => invalidate(),
  });
}

/** Resets the main account's password: the given one, or (without Pwd) a generated one that the answer shows once. */
export function useResetTenantPassword() {
  const invalidate = useInvalidateTenants();
  return useMutation({
    mutationFn: (v: { tenantId: string; pwd?: string }) =>
      api.hosted.resetTenantPassword({ TenantId: v.tenantId, ...(v.pwd ? { Pwd: v.pwd } : {}) }),
    onSuccess: () => invalidate(),
  });
}

export function useSettings(q: SettingListQuery) {
  return useQuery({
    queryKey: settingKeys.list(q),
    queryFn: ({ signal }) => api.settings.getList(q, { signal }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateSettings() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: settingKeys.all });
}

export function useSaveSetting() {
  const invalidate = useInvalidateSettings();
  return useMutation({
    mutationFn: (body: CreateOrUpdateSettingInput) => api.settings.createOrUpdate(body),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteSetting() {
  const invalidate = useInvalidateSettings();
  return useMutation({
    mutationFn: (id: string) => api.settings.delete({ id }),
    onSuccess: () => invalidate(),
  });
}
