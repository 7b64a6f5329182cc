// App store (spec §3): the permission mode and which platform's menu is shown.
import { create } from "zustand";
import { PermissionMode } from "#shared/routes/permission.ts";

export type Platform = "mercado" | "ozone";

type AppState = { permissionMode: PermissionMode; platform: Platform };
type AppActions = { setPlatform(p: Platform): void; reset(): void };

const initial: AppState = { permissionMode: PermissionMode.ROUTE_MAPPING, platform: "mercado" };

export const useAppStore = create<AppState & AppActions>()((set) => ({
  ...initial,
  setPlatform: (platform) => set({ platform }),
  reset: () => set(initial),
}));
