// Server state of the dashboard screens: the workbench's figures (GetWorkbenchInfo) and the FAQ, which is the host
// setting Console.Faq. Errors are shown by the query client's global handler, never again here.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "@shared/api/errors.ts";
import type { Setting } from "@shared/contract/settings.ts";
import { api } from "../../lib/api.ts";
import { FAQ_SETTING_KEY, serializeFaq, type FaqItem } from "./faq-format.ts";

export const workbenchKeys = {
  all: ["workbench"] as const,
  info: (days: number) => [...workbenchKeys.all, "info", days] as const,
};

/** Settings share the root key "settings" across the console (the system configuration screen lists them under
 *  ["settings", "list", …]), so a change made on either screen refreshes the other. */
export const settingValueKeys = {
  all: ["settings"] as const,
  value: (key: string) => [...settingValueKeys.all, "value", key] as const,
};

export function useWorkbenchInfo(days: number) {
  return useQuery({
    queryKey: workbenchKeys.info(days),
    queryFn: ({ signal }) => api.workbench.getWorkbenchInfo({ Days: days }, { signal }),
    placeholderData: keepPreviousData,
    // The workbench is a cached tab: figures are re-read each time it is shown again.
    staleTime: 0,
  });
}

/** The stored FAQ text (null when the host has not written one). */
export function useFaqValue() {
  return useQuery({
    queryKey: settingValueKeys.value(FAQ_SETTING_KEY),
    queryFn: ({ signal }) => api.settings.getValueByKey({ key: FAQ_SETTING_KEY }, { signal }),
  });
}

/** The FAQ setting itself, or null when it does not exist yet (its 404 is the expected answer, not an error). */
async function findFaqSetting(): Promise<Setting | null> {
  try {
    return await api.settings.get({ key: FAQ_SETTING_KEY });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/** Saves the FAQ (host only): updates the setting by its id when it exists, else creates it. */
export function useSaveFaq() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (items: FaqItem[]) => {
      const existing = await findFaqSetting();
      return api.settings.createOrUpdate({
        id: existing?.id ?? null,
        name: existing?.name ?? "常见问题",
        key: FAQ_SETTING_KEY,
        value: serializeFaq(items),
        description: existing?.description ?? '控制台「常见问题」页面的内容：JSON 数组 [{"q": 问题, "a": 答案}]',
      });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(settingValueKeys.value(FAQ_SETTING_KEY), saved.value);
      return queryClient.invalidateQueries({ queryKey: settingValueKeys.all });
    },
  });
}
