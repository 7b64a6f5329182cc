// The category mapping screen's calls (类目映射): the list (paged on the server), a mapping pointed at another
// category, a mapping deleted; every mapping query (this list and the suggestions) follows a change.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { categoryMappingKeys } from "../../../lib/category-mapping.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

export type CategoryMappingQuery = Parameters<typeof api.categoryMapping.getCategoryMappings>[0];

const getCategoryMappingsQueryOptions = (q: CategoryMappingQuery) =>
  queryOptions({
    queryKey: categoryMappingKeys.list(q),
    queryFn: ({ signal }) => api.categoryMapping.getCategoryMappings(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useCategoryMappings = (q: CategoryMappingQuery) => useQuery(getCategoryMappingsQueryOptions(q));

export const updateCategoryMapping = (body: { id: string; cateId: string }) => api.categoryMapping.updateCategoryMapping(body);
export const deleteCategoryMapping = (id: string) => api.categoryMapping.deleteCategoryMapping({ id });

function useInvalidateMappings() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: categoryMappingKeys.all });
}

export function useUpdateCategoryMapping({ mutationConfig }: MutationHookOptions<typeof updateCategoryMapping> = {}) {
  const invalidate = useInvalidateMappings();
  return useMutation(withCallerConfig({ mutationFn: updateCategoryMapping, onSuccess: () => invalidate() }, mutationConfig));
}

export function useDeleteCategoryMapping({ mutationConfig }: MutationHookOptions<typeof deleteCategoryMapping> = {}) {
  const invalidate = useInvalidateMappings();
  return useMutation(withCallerConfig({ mutationFn: deleteCategoryMapping, onSuccess: () => invalidate() }, mutationConfig));
}
