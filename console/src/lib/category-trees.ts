// The category fetch by site id (spec §3 platform store, §8 "Invalid site ID"): a site's tree from memory (the platform
// store), else from the local database, always checked against the server's version first. The server answers
// notModified without the tree while the version held is current, so an unchanged tree costs one small request; a
// changed one replaces the tree in the store and in the local database.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { INVALID_SITE_ID } from "#shared/contract/category.ts";
import { SITE_IDS, usePlatformStore, type CategoryNode, type SiteId } from "../stores/platform.ts";
import { api } from "./feature-api.ts";
import { readCategoryTree, writeCategoryTree } from "./category-cache.ts";

export { INVALID_SITE_ID };

const isSiteId = (v: unknown): v is SiteId => (SITE_IDS as readonly unknown[]).includes(v);

const loading = new Map<SiteId, Promise<CategoryNode[]>>();

async function load(site: SiteId): Promise<CategoryNode[]> {
  const platform = usePlatformStore.getState();
  let tree = platform.categoryTrees[site];
  let version = platform.categoryVersions[site];
  if (!version) {
    try {
      const cached = await readCategoryTree(site);
      if (cached) {
        ({ tree, version } = cached);
        platform.setCategoryTree(site, tree, version);
      }
    } catch {
      // No IndexedDB (private mode): the server's answer is the only copy.
    }
  }
  const answer = await api.meliCategory.getAllCategory({ site, version: version ?? undefined });
  if (answer.notModified && version) return tree;
  const fresh = (answer.tree ?? []) as CategoryNode[];
  usePlatformStore.getState().setCategoryTree(site, fresh, answer.version);
  if (answer.version) {
    try {
      await writeCategoryTree(site, answer.version, fresh);
    } catch {
      // Kept in memory only.
    }
  }
  return fresh;
}

/** A site's category tree, current with the server. Rejects with "Invalid site ID" for anything but 1-5. */
export function fetchCategoryTree(site: unknown): Promise<CategoryNode[]> {
  if (!isSiteId(site)) return Promise.reject(new Error(INVALID_SITE_ID));
  let p = loading.get(site);
  if (!p) {
    p = load(site).finally(() => loading.delete(site));
    loading.set(site, p);
  }
  return p;
}

const categoryTreeKeys = { all: ["category-tree"] as const, site: (site: SiteId) => [...categoryTreeKeys.all, site] as const };

/** Nothing is asked without a site. */
const getCategoryTreeQueryOptions = (site: SiteId | null) =>
  queryOptions({
    queryKey: site ? categoryTreeKeys.site(site) : categoryTreeKeys.all,
    queryFn: () => fetchCategoryTree(site),
    enabled: site !== null,
    staleTime: 5 * 60_000,
    // Thousands of nodes: compared by reference, not walked.
    structuralSharing: false,
  });

/**
 * The tree for a picker: what the store holds at once, then the checked one. `synced` is false when the host has not
 * synced the site yet (the server has no version).
 */
export function useCategoryTree(site: SiteId | null) {
  const held = usePlatformStore((s) => (site ? s.categoryTrees[site] : undefined));
  const version = usePlatformStore((s) => (site ? s.categoryVersions[site] : null));
  const query = useQuery(getCategoryTreeQueryOptions(site));
  const nodes = query.data ?? held ?? [];
  return {
    nodes,
    loading: query.isFetching && nodes.length === 0,
    error: query.error,
    synced: query.isSuccess ? version !== null : null,
  };
}
