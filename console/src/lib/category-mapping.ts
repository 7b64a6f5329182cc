// The category mapping suggested for a product (类目映射): the category the seller picked before for products of the
// same source category on the site. The product editor and the publish screen ask for it (the side panel asks the
// same call); nothing is asked without a product and a site.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "./feature-api.ts";

/** Every mapping query (the suggestions here, the 类目映射 list) under one root: a change refreshes them all. */
export const categoryMappingKeys = {
  all: ["category-mappings"] as const,
  suggested: (site: number, productId: string) => [...categoryMappingKeys.all, "suggested", site, productId] as const,
  list: (q?: object) => [...categoryMappingKeys.all, "list", q] as const,
};

const getSuggestedCategoryQueryOptions = (site: number, productId: string) =>
  queryOptions({
    queryKey: categoryMappingKeys.suggested(site, productId),
    queryFn: ({ signal }) => api.categoryMapping.getSuggestedCategory({ site, productId }, { signal }),
  });

export const useSuggestedCategory = (site: number | null, productId: string | null | undefined) =>
  useQuery({ ...getSuggestedCategoryQueryOptions(site ?? 0, productId ?? ""), enabled: !!site && !!productId });
