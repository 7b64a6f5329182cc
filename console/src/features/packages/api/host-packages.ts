// The host's side of sub-account packages: every package (withdrawn ones too), creating or editing one
// (CreateOrUpdateSubAccOrderInfo) and every tenant's purchases (GetHostSubAccountOrders).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InputOf } from "#shared/api/define.ts";
import type { getHostSubAccountOrdersQuery, SaveSubAccPackageInput } from "#shared/contract/subaccount-orders.ts";
import { api } from "../../../lib/feature-api.ts";
import { packageKeys } from "./packages.ts";

export type HostPurchasesQuery = InputOf<typeof getHostSubAccountOrdersQuery>;

export const hostPackageKeys = {
  purchases: (q: HostPurchasesQuery) => [...packageKeys.all, "host-purchases", q] as const,
};

export const useHostPurchases = (q: HostPurchasesQuery) =>
  useQuery({
    queryKey: hostPackageKeys.purchases(q),
    queryFn: ({ signal }) => api.subAccountOrder.getHostSubAccountOrders(q, { signal }),
    placeholderData: keepPreviousData,
  });

export function useSavePackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: SaveSubAccPackageInput) => api.subAccountOrder.createOrUpdateSubAccOrderInfo(v),
    onSettled: () => queryClient.invalidateQueries({ queryKey: packageKeys.all }),
  });
}
