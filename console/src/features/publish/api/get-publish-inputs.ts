// What the publish screen reads to build a request: the chosen products (by id) and a title search to pick more
// (GetProductsByPage), the labels (GetProductLabels), and a category's attributes (GetAttributes), kept a while (they
// change only when the host syncs attributes).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export const publishInputKeys = {
  products: (ids: string[]) => ["publish", "products", ids] as const,
  search: (title: string) => ["publish", "product-search", title] as const,
  labels: () => ["publish", "labels"] as const,
  attributes: (site: number, cateId: string) => ["publish", "attributes", site, cateId] as const,
};

/** The products of the selection (at most a page: the publish screen names the selection it was given). */
export const useProductsByIds = (ids: string[]) =>
  useQuery({
    queryKey: publishInputKeys.products(ids),
    queryFn: ({ signal }) => api.product.getProductsByPage({ ids, maxResultCount: Math.max(1, Math.min(ids.length, 1000)) }, { signal }),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  });

export const useProductSearch = (title: string, enabled: boolean) =>
  useQuery({
    queryKey: publishInputKeys.search(title),
    queryFn: ({ signal }) =>
      api.product.getProductsByPage({ ...(title ? { title } : {}), maxResultCount: 20, sorting: "creationTime desc" }, { signal }),
    enabled,
    placeholderData: keepPreviousData,
  });

export const useLabels = () =>
  useQuery({ queryKey: publishInputKeys.labels(), queryFn: ({ signal }) => api.productLabel.getProductLabels({ signal }) });

export const getCategoryAttributesQueryOptions = (site: number, cateId: string) =>
  queryOptions({
    queryKey: publishInputKeys.attributes(site, cateId),
    queryFn: ({ signal }) => api.meliCategory.getAttributes({ site, cateId }, { signal }),
    staleTime: 10 * 60_000,
  });
