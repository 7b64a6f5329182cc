// Platform store (spec §3), persisted in local storage under its store id. Category trees are kept in memory and in
// the IndexedDB category cache (lib/category-cache.ts), not in local storage: a site's tree is megabytes.
import { create } from "zustand";
import { persist } from "zustand/middleware";

/** Spec §1/§9: site ids 1..5 map to mx, bl, cl, co, cbt. */
export const SITES = { 1: "mx", 2: "bl", 3: "cl", 4: "co", 5: "cbt" } as const;
export type SiteId = keyof typeof SITES;
export const SITE_IDS = [1, 2, 3, 4, 5] as const satisfies readonly SiteId[];
export const DEFAULT_SITES: SiteId[] = [1, 2, 3, 4];

export type CategoryNode = { id: string; name: string; fullName?: string; isLeaf?: boolean; children?: CategoryNode[] };

type PlatformState = {
  categoryTrees: Record<SiteId, CategoryNode[]>;
  accounts: unknown[];
  usableAccounts: unknown[];
  tempProductIds: string[];
  defaultBrandName: string;
  defaultSite: SiteId[];
  defaultShop: string | null;
};

type PlatformActions = {
  setCategoryTree(site: SiteId, tree: CategoryNode[]): void;
  setAccounts(accounts: unknown[], usable?: unknown[]): void;
  setTempProductIds(ids: string[]): void;
  setDefaults(d: Partial<Pick<PlatformState, "defaultBrandName" | "defaultSite" | "defaultShop">>): void;
  reset(): void;
};

export const PLATFORM_STORE_ID = "platform";

const emptyTrees = (): Record<SiteId, CategoryNode[]> => ({ 1: [], 2: [], 3: [], 4: [], 5: [] });

const initial = (): PlatformState => ({
  categoryTrees: emptyTrees(),
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
      setCategoryTree: (site, tree) => set((s) => ({ categoryTrees: { ...s.categoryTrees, [site]: tree } })),
      setAccounts: (accounts, usable) => set({ accounts, usableAccounts: usable ?? accounts }),
      setTempProductIds: (tempProductIds) => set({ tempProductIds }),
      setDefaults: (d) => set(d),
      reset: () => set(initial()),
    }),
    {
      name: PLATFORM_STORE_ID,
      version: 1,
      partialize: ({ categoryTrees: _trees, ...rest }) => rest,
    },
  ),
);
