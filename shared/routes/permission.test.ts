// Spec §6, case by case: who sees which route, the order, and the two menus.
import { describe, expect, it } from "vitest";
import {
  allowedPaths,
  buildAllowedRoutes,
  filterSections,
  isRouteVisible,
  parseNameList,
  permissionUserOf,
  PermissionMode,
  type PermissionLists,
  type PermissionUser,
} from "./permission.ts";
import { sectionRoutes, type SectionRoute } from "./table.ts";

const noLists: PermissionLists = { newVersionTenants: [], financeHiddenTenants: [] };
const host: PermissionUser = { isMainAccount: false, isHost: true, roleList: ["host"], tenantName: null };
const main: PermissionUser = { isMainAccount: true, isHost: false, roleList: ["super"], tenantName: "acme" };
const sub: PermissionUser = { isMainAccount: false, isHost: false, roleList: ["sub"], tenantName: "acme" };

const pathsOf = (user: PermissionUser, lists = noLists) => buildAllowedRoutes(user, lists).paths;
const sectionNames = (user: PermissionUser, lists = noLists) => filterSections(user, lists).map((s) => s.path);

describe("isRouteVisible", () => {
  const route = (meta: SectionRoute["meta"]) => ({ meta });
  it("main-account-only routes need the main account", () => {
    const r = route({ title: "x", isMainAccount: true });
    expect(isRouteVisible(r, main, noLists)).toBe(true);
    expect(isRouteVisible(r, sub, noLists)).toBe(false);
    expect(isRouteVisible(r, host, noLists)).toBe(false);
  });
  it("host-only routes need the host flag", () => {
    const r = route({ title: "x", isHost: true });
    expect(isRouteVisible(r, host, noLists)).toBe(true);
    expect(isRouteVisible(r, main, noLists)).toBe(false);
    expect(isRouteVisible(r, sub, noLists)).toBe(false);
  });
  it("listed roles need at least one held; an empty list means no restriction", () => {
    const r = route({ title: "x", roles: ["super", "test"] });
    expect(isRouteVisible(r, main, noLists)).toBe(true);
    expect(isRouteVisible(r, sub, noLists)).toBe(false);
    expect(isRouteVisible(r, { ...sub, roleList: ["sub", "test"] }, noLists)).toBe(true);
    expect(isRouteVisible(route({ title: "x", roles: [] }), sub, noLists)).toBe(true);
  });
  it("new-version routes: an empty allowlist means everyone (issue 28)", () => {
    const r = route({ title: "x", isNewVersion: true });
    expect(isRouteVisible(r, main, noLists)).toBe(true);
    expect(isRouteVisible(r, sub, noLists)).toBe(true);
    expect(isRouteVisible(r, { ...main, tenantName: "other" }, noLists)).toBe(true);
    expect(isRouteVisible(r, host, noLists)).toBe(true);
  });
  it("new-version routes: a non-empty allowlist keeps them to its tenants (names compared without case and spaces)", () => {
    const r = route({ title: "x", isNewVersion: true });
    const lists = { ...noLists, newVersionTenants: ["t1", " ACME ", "t3", "t4", "t5", "t6", "t7"] };
    expect(isRouteVisible(r, main, lists)).toBe(true);
    expect(isRouteVisible(r, sub, lists)).toBe(true);
    expect(isRouteVisible(r, { ...main, tenantName: "other" }, lists)).toBe(false);
    expect(isRouteVisible(r, host, lists)).toBe(false); // the host has no tenant name
  });
  it("finance-visible routes are hidden only from non-main accounts of an excluded tenant", () => {
    const r = route({ title: "x", isFinanceVisible: true });
    const lists = { ...noLists, financeHiddenTenants: ["acme"] };
    expect(isRouteVisible(r, sub, lists)).toBe(false);
    expect(isRouteVisible(r, main, lists)).toBe(true);
    expect(isRouteVisible(r, { ...sub, tenantName: "other" }, lists)).toBe(true);
    expect(isRouteVisible(r, sub, noLists)).toBe(true);
  });
  it("all conditions must hold together", () => {
    const r = route({ title: "x", isMainAccount: true, isNewVersion: true });
    expect(isRouteVisible(r, main, { ...noLists, newVersionTenants: ["acme"] })).toBe(true);
    expect(isRouteVisible(r, main, { ...noLists, newVersionTenants: ["other"] })).toBe(false);
    expect(isRouteVisible(r, sub, { ...noLists, newVersionTenants: ["acme"] })).toBe(false);
  });
});

describe("the spec's table", () => {
  it("host: admin routes and the host-only selection library; no main-account centres", () => {
    const paths = pathsOf(host);
    expect(paths).toEqual(expect.arrayContaining(["/admin/recharge", "/admin/user", "/admin/system_config", "/proudcts/selection"]));
    expect(paths).not.toContain("/user/setting");
    expect(paths).not.toContain("/module-auth/auth");
    expect(paths).not.toContain("/payment/package");
    // With no allowlist the listing centre is everyone's, the host's too (it lists every tenant's listings).
    expect(paths).toContain("/proudcts/publish-records/v2");
  });

  it("main account: authorization, ordering and personal centres, finance; no admin, no selection library", () => {
    const paths = pathsOf(main);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/dashboard/wrokbench",
        "/faq/list",
        "/proudcts/list",
        "/module-auth/auth",
        "/module-auth/apply",
        "/payment/package",
        "/user/setting",
        "/user/currency",
        "/finance/wallet/list",
        "/finance/charge/list",
        "/test/index",
      ]),
    );
    expect(paths.some((p) => p.startsWith("/admin"))).toBe(false);
    expect(paths).not.toContain("/proudcts/selection");
  });

  it("host: the personal centre holds only the currency rates, which the host maintains", () => {
    const user = filterSections(host, noLists).find((s) => s.path === "/user");
    expect(user?.children.map((c) => c.path)).toEqual(["/user/currency"]);
  });

  it("sub-account: none of the main-account centres", () => {
    const paths = pathsOf(sub);
    expect(paths).toContain("/proudcts/list");
    expect(paths).toContain("/finance/wallet/list");
    for (const p of ["/module-auth", "/payment", "/user", "/admin"])
      expect(paths.some((x) => x === p || x.startsWith(`${p}/`))).toBe(false);
  });

  it("a sub-account of the finance-excluded tenant loses the finance centre; its main account keeps it", () => {
    const lists = { ...noLists, financeHiddenTenants: ["acme"] };
    expect(sectionNames(sub, lists)).not.toContain("/finance");
    expect(sectionNames(main, lists)).toContain("/finance");
  });

  it("every tenant sees the listing centre while the host lists no tenant (the demo tenant included)", () => {
    for (const user of [main, sub, { ...main, tenantName: "demo" }, { ...sub, tenantName: null }])
      expect(pathsOf(user, { ...noLists, newVersionTenants: parseNameList("") })).toContain("/proudcts/publish-records/v2");
  });

  it("once the host lists tenants, only they see the new-version upload details", () => {
    const lists = { ...noLists, newVersionTenants: parseNameList("a,b,c,d,e,f,acme") };
    expect(pathsOf(main, lists)).toContain("/proudcts/publish-records/v2");
    expect(pathsOf(sub, lists)).toContain("/proudcts/publish-records/v2");
    expect(pathsOf({ ...main, tenantName: "zeta" }, lists)).not.toContain("/proudcts/publish-records/v2");
  });

  it("sections are sorted by orderNo ascending, equal numbers in table order", () => {
    const order = filterSections(main, noLists).map((s) => [s.path, s.meta.orderNo]);
    expect(order).toEqual([
      ["/dashboard", 0],
      ["/proudcts", 2],
      ["/test", 3],
      ["/collects", 3],
      ["/shops", 4],
      ["/task", 4],
      ["/module-auth", 4],
      ["/finance", 5],
      ["/payment", 6],
      ["/user", 7],
    ]);
  });

  it("menus: Ozone holds the test section; admin sections are appended after the Mercado sections", () => {
    const hostMenus = buildAllowedRoutes(host, noLists).menus;
    expect(hostMenus.ozone.map((s) => s.path)).toEqual(["/test"]);
    const mercado = hostMenus.mercado.map((s) => s.path);
    expect(mercado.at(-1)).toBe("/admin");
    expect(mercado).toEqual(["/dashboard", "/proudcts", "/collects", "/shops", "/task", "/finance", "/user", "/admin"]);
    const mainMenus = buildAllowedRoutes(main, noLists).menus;
    expect(mainMenus.mercado.map((s) => s.path)).toEqual([
      "/dashboard",
      "/proudcts",
      "/collects",
      "/shops",
      "/task",
      "/module-auth",
      "/finance",
      "/payment",
      "/user",
    ]);
  });

  it("a section whose children are all hidden is dropped", () => {
    const onlyHostChild: SectionRoute = {
      path: "/s",
      name: "S",
      menu: "mercado",
      meta: { title: "s", orderNo: 1 },
      children: [{ path: "/s/a", name: "A", meta: { title: "a", isHost: true } }],
    };
    expect(filterSections(main, noLists, [onlyHostChild])).toEqual([]);
    expect(filterSections(host, noLists, [onlyHostChild]).map((s) => s.path)).toEqual(["/s"]);
  });

  it("ROLE and BACK modes build nothing (spec §4)", () => {
    expect(buildAllowedRoutes(main, noLists, PermissionMode.ROLE).paths).toEqual([]);
    expect(buildAllowedRoutes(main, noLists, PermissionMode.BACK).paths).toEqual([]);
  });

  it("keeps every path as the spec spells it and every screen has a page key", () => {
    const all = allowedPaths(sectionRoutes);
    for (const p of ["/dashboard/wrokbench", "/proudcts/list", "/proudcts/publish-records/v2", "/admin/system_config", "/collects/task"]) {
      expect(all).toContain(p);
    }
    expect(new Set(all).size).toBe(all.length);
    for (const s of sectionRoutes) {
      expect(s.redirect && s.children.some((c) => c.path === s.redirect)).toBe(true);
      for (const c of s.children) expect(c.page).toBeTruthy();
    }
  });
});

describe("permissionUserOf", () => {
  it("the host's account is not a main account for routes, even though it is stored as one", () => {
    expect(permissionUserOf({ ...host, isMainAccount: true }).isMainAccount).toBe(false);
    expect(pathsOf(permissionUserOf({ ...host, isMainAccount: true }))).not.toContain("/user/setting");
    expect(permissionUserOf(main)).toEqual(main);
    expect(permissionUserOf(sub)).toEqual(sub);
  });
});

describe("parseNameList", () => {
  it("splits on commas, semicolons (ASCII and full-width), 、 and new lines; drops blanks", () => {
    expect(parseNameList(" a, b；c\nd;;，e、f ")).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(parseNameList(null)).toEqual([]);
    expect(parseNameList("")).toEqual([]);
  });
});
