// The host's system settings (the SystemConfigSetting list).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { sharedKeys } from "../../../lib/query-keys.ts";

export type SettingListQuery = { Search?: string; SkipCount: number; MaxResultCount: number };

/** Under the console's shared settings root: saving here refreshes the FAQ, the free number and the public settings. */
export const settingKeys = {
  all: sharedKeys.settings,
  lists: () => [...settingKeys.all, "list"] as const,
  list: (q: SettingListQuery) => [...settingKeys.lists(), q] as const,
  known: () => [...settingKeys.all, "known"] as const,
};

const getSettingsQueryOptions = (q: SettingListQuery) =>
  queryOptions({
    queryKey: settingKeys.list(q),
    queryFn: ({ signal }) => api.settings.getList(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useSettings = (q: SettingListQuery) => useQuery(getSettingsQueryOptions(q));
