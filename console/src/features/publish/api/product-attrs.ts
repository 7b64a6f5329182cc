// 填写属性 for one product of a batch whose category comes from the product (issue 28): the product as stored
// (GetProductById: its category and the attribute values it has) and UpdateProductAttr, which replaces the product's
// category attribute values (naturally idempotent: the same values again change nothing).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { sharedKeys } from "../../../lib/query-keys.ts";
import { publishInputKeys } from "./get-publish-inputs.ts";

const getProductForAttrsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: publishInputKeys.product(id),
    queryFn: ({ signal }) => api.product.getProductById({ id }, { signal }),
    staleTime: 0,
  });

/** Nothing is asked while the dialog is closed. */
export const useProductForAttrs = (id: string | null) => useQuery({ ...getProductForAttrsQueryOptions(id ?? ""), enabled: !!id });

export type ProductAttrsInput = Parameters<typeof api.product.updateProductAttr>[0];
export const updateProductAttrs = (input: ProductAttrsInput) => api.product.updateProductAttr(input);

export function useUpdateProductAttrs({ mutationConfig }: MutationHookOptions<typeof updateProductAttrs> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      {
        mutationFn: updateProductAttrs,
        onSuccess: (p) => queryClient.setQueryData(publishInputKeys.product(p.id), p),
        // The product list shows the product too.
        onSettled: () => queryClient.invalidateQueries({ queryKey: sharedKeys.products }),
      },
      mutationConfig,
    ),
  );
}
