// The caller's last bulk edit (GetLastProductEdit) and its undo (UndoProductEdit).
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { useInvalidateEdits } from "./bulk-edit-products.ts";
import { productKeys } from "./get-products.ts";

/** Quiet on failure: it is a hint, not the page's content. */
const getLastProductEditQueryOptions = () =>
  queryOptions({
    queryKey: productKeys.lastEdit(),
    queryFn: ({ signal }) => api.product.getLastProductEdit({ signal }),
    meta: { silent: true },
    retry: false,
    // canUndo runs out after the undo window; asking again now and then keeps the button honest.
    refetchInterval: 60_000,
  });

export const useLastProductEdit = () => useQuery(getLastProductEditQueryOptions());

export const undoProductEdit = (id: string) => api.product.undoProductEdit({ id });

export function useUndoProductEdit({ mutationConfig }: MutationHookOptions<typeof undoProductEdit> = {}) {
  const invalidate = useInvalidateEdits();
  return useMutation(withCallerConfig({ mutationFn: undoProductEdit, onSettled: invalidate }, mutationConfig));
}
