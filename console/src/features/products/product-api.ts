// Server state of the product list (/proudcts/list): query keys and the react-query hooks over api.product. Errors
// are shown once by the query client's global handler; a 409 on a stale save is the editor's to explain. Every bulk
// edit refreshes the list and the undo state (both under productKeys.all).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "@shared/api/errors.ts";
import type { BulkEditResult } from "@shared/contract/product.ts";
import { api } from "../../lib/feature-api.ts";
import { selectionBody, type BulkTarget } from "./bulk-target.ts";
import type { SaveProductBody } from "./product-editor-schema.ts";
import type { ProductListFilter, ProductQuery } from "./search-params.ts";

export const productKeys = {
  all: ["products"] as const,
  lists: () => [...productKeys.all, "list"] as const,
  list: (q: ProductQuery) => [...productKeys.lists(), q] as const,
  count: (f: ProductListFilter) => [...productKeys.all, "count", f] as const,
  detail: (id: string) => [...productKeys.all, "detail", id] as const,
  lastEdit: () => [...productKeys.all, "last-edit"] as const,
};
/** The labels with their product counts (a bulk edit changes the counts). */
export const productLabelKeys = ["product-labels"] as const;

export const isConflict = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 409;

export function useProducts(q: ProductQuery) {
  return useQuery({
    queryKey: productKeys.list(q),
    queryFn: ({ signal }) => api.product.getProductsByPage(q, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The exact number of products a bulk edit on `target` touches: the ids' count, or CountProducts of the filter. */
export function useTargetCount(target: BulkTarget | null) {
  const filter = target?.kind === "filter" ? target.filter : null;
  const count = useQuery({
    queryKey: productKeys.count(filter ?? {}),
    queryFn: ({ signal }) => api.product.countProducts(filter ?? {}, { signal }),
    enabled: !!filter,
    staleTime: 0,
  });
  if (!target) return { count: null, loading: false };
  if (target.kind === "ids") return { count: target.ids.length, loading: false };
  return { count: count.data?.count ?? null, loading: count.isFetching };
}

/** One product, fresh from the server (the editor sends back its concurrency stamp). */
export function useProduct(id: string | null) {
  return useQuery({
    queryKey: productKeys.detail(id ?? ""),
    queryFn: ({ signal }) => api.product.getProductById({ id: id! }, { signal }),
    enabled: !!id,
    staleTime: 0,
  });
}

function useInvalidateProducts() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: productKeys.all }),
      queryClient.invalidateQueries({ queryKey: productLabelKeys }),
    ]);
}

export function useSaveProduct() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (body: SaveProductBody) => api.product.createOrUpdateProduct(body),
    onSettled: () => invalidate(),
  });
}

export function useCopyProducts() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (ids: string[]) => api.product.copyProduct({ productIds: ids }),
    onSettled: () => invalidate(),
  });
}

export function useDeleteProduct() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (id: string) => api.product.deleteProducts({ ids: [id] }),
    onSettled: () => invalidate(),
  });
}

/** Runs one bulk edit call (the dialog builds its body); the list and the undo state follow. */
export function useBulkEdit() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (run: () => Promise<BulkEditResult>) => run(),
    onSettled: () => invalidate(),
  });
}

/** The caller's last bulk edit. Quiet on failure: it is a hint, not the page's content. */
export function useLastProductEdit() {
  return useQuery({
    queryKey: productKeys.lastEdit(),
    queryFn: ({ signal }) => api.product.getLastProductEdit({ signal }),
    meta: { silent: true },
    retry: false,
    // canUndo runs out after the undo window; asking again now and then keeps the button honest.
    refetchInterval: 60_000,
  });
}

export function useUndoProductEdit() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (id: string) => api.product.undoProductEdit({ id }),
    onSettled: () => invalidate(),
  });
}

export function usePredictWeight() {
  return useMutation({
    mutationFn: (body: { title: string; productId?: string | null }) => api.product.predictWightByTitle(body),
  });
}

/** ScreeningforInfringement over the target: the chosen ids, or everything the filter matches (the server walks it). */
export function useScreenProducts() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (t: BulkTarget) => api.product.screeningforInfringement(selectionBody(t)),
    onSettled: () => invalidate(),
  });
}

/** Every label of the tenant with the caller's product count (the filter and the label dialog). */
export function useProductLabels() {
  return useQuery({
    queryKey: productLabelKeys,
    queryFn: ({ signal }) => api.productLabel.getProductLabels({ signal }),
    select: (list) => list.labels,
    meta: { silent: true },
    staleTime: 60_000,
  });
}
