// Server state of the shop centre (/shops/list): query keys and the react-query hooks over api.meliAccount and
// api.meli. Errors are shown once by the query client's global handler. Every change to a shop refreshes the list,
// the groups and the user cache (accs and groups, which other screens pick shops from).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AccountInfo } from "@shared/contract/meli.ts";
import { api } from "../../lib/feature-api.ts";
import { useUserStore } from "../../stores/user.ts";
import type { AccountsQuery } from "./search-params.ts";

export const shopKeys = {
  all: ["shops"] as const,
  lists: () => [...shopKeys.all, "list"] as const,
  list: (q: AccountsQuery) => [...shopKeys.lists(), q] as const,
  groups: () => [...shopKeys.all, "groups"] as const,
};

export function useShopAccounts(q: AccountsQuery) {
  return useQuery({
    queryKey: shopKeys.list(q),
    queryFn: ({ signal }) => api.meliAccount.getAccounts(q, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAccountGroups(enabled = true) {
  return useQuery({
    queryKey: shopKeys.groups(),
    queryFn: ({ signal }) => api.meliAccount.getMeliAccGroup({ signal }),
    enabled,
  });
}

/** Reloads the user cache (GetUserInitCache) into the user store. A failure here is not the user's business: the
 *  cache is loaded again at the next login or reload. */
export async function refreshUserCache(): Promise<void> {
  try {
    useUserStore.getState().setCache(await api.user.getUserInitCache());
  } catch {
    // Kept as it was.
  }
}

/** After a shop was connected or changed: the shop queries and the user cache. */
export function useRefreshShops() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: shopKeys.all }), refreshUserCache()]);
}

export function useUpdateAccount() {
  const refresh = useRefreshShops();
  return useMutation({
    mutationFn: (v: { id: string; info: AccountInfo }) => api.meliAccount.updateAccount(v),
    onSuccess: () => refresh(),
  });
}

export function useBatchUpdateAccount() {
  const refresh = useRefreshShops();
  return useMutation({
    mutationFn: (v: { ids: string[]; info: AccountInfo }) => api.meliAccount.batchUpdateAccount(v),
    onSuccess: () => refresh(),
  });
}

export function useEnableAccount() {
  const refresh = useRefreshShops();
  return useMutation({
    mutationFn: (v: { ids: string[]; enable: boolean }) => api.meliAccount.enableAccount(v),
    onSettled: () => refresh(),
  });
}

export function useAssignAccount() {
  const refresh = useRefreshShops();
  return useMutation({
    mutationFn: (v: { ids: string[]; userId: string }) => api.meliAccount.assignAccount(v),
    onSettled: () => refresh(),
  });
}

export function useEnableRecieveOrder() {
  const refresh = useRefreshShops();
  return useMutation({
    mutationFn: (v: { Id: string; Enable: boolean }) => api.meliAccount.enableRecieveOrder(v),
    onSettled: () => refresh(),
  });
}

/** GetAuthUrl: Mercado Libre's authorization page for the chosen sites, the shops to belong to `uid`. */
export const getAuthUrl = (v: { uid?: string; sites: number[] }) => api.meli.getAuthUrl(v);
