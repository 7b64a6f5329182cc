// The shop centre's reads: the shop accounts (GetAccounts) and the authorization groups (GetMeliAccGroup).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { accountGroupsKey } from "../../../lib/account-groups.ts";
import { api } from "../../../lib/feature-api.ts";
import { sharedKeys } from "../../../lib/query-keys.ts";

export { useAccountGroups } from "../../../lib/account-groups.ts";

export type ShopAccountsQuery = Parameters<typeof api.meliAccount.getAccounts>[0];

export const shopKeys = {
  all: sharedKeys.shops,
  lists: () => [...shopKeys.all, "list"] as const,
  list: (q: ShopAccountsQuery) => [...shopKeys.lists(), q] as const,
  groups: () => accountGroupsKey,
};

const getShopAccountsQueryOptions = (q: ShopAccountsQuery) =>
  queryOptions({
    queryKey: shopKeys.list(q),
    queryFn: ({ signal }) => api.meliAccount.getAccounts(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useShopAccounts = (q: ShopAccountsQuery) => useQuery(getShopAccountsQueryOptions(q));
