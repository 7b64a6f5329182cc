// Saving (the editor), copying and deleting products. The product queries follow whatever the outcome; a 409 on a
// stale save is the editor's to explain (the global handler leaves it).
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import type { SaveProductBody } from "../product-editor-schema.ts";
import { useInvalidateProducts } from "./get-products.ts";

export const saveProduct = (body: SaveProductBody) => api.product.createOrUpdateProduct(body);
export const copyProducts = (ids: string[]) => api.product.copyProduct({ productIds: ids });
export const deleteProduct = (id: string) => api.product.deleteProducts({ ids: [id] });

export function useSaveProduct({ mutationConfig }: MutationHookOptions<typeof saveProduct> = {}) {
  const invalidate = useInvalidateProducts();
  return useMutation(withCallerConfig({ mutationFn: saveProduct, onSettled: invalidate }, mutationConfig));
}

export function useCopyProducts({ mutationConfig }: MutationHookOptions<typeof copyProducts> = {}) {
  const invalidate = useInvalidateProducts();
  return useMutation(withCallerConfig({ mutationFn: copyProducts, onSettled: invalidate }, mutationConfig));
}

export function useDeleteProduct({ mutationConfig }: MutationHookOptions<typeof deleteProduct> = {}) {
  const invalidate = useInvalidateProducts();
  return useMutation(withCallerConfig({ mutationFn: deleteProduct, onSettled: invalidate }, mutationConfig));
}
