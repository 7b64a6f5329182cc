// The FAQ: the text of the host setting Console.Faq (null when the host has not written one).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { sharedKeys } from "../../../lib/query-keys.ts";
import { FAQ_SETTING_KEY } from "../faq-format.ts";

/** Settings share one root across the console (系统配置 lists them under it), so a change made on either screen
 *  refreshes the other. */
export const settingValueKeys = {
  all: sharedKeys.settings,
  value: sharedKeys.settingValue,
};

export const getFaqQueryOptions = () =>
  queryOptions({
    queryKey: settingValueKeys.value(FAQ_SETTING_KEY),
    queryFn: ({ signal }) => api.settings.getValueByKey({ key: FAQ_SETTING_KEY }, { signal }),
  });

export const useFaqValue = () => useQuery(getFaqQueryOptions());
