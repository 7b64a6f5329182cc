// The host's category sync screen: every site's tree version, counts and sync times (GetCategorySyncStatus).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

/** The root of everything this screen reads: a finished sync refreshes all of it. */
export const categorySyncKeys = {
  all: ["category-sync"] as const,
  status: () => [...categorySyncKeys.all, "status"] as const,
  categoryLists: () => [...categorySyncKeys.all, "categories"] as const,
  categories: (q: object) => [...categorySyncKeys.categoryLists(), q] as const,
  latestTask: () => [...categorySyncKeys.all, "latest-task"] as const,
};

const getSyncStatusQueryOptions = () =>
  queryOptions({ queryKey: categorySyncKeys.status(), queryFn: ({ signal }) => api.meliCategory.getCategorySyncStatus({ signal }) });

export const useSyncStatus = () => useQuery(getSyncStatusQueryOptions());
