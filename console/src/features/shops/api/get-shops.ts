// The shop centre's reads: the shop accounts (GetAccounts) and the authorization groups (GetMeliAccGroup).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export type ShopAccountsQuery = Parameters<typeof api.meliAccount.getAccounts>[0];

export const shopKeys = {
  all: ["shops"] as const,
  lists: () => [...shopKeys.all, "list"] as const,
  list: (q: ShopAccountsQuery) => [...shopKeys.lists(), q] as const,
  groups: () => [...shopKeys.all, "groups"] as const,
};

export const getShopAccountsQueryOptions = (q: ShopAccountsQuery) =>
  queryOptions({
    queryKey: shopKeys.list(q),
    queryFn: ({ signal }) => api.meliAccount.getAccounts(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const getAccountGroupsQueryOptions = () =>
  queryOptions({ queryKey: shopKeys.groups(), queryFn: ({ signal }) => api.meliAccount.getMeliAccGroup({ signal }) });

export const useShopAccounts = (q: ShopAccountsQuery) => useQuery(getShopAccountsQueryOptions(q));

export const useAccountGroups = (enabled = true) => useQuery({ ...getAccountGroupsQueryOptions(), enabled });
