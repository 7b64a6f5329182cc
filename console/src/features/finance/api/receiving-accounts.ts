// The platform's receiving accounts (issue 28): every seller reads them for the top-up dialog
// (ChargeRecord/GetReceivingAccounts); the host saves them as the setting Wallet.ReceivingAccounts (SetValueByKey,
// checked by the setting's rule on the server too).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReceivingAccount } from "#shared/contract/receiving-accounts.ts";
import { SettingKeys } from "#shared/contract/setting-registry.ts";
import { api } from "../../../lib/feature-api.ts";
import { financeKeys } from "./wallet-logs.ts";

const receivingKey = [...financeKeys.all, "receiving-accounts"] as const;

export const useReceivingAccounts = () =>
  useQuery({ queryKey: receivingKey, queryFn: ({ signal }) => api.chargeRecord.getReceivingAccounts({ signal }) });

export function useSaveReceivingAccounts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accounts: ReceivingAccount[]) =>
      api.settings.setValueByKey({ key: SettingKeys.receivingAccounts, value: accounts.length ? JSON.stringify(accounts) : null }),
    // The 系统配置 list (key root "settings") shows the same value.
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: receivingKey }), queryClient.invalidateQueries({ queryKey: ["settings"] })]),
  });
}
