// The GTIN pool (MeliCode): its count, adding codes (the valid codes of a pasted text or a file, checked by
// shared/contract/gtin.ts checkCodes) and clearing the unused ones (main account); the count follows each change.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

const gtinKeys = { all: ["gtin-codes"] as const };

const getGtinCountQueryOptions = () =>
  queryOptions({ queryKey: gtinKeys.all, queryFn: ({ signal }) => api.meliCode.getCodeCnt({ signal }) });

export const useGtinCount = () => useQuery(getGtinCountQueryOptions());

export const setGtinCodes = (codes: string[]) => api.meliCode.setCodes({ codes });
export const clearGtinCodes = () => api.meliCode.clearCode();

function useInvalidateCount() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: gtinKeys.all });
}

export function useSetGtinCodes({ mutationConfig }: MutationHookOptions<typeof setGtinCodes> = {}) {
  const invalidate = useInvalidateCount();
  return useMutation(withCallerConfig({ mutationFn: setGtinCodes, onSuccess: () => invalidate() }, mutationConfig));
}

export function useClearGtinCodes({ mutationConfig }: MutationHookOptions<typeof clearGtinCodes> = {}) {
  const invalidate = useInvalidateCount();
  return useMutation(withCallerConfig({ mutationFn: clearGtinCodes, onSettled: invalidate }, mutationConfig));
}
