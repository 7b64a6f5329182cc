// Server state of the currency-rate screen: every logged-in user reads the rates; only the host changes them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

type SaveCurrencyBody = Parameters<typeof api.currency.createOrUpdateCurrency>[0];

export const currencyKeys = {
  all: ["currency"] as const,
  list: () => [...currencyKeys.all, "list"] as const,
};

export function useCurrencies() {
  return useQuery({ queryKey: currencyKeys.list(), queryFn: () => api.currency.getAllCurrency() });
}

export function useSaveCurrency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveCurrencyBody) => api.currency.createOrUpdateCurrency(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currencyKeys.all }),
  });
}

export function useDeleteCurrency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.currency.deleteCurrency({ id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currencyKeys.all }),
  });
}
