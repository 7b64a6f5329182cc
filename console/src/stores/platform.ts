// Platform store (spec §3), persisted in local storage under its store id. Category trees are kept in memory and in
// the IndexedDB category cache (lib/category-cache.ts), not in local storage: a site's tree is megabytes.
import { create } from "zustand";
import { persist } from "zustand/middleware";
import type { CategoryTreeNode } from "#shared/contract/category.ts";

/** Spec §1/§9: site ids 1..5 map to mx, bl, cl, co, cbt. */
const SITES = { 1: "mx", 2: "bl", 3: "cl", 4: "co", 5: "cbt" } as const;
export type SiteId = keyof typeof SITES;
export const SITE_IDS = [1, 2, 3, 4, 5] as const satisfies readonly SiteId[];
export const DEFAULT_SITES: SiteId[] = [1, 2, 3, 4];

/** A node of a site's category tree as GetAllCategory answers it (id, name, fullName, children; leaves marked). */
export type CategoryNode = CategoryTreeNode;

type PlatformState = {
  categoryTrees: Record<SiteId, CategoryNode[]>;
  /** The server's version of each tree held (null: none yet), checked before the tree is used. */
  categoryVersions: Record<SiteId, string | null>;
  accounts: unknown[];
  usableAccounts: unknown[];
  tempProductIds: string[];
  defaultBrandName: string;
  defaultSite: SiteId[];
  defaultShop: string | null;
};

type PlatformActions = {
  setCategoryTree(site: SiteId, tree: CategoryNode[], version?: string | null): void;
  setAccounts(accounts: unknown[], usable?: unknown[]): void;
  setTempProductIds(ids: string[]): void;
  setDefaults(d: Partial<Pick<PlatformState, "defaultBrandName" | "defaultSite" | "defaultShop">>): void;
  reset(): void;
};

const PLATFORM_STORE_ID = "platform";

const emptyTrees = (): Record<SiteId, CategoryNode[]> => ({ 1: [], 2: [], 3: [], 4: [], 5: [] });

const noVersions = (): Record<SiteId, string | null> => ({ 1: null, 2: null, 3: null, 4: null, 5: null });

const initial = (): PlatformState => ({
  categoryTrees: emptyTrees(),
  categoryVersions: noVersions(),
  accounts: [],
  usableAccounts: [],
  tempProductIds: [],
  defaultBrandName: "",
  defaultSite: [...DEFAULT_SITES],
  defaultShop: null,
});

export const usePlatformStore = create<PlatformState & PlatformActions>()(
  persist(
    (set) => ({
      ...initial(),
      setCategoryTree: (site, tree, version = null) =>
        set((s) => ({ categoryTrees: { ...s.categoryTrees, [site]: tree }, categoryVersions: { ...s.categoryVersions, [site]: version } })),
      setAccounts: (accounts, usable) => set({ accounts, usableAccounts: usable ?? accounts }),
      setTempProductIds: (tempProductIds) => set({ tempProductIds }),
      setDefaults: (d) => set(d),
      reset: () => set(initial()),
    }),
    {
      name: PLATFORM_STORE_ID,
      version: 1,
      partialize: ({ categoryTrees: _trees, categoryVersions: _versions, ...rest }) => rest,
    },
  ),
);
