// 填写属性 for one product of a batch whose category comes from the product (issue 28): the product as stored
// (GetProductById: its category and the attribute values it has) and UpdateProductAttr, which replaces the product's
// category attribute values (naturally idempotent: the same values again change nothing).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

const productKey = (id: string) => ["publish", "product", id] as const;

export const useProductForAttrs = (id: string | null) =>
  useQuery({
    queryKey: productKey(id ?? ""),
    queryFn: ({ signal }) => api.product.getProductById({ id: id! }, { signal }),
    enabled: !!id,
    staleTime: 0,
  });

export type ProductAttrsInput = Parameters<typeof api.product.updateProductAttr>[0];
export const updateProductAttrs = (input: ProductAttrsInput) => api.product.updateProductAttr(input);

export function useUpdateProductAttrs({ mutationConfig }: MutationHookOptions<typeof updateProductAttrs> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      {
        mutationFn: updateProductAttrs,
        onSuccess: (p) => queryClient.setQueryData(productKey(p.id), p),
        onSettled: () => queryClient.invalidateQueries({ queryKey: ["products"] }),
      },
      mutationConfig,
    ),
  );
}
