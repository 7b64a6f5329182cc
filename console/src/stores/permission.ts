// Permission store (spec §3/§6): the routes the user may open, built once after login, and the two menus. The
// allowed paths are kept in local storage so a reload can guard before the user info has been fetched again.
import { create } from "zustand";
import { persist } from "zustand/middleware";
import type { AllowedRoutes, Menus } from "#shared/routes/permission.ts";
import type { SectionRoute } from "#shared/routes/table.ts";

type PermissionState = {
  sections: SectionRoute[];
  allowedPaths: string[];
  menus: Menus;
  /** Whether the protected routes have been added (once per login). */
  isDynamicAddedRoute: boolean;
};
type PermissionActions = { setAllowed(a: AllowedRoutes): void; reset(): void };

const PERMISSION_STORE_ID = "permission";

const initial: PermissionState = { sections: [], allowedPaths: [], menus: { mercado: [], ozone: [] }, isDynamicAddedRoute: false };

export const usePermissionStore = create<PermissionState & PermissionActions>()(
  persist(
    (set) => ({
      ...initial,
      setAllowed: (a) => set({ sections: a.sections, allowedPaths: a.paths, menus: a.menus, isDynamicAddedRoute: true }),
      reset: () => set(initial),
    }),
    { name: PERMISSION_STORE_ID, version: 1, partialize: (s) => ({ allowedPaths: s.allowedPaths }) },
  ),
);
