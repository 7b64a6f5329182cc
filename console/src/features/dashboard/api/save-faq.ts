// Saving the FAQ (host only): updates the setting Console.Faq by its id when it exists, else creates it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "#shared/api/errors.ts";
import type { Setting } from "#shared/contract/settings.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { FAQ_SETTING_KEY, serializeFaq, type FaqItem } from "../faq-format.ts";
import { getFaqQueryOptions, settingValueKeys } from "./get-faq.ts";

/** The FAQ setting itself, or null when it does not exist yet (its 404 is the expected answer, not an error). */
async function findFaqSetting(): Promise<Setting | null> {
  try {
    return await api.settings.get({ key: FAQ_SETTING_KEY });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

export async function saveFaq(items: FaqItem[]): Promise<Setting> {
  const existing = await findFaqSetting();
  return api.settings.createOrUpdate({
    id: existing?.id ?? null,
    name: existing?.name ?? "常见问题",
    key: FAQ_SETTING_KEY,
    value: serializeFaq(items),
    description: existing?.description ?? '控制台「常见问题」页面的内容：JSON 数组 [{"q": 问题, "a": 答案}]',
  });
}

export function useSaveFaq({ mutationConfig }: MutationHookOptions<typeof saveFaq> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      {
        mutationFn: saveFaq,
        onSuccess: (saved) => {
          queryClient.setQueryData(getFaqQueryOptions().queryKey, saved.value);
          return queryClient.invalidateQueries({ queryKey: settingValueKeys.all });
        },
      },
      mutationConfig,
    ),
  );
}
