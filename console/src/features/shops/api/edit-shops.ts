// Changing shops: pricing, enabling, assigning, order receiving. Every change refreshes the shop queries and the user
// cache (its accs and groups are what other screens pick shops from).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AccountInfo } from "#shared/contract/meli.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { useUserStore } from "../../../stores/user.ts";
import { shopKeys } from "./get-shops.ts";

/** Reloads the user cache (GetUserInitCache) into the user store. A failure here is not the user's business: the
 *  cache is loaded again at the next login or reload. */
async function refreshUserCache(): Promise<void> {
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

export const updateAccount = (v: { id: string; info: AccountInfo }) => api.meliAccount.updateAccount(v);
export const batchUpdateAccounts = (v: { ids: string[]; info: AccountInfo }) => api.meliAccount.batchUpdateAccount(v);
export const enableAccounts = (v: { ids: string[]; enable: boolean }) => api.meliAccount.enableAccount(v);
export const assignAccounts = (v: { ids: string[]; userId: string }) => api.meliAccount.assignAccount(v);
export const enableReceiveOrder = (v: { Id: string; Enable: boolean }) => api.meliAccount.enableReceiveOrder(v);

export function useUpdateAccount({ mutationConfig }: MutationHookOptions<typeof updateAccount> = {}) {
  const refresh = useRefreshShops();
  return useMutation(withCallerConfig({ mutationFn: updateAccount, onSuccess: () => refresh() }, mutationConfig));
}

export function useBatchUpdateAccount({ mutationConfig }: MutationHookOptions<typeof batchUpdateAccounts> = {}) {
  const refresh = useRefreshShops();
  return useMutation(withCallerConfig({ mutationFn: batchUpdateAccounts, onSuccess: () => refresh() }, mutationConfig));
}

// The toggles and the assignment refresh whatever their outcome: a partly applied batch shows what is there now.
export function useEnableAccount({ mutationConfig }: MutationHookOptions<typeof enableAccounts> = {}) {
  const refresh = useRefreshShops();
  return useMutation(withCallerConfig({ mutationFn: enableAccounts, onSettled: () => refresh() }, mutationConfig));
}

export function useAssignAccount({ mutationConfig }: MutationHookOptions<typeof assignAccounts> = {}) {
  const refresh = useRefreshShops();
  return useMutation(withCallerConfig({ mutationFn: assignAccounts, onSettled: () => refresh() }, mutationConfig));
}

export function useEnableReceiveOrder({ mutationConfig }: MutationHookOptions<typeof enableReceiveOrder> = {}) {
  const refresh = useRefreshShops();
  return useMutation(withCallerConfig({ mutationFn: enableReceiveOrder, onSettled: () => refresh() }, mutationConfig));
}
