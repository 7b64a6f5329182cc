// What the publish screen reads to build a request: the chosen products (by id) and a title search to pick more
// (GetProductsByPage), the labels (GetProductLabels), a category's attributes (GetAttributes), kept a while (they
// change only when the host syncs attributes), and single products (GetProductById: the 填写属性 dialog's, and the
// first products of the selection a size chart's sizes are read from).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export const publishInputKeys = {
  all: ["publish"] as const,
  products: (ids: string[]) => [...publishInputKeys.all, "products", ids] as const,
  search: (title: string) => [...publishInputKeys.all, "product-search", title] as const,
  labels: () => [...publishInputKeys.all, "labels"] as const,
  attributes: (site: number, cateId: string) => [...publishInputKeys.all, "attributes", site, cateId] as const,
  /** A product as stored, fresh each time (the 填写属性 dialog edits it). */
  product: (id: string) => [...publishInputKeys.all, "product", id] as const,
  /** A product's variants, kept a minute (a size chart reads its sizes from them). */
  productDetail: (id: string) => [...publishInputKeys.all, "product-detail", id] as const,
};

/** The products of the selection (at most a page: the publish screen names the selection it was given). */
const getProductsByIdsQueryOptions = (ids: string[]) =>
  queryOptions({
    queryKey: publishInputKeys.products(ids),
    queryFn: ({ signal }) => api.product.getProductsByPage({ ids, maxResultCount: Math.max(1, Math.min(ids.length, 1000)) }, { signal }),
    placeholderData: keepPreviousData,
  });

export const useProductsByIds = (ids: string[]) => useQuery({ ...getProductsByIdsQueryOptions(ids), enabled: ids.length > 0 });

const getProductSearchQueryOptions = (title: string) =>
  queryOptions({
    queryKey: publishInputKeys.search(title),
    queryFn: ({ signal }) =>
      api.product.getProductsByPage({ ...(title ? { title } : {}), maxResultCount: 20, sorting: "creationTime desc" }, { signal }),
    placeholderData: keepPreviousData,
  });

export const useProductSearch = (title: string, enabled: boolean) => useQuery({ ...getProductSearchQueryOptions(title), enabled });

const getLabelsQueryOptions = () =>
  queryOptions({ queryKey: publishInputKeys.labels(), queryFn: ({ signal }) => api.productLabel.getProductLabels({ signal }) });

export const useLabels = () => useQuery(getLabelsQueryOptions());

const getCategoryAttributesQueryOptions = (site: number, cateId: string) =>
  queryOptions({
    queryKey: publishInputKeys.attributes(site, cateId),
    queryFn: ({ signal }) => api.meliCategory.getAttributes({ site, cateId }, { signal }),
    staleTime: 10 * 60_000,
  });

/** Nothing is asked without a category. */
export const useCategoryAttributes = (site: number, cateId: string | null | undefined) =>
  useQuery({ ...getCategoryAttributesQueryOptions(site, cateId ?? ""), enabled: !!cateId });
