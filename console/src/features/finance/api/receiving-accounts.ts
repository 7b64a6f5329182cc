// The platform's receiving accounts (issue 28): every seller reads them for the top-up dialog
// (ChargeRecord/GetReceivingAccounts); the host saves them as the setting Wallet.ReceivingAccounts (SetValueByKey,
// checked by the setting's rule on the server too).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReceivingAccount } from "#shared/contract/receiving-accounts.ts";
import { SettingKeys } from "#shared/contract/setting-registry.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { sharedKeys } from "../../../lib/query-keys.ts";
import { financeKeys } from "./wallet-logs.ts";

const getReceivingAccountsQueryOptions = () =>
  queryOptions({ queryKey: financeKeys.receivingAccounts(), queryFn: ({ signal }) => api.chargeRecord.getReceivingAccounts({ signal }) });

export const useReceivingAccounts = () => useQuery(getReceivingAccountsQueryOptions());

/** None left removes the setting. */
export const saveReceivingAccounts = (accounts: ReceivingAccount[]) =>
  api.settings.setValueByKey({ key: SettingKeys.receivingAccounts, value: accounts.length ? JSON.stringify(accounts) : null });

export function useSaveReceivingAccounts({ mutationConfig }: MutationHookOptions<typeof saveReceivingAccounts> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      {
        mutationFn: saveReceivingAccounts,
        // The 系统配置 list (the shared settings root) shows the same value.
        onSuccess: () =>
          Promise.all([
            queryClient.invalidateQueries({ queryKey: financeKeys.receivingAccounts() }),
            queryClient.invalidateQueries({ queryKey: sharedKeys.settings }),
          ]),
      },
      mutationConfig,
    ),
  );
}
