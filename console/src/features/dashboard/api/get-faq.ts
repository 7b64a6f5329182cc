// The FAQ: the text of the host setting Console.Faq (null when the host has not written one).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { FAQ_SETTING_KEY } from "../faq-format.ts";

/** Settings share the root key "settings" across the console (the system configuration screen lists them under
 *  ["settings", "list", …]), so a change made on either screen refreshes the other. */
export const settingValueKeys = {
  all: ["settings"] as const,
  value: (key: string) => [...settingValueKeys.all, "value", key] as const,
};

export const getFaqQueryOptions = () =>
  queryOptions({
    queryKey: settingValueKeys.value(FAQ_SETTING_KEY),
    queryFn: ({ signal }) => api.settings.getValueByKey({ key: FAQ_SETTING_KEY }, { signal }),
  });

export const useFaqValue = () => useQuery(getFaqQueryOptions());
