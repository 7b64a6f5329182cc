// @vitest-environment happy-dom
// The spec's client stores (§3): defaults, what is persisted under which store id, and reset.
import { beforeEach, describe, expect, it } from "vitest";
import { buildAllowedRoutes } from "#shared/routes/permission.ts";
import { useAppStore } from "./app.ts";
import { useConfigStore } from "./config.ts";
import { usePermissionStore } from "./permission.ts";
import { DEFAULT_SITES, usePlatformStore } from "./platform.ts";
import { PINNED_TAB, useTabsStore } from "./tabs.ts";
import { useUserStore } from "./user.ts";

const stored = (id: string) => JSON.parse(localStorage.getItem(id) ?? "null")?.state;

beforeEach(() => {
  for (const s of [useUserStore, useAppStore, usePlatformStore, usePermissionStore, useConfigStore, useTabsStore]) s.getState().reset();
  localStorage.clear();
});

describe("stores", () => {
  it("app: ROUTE_MAPPING and mercado by default", () => {
    expect(useAppStore.getState()).toMatchObject({ permissionMode: "ROUTE_MAPPING", platform: "mercado" });
    useAppStore.getState().setPlatform("ozone");
    useAppStore.getState().reset();
    expect(useAppStore.getState().platform).toBe("mercado");
  });

  it("config: productTitleLanguage es", () => {
    expect(useConfigStore.getState()).toMatchObject({ collectConfig: null, productTitleLanguage: "es" });
  });

  it("platform: default sites [1,2,3,4], trees for 5 sites in memory only, the rest persisted under 'platform'", () => {
    const p = usePlatformStore.getState();
    expect(p.defaultSite).toEqual([1, 2, 3, 4]);
    expect(DEFAULT_SITES).toEqual([1, 2, 3, 4]);
    expect(Object.keys(p.categoryTrees)).toEqual(["1", "2", "3", "4", "5"]);
    p.setCategoryTree(1, [{ id: "MLM1", name: "Ropa", fullName: "Ropa", isLeaf: true }], "v1");
    p.setDefaults({ defaultBrandName: "Acme", defaultShop: "shop-1" });
    p.setTempProductIds(["a", "b"]);
    const saved = stored("platform");
    expect(saved).toMatchObject({ defaultBrandName: "Acme", defaultShop: "shop-1", tempProductIds: ["a", "b"], defaultSite: [1, 2, 3, 4] });
    expect(saved.categoryTrees).toBeUndefined();
    expect(saved.categoryVersions).toBeUndefined();
    expect(usePlatformStore.getState().categoryTrees[1]).toHaveLength(1);
    expect(usePlatformStore.getState().categoryVersions[1]).toBe("v1");
    usePlatformStore.getState().reset();
    expect(usePlatformStore.getState()).toMatchObject({ defaultBrandName: "", defaultShop: null, tempProductIds: [] });
    expect(usePlatformStore.getState().categoryTrees[1]).toEqual([]);
    expect(usePlatformStore.getState().categoryVersions[1]).toBeNull();
  });

  it("user: the token and user info persist under 'user' (a reload keeps the session); reset empties them", () => {
    const u = useUserStore.getState();
    expect(u.roleList).toEqual(["super"]);
    u.setToken({ access_token: "tok", token_type: "Bearer", refresh_token: "ref" }, { id: "t-1", name: "acme" });
    u.setUserInfo({
      id: "u1",
      userName: "alice",
      name: null,
      email: null,
      tenantId: "t-1",
      tenantName: "acme",
      isMainAccount: false,
      isHost: false,
      roleList: ["sub"],
      isShowPageCrwal: false,
      limitMeliAccount: null,
      collectCount: null,
      productCount: null,
    });
    expect(stored("user")).toMatchObject({
      access_token: "tok",
      refresh_token: "ref",
      tenantId: "t-1",
      roleList: ["sub"],
      isMainAccount: false,
    });
    // A refresh keeps the tenant and the refresh token when the answer has none.
    useUserStore.getState().setToken({ access_token: "tok2", token_type: "Bearer" });
    expect(useUserStore.getState()).toMatchObject({ access_token: "tok2", refresh_token: "ref", tenantId: "t-1" });
    useUserStore.getState().reset();
    expect(stored("user")).toMatchObject({ access_token: null, userInfo: null, tenantId: null });
  });

  it("permission: allowed paths persisted locally, menus in memory; reset clears the added-routes flag", () => {
    const a = buildAllowedRoutes(
      { isMainAccount: true, isHost: false, roleList: ["super"], tenantName: "acme" },
      { newVersionTenants: [], financeHiddenTenants: [] },
    );
    usePermissionStore.getState().setAllowed(a);
    expect(usePermissionStore.getState().isDynamicAddedRoute).toBe(true);
    expect(stored("permission")).toEqual({ allowedPaths: a.paths });
    expect(usePermissionStore.getState().menus.mercado.length).toBeGreaterThan(0);
    usePermissionStore.getState().reset();
    expect(usePermissionStore.getState()).toMatchObject({ allowedPaths: [], isDynamicAddedRoute: false });
  });

  it("tabs: opening twice keeps one tab; closing answers the left neighbour; the workbench stays", () => {
    const t = useTabsStore.getState();
    t.open({ path: "/a", title: "A" });
    t.open({ path: "/b", title: "B" });
    t.open({ path: "/a", title: "A" });
    expect(useTabsStore.getState().tabs.map((x) => x.path)).toEqual([PINNED_TAB.path, "/a", "/b"]);
    expect(useTabsStore.getState().close("/b")).toBe("/a");
    expect(useTabsStore.getState().close(PINNED_TAB.path)).toBeNull();
    expect(useTabsStore.getState().close("/zzz")).toBeNull();
    expect(useTabsStore.getState().tabs.map((x) => x.path)).toEqual([PINNED_TAB.path, "/a"]);
  });
});
