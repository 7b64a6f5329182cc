// Sub-account packages (spec §7 SubAccountOrder): the packages on offer, the company's purchases with its allowance
// and balance, and buying one (OrderSubAcc). A purchase sends one Idempotency-Key per package chosen (useSubmitKey), so
// a retry after a lost answer is answered by the first purchase instead of paying twice.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import { SettingKeys } from "#shared/contract/setting-registry.ts";
import { api } from "../../../lib/feature-api.ts";
import { useSubmitKey, withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { sharedKeys } from "../../../lib/query-keys.ts";

/** A page of the purchase list. */
export type MyOrdersQuery = { SkipCount: number; MaxResultCount: number };

export const packageKeys = {
  all: ["sub-account-packages"] as const,
  offers: () => [...packageKeys.all, "offers"] as const,
  mine: (q: MyOrdersQuery) => [...packageKeys.all, "mine", q] as const,
  hostPurchases: (q: object) => [...packageKeys.all, "host-purchases", q] as const,
  /** The free number is a setting: under the shared settings root, so 系统配置's saves refresh it too. */
  freeCount: () => sharedKeys.settingValue(SettingKeys.freeSubAccounts),
};

const getPackagesQueryOptions = () =>
  queryOptions({ queryKey: packageKeys.offers(), queryFn: ({ signal }) => api.subAccountOrder.getSubAccOrderInfos({ signal }) });

export const usePackages = () => useQuery(getPackagesQueryOptions());

const getMyOrdersQueryOptions = (q: MyOrdersQuery) =>
  queryOptions({
    queryKey: packageKeys.mine(q),
    queryFn: ({ signal }) => api.subAccountOrder.getMySubAccOrder(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useMyOrders = (q: MyOrdersQuery) => useQuery(getMyOrdersQueryOptions(q));

/** Sent with the chosen package's Idempotency-Key (useSubmitKey). */
export const orderPackage = (packageId: string, options?: CallOptions) => api.subAccountOrder.orderSubAcc({ id: packageId }, options);

export function useOrderPackage({ mutationConfig }: MutationHookOptions<typeof orderPackage> = {}) {
  const queryClient = useQueryClient();
  const mutationFn = useSubmitKey(orderPackage);
  return useMutation(
    withCallerConfig(
      {
        mutationFn,
        // The balance moved too: the finance screens follow.
        onSettled: () =>
          Promise.all([
            queryClient.invalidateQueries({ queryKey: packageKeys.all }),
            queryClient.invalidateQueries({ queryKey: sharedKeys.finance }),
          ]),
      },
      mutationConfig,
    ),
  );
}
