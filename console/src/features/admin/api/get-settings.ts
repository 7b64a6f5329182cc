// The host's system settings (the SystemConfigSetting list).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export type SettingListQuery = { Search?: string; SkipCount: number; MaxResultCount: number };

/** The root "settings" is shared with the FAQ screen's setting value, so saving here refreshes it there. */
export const settingKeys = {
  all: ["settings"] as const,
  lists: () => [...settingKeys.all, "list"] as const,
  list: (q: SettingListQuery) => [...settingKeys.lists(), q] as const,
};

export const getSettingsQueryOptions = (q: SettingListQuery) =>
  queryOptions({
    queryKey: settingKeys.list(q),
    queryFn: ({ signal }) => api.settings.getList(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useSettings = (q: SettingListQuery) => useQuery(getSettingsQueryOptions(q));
