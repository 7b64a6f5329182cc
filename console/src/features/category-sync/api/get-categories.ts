// A searched page of one site's categories with their Chinese names (GetCategoriesByPage).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { categorySyncKeys } from "./get-sync-status.ts";

export type CategoryListQuery = { site: number; Filter?: string; SkipCount: number; MaxResultCount: number };

const getCategoriesQueryOptions = (q: CategoryListQuery) =>
  queryOptions({
    queryKey: categorySyncKeys.categories(q),
    queryFn: ({ signal }) => api.meliCategory.getCategoriesByPage(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useCategories = (q: CategoryListQuery) => useQuery(getCategoriesQueryOptions(q));
