// The product list (/proudcts/list): the page of products (GetProductsByPage), one product fresh from the server (the
// editor sends back its concurrency stamp), and how many products a bulk edit's target holds (CountProducts).
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { sharedKeys } from "../../../lib/query-keys.ts";
import type { BulkTarget } from "../bulk-target.ts";
import { productLabelKeys } from "./get-product-labels.ts";

export type ProductsQuery = Parameters<typeof api.product.getProductsByPage>[0];
export type ProductsFilter = Parameters<typeof api.product.countProducts>[0];

export const productKeys = {
  all: sharedKeys.products,
  lists: () => [...productKeys.all, "list"] as const,
  list: (q: ProductsQuery) => [...productKeys.lists(), q] as const,
  count: (f: ProductsFilter) => [...productKeys.all, "count", f] as const,
  detail: (id: string) => [...productKeys.all, "detail", id] as const,
  lastEdit: () => [...productKeys.all, "last-edit"] as const,
};

const getProductsQueryOptions = (q: ProductsQuery) =>
  queryOptions({
    queryKey: productKeys.list(q),
    queryFn: ({ signal }) => api.product.getProductsByPage(q, { signal }),
    placeholderData: keepPreviousData,
  });

const getProductQueryOptions = (id: string | null) =>
  queryOptions({
    queryKey: productKeys.detail(id ?? ""),
    queryFn: ({ signal }) => api.product.getProductById({ id: id! }, { signal }),
    enabled: !!id,
    staleTime: 0,
  });

const getProductCountQueryOptions = (filter: ProductsFilter | null) =>
  queryOptions({
    queryKey: productKeys.count(filter ?? {}),
    queryFn: ({ signal }) => api.product.countProducts(filter ?? {}, { signal }),
    enabled: !!filter,
    staleTime: 0,
  });

export const useProducts = (q: ProductsQuery) => useQuery(getProductsQueryOptions(q));

export const useProduct = (id: string | null) => useQuery(getProductQueryOptions(id));

/** The exact number of products a bulk edit on `target` touches: the ids' count, or CountProducts of the filter. */
export function useTargetCount(target: BulkTarget | null) {
  const count = useQuery(getProductCountQueryOptions(target?.kind === "filter" ? target.filter : null));
  if (!target) return { count: null, loading: false };
  if (target.kind === "ids") return { count: target.ids.length, loading: false };
  return { count: count.data?.count ?? null, loading: count.isFetching };
}

/** After any change to products: the product queries (lists, counts, details, the undo state) and the labels' counts. */
export function useInvalidateProducts() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: productKeys.all }),
      queryClient.invalidateQueries({ queryKey: productLabelKeys.all }),
    ]);
}
