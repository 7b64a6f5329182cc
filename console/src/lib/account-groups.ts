// The shop groups (GetMeliAccGroup): the shop centre lists them; the publish screens choose one. One query, one key
// (under the shop centre's "shops" key, so a shop edit that refreshes the shop lists refreshes it too).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "./feature-api.ts";
import { sharedKeys } from "./query-keys.ts";

export const accountGroupsKey = [...sharedKeys.shops, "groups"] as const;

const getAccountGroupsQueryOptions = () =>
  queryOptions({ queryKey: accountGroupsKey, queryFn: ({ signal }) => api.meliAccount.getMeliAccGroup({ signal }) });

export const useAccountGroups = (enabled = true) => useQuery({ ...getAccountGroupsQueryOptions(), enabled });
