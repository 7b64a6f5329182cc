// Saving and deleting a currency rate (the host only); the rates list follows.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { currencyKeys } from "./get-currencies.ts";

export const saveCurrency = (body: Parameters<typeof api.currency.createOrUpdateCurrency>[0]) => api.currency.createOrUpdateCurrency(body);
export const deleteCurrency = (id: string) => api.currency.deleteCurrency({ id });

export function useSaveCurrency({ mutationConfig }: MutationHookOptions<typeof saveCurrency> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      { mutationFn: saveCurrency, onSuccess: () => queryClient.invalidateQueries({ queryKey: currencyKeys.all }) },
      mutationConfig,
    ),
  );
}

export function useDeleteCurrency({ mutationConfig }: MutationHookOptions<typeof deleteCurrency> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      { mutationFn: deleteCurrency, onSuccess: () => queryClient.invalidateQueries({ queryKey: currencyKeys.all }) },
      mutationConfig,
    ),
  );
}
