// The currency rates: every logged-in user reads them (the pricing forms convert with them).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export const currencyKeys = {
  all: ["currency"] as const,
  lists: () => [...currencyKeys.all, "list"] as const,
};

const getCurrenciesQueryOptions = () =>
  queryOptions({ queryKey: currencyKeys.lists(), queryFn: ({ signal }) => api.currency.getAllCurrency({ signal }) });

export const useCurrencies = () => useQuery(getCurrenciesQueryOptions());
