// Sub-account packages (spec §7 SubAccountOrder): the packages on offer, the company's purchases with its allowance
// and balance, and buying one (OrderSubAcc). A purchase sends one Idempotency-Key per package chosen (useSubmitKey), so
// a retry after a lost answer is answered by the first purchase instead of paying twice.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { useSubmitKey } from "../../../lib/query-client.ts";

/** A page of the purchase list. */
export type MyOrdersQuery = { SkipCount: number; MaxResultCount: number };

export const packageKeys = {
  all: ["sub-account-packages"] as const,
  offers: () => [...packageKeys.all, "offers"] as const,
  mine: (q: MyOrdersQuery) => [...packageKeys.all, "mine", q] as const,
};

export const usePackages = () =>
  useQuery({ queryKey: packageKeys.offers(), queryFn: ({ signal }) => api.subAccountOrder.getSubAccOrderInfos({ signal }) });

export const useMyOrders = (q: MyOrdersQuery) =>
  useQuery({
    queryKey: packageKeys.mine(q),
    queryFn: ({ signal }) => api.subAccountOrder.getMySubAccOrder(q, { signal }),
    placeholderData: keepPreviousData,
  });

export function useOrderPackage() {
  const queryClient = useQueryClient();
  const run = useSubmitKey((packageId: string, o: { idempotencyKey: string }) => api.subAccountOrder.orderSubAcc({ id: packageId }, o));
  return useMutation({
    mutationFn: run,
    // The balance moved too: the finance screens' queries (key "finance") follow.
    onSettled: () =>
      queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === packageKeys.all[0] || q.queryKey[0] === "finance" }),
  });
}
