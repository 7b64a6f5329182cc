// The permission filter of spec §6 (ROUTE_MAPPING mode): which routes a user sees and how they split into menus.
// Pure: the console calls it once after login with the user and the host's two lists, and stores the result.
import { sectionRoutes, type AppRoute, type MenuKey, type SectionRoute } from "./table.ts";

export type PermissionUser = {
  isMainAccount: boolean;
  isHost: boolean;
  roleList: readonly string[];
  tenantName: string | null;
};

export type PermissionLists = {
  /** Tenant names on the new-version allowlist (host setting Console.NewVersionTenants); empty means everyone. */
  newVersionTenants: readonly string[];
  /** Tenant names whose sub-accounts do not see finance routes (host setting Console.FinanceHiddenTenants). */
  financeHiddenTenants: readonly string[];
  /** The server runs the built-in Mercado Libre sandbox (MeliSandbox GetSandbox, asked by the host only). */
  meliSandbox?: boolean;
};

/** Spec §4: permission modes. Only ROUTE_MAPPING filters; ROLE and BACK are empty. */
export const PermissionMode = { ROLE: "ROLE", BACK: "BACK", ROUTE_MAPPING: "ROUTE_MAPPING" } as const;
export type PermissionMode = (typeof PermissionMode)[keyof typeof PermissionMode];

/** Tenant names compare without case and surrounding spaces, as the server normalises them. */
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const onList = (list: readonly string[], name: string | null) => name != null && list.some((n) => sameName(n, name));
/** The allowlist is the host's tool to stage a screen for some tenants: an empty list stages nothing, so everyone sees
 *  new-version routes (the listing centre is the product's main screen, issue 28); a non-empty list keeps them to its
 *  tenants (the host, who has no tenant name, is then left out). */
const allowedByList = (list: readonly string[], name: string | null) => list.length === 0 || onList(list, name);

/** Reads a host list setting: names separated by commas, semicolons or new lines; blanks dropped. */
export function parseNameList(value: string | null | undefined): string[] {
  return (value ?? "")
    .split(/[,;\n\r，；、]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The filter's view of a user from GetUserInfo. The host's own account is stored as its platform's main account, but
 *  the main-account centres (sub-accounts, authorization, ordering) are tenant features the server refuses the host,
 *  so for routes the host is not a main account. */
export function permissionUserOf(info: PermissionUser): PermissionUser {
  return { isMainAccount: info.isMainAccount && !info.isHost, isHost: info.isHost, roleList: info.roleList, tenantName: info.tenantName };
}

/** Spec §6: a route is visible only when every condition of its meta holds. */
export function isRouteVisible(route: Pick<AppRoute, "meta">, user: PermissionUser, lists: PermissionLists): boolean {
  const m = route.meta;
  if (m.isMainAccount && !user.isMainAccount) return false;
  if (m.isHost && !user.isHost) return false;
  if (m.roles?.length && !m.roles.some((r) => user.roleList.includes(r))) return false;
  if (m.isNewVersion && !allowedByList(lists.newVersionTenants, user.tenantName)) return false;
  if (m.isFinanceVisible && !user.isMainAccount && onList(lists.financeHiddenTenants, user.tenantName)) return false;
  if (m.isMeliSandbox && !lists.meliSandbox) return false;
  return true;
}

const byOrder = (a: AppRoute, b: AppRoute) => (a.meta.orderNo ?? 0) - (b.meta.orderNo ?? 0);

/** The sections the user may see, each with only its visible children (a section with none left is dropped),
 *  sorted by orderNo ascending (stable: equal numbers keep the table's order). */
export function filterSections(
  user: PermissionUser,
  lists: PermissionLists,
  sections: readonly SectionRoute[] = sectionRoutes,
): SectionRoute[] {
  return sections
    .filter((s) => isRouteVisible(s, user, lists))
    .map((s) => ({ ...s, children: s.children.filter((c) => isRouteVisible(c, user, lists)) }))
    .filter((s) => s.children.length > 0)
    .sort(byOrder);
}

export type Menus = {
  /** Products, shops, tasks, user, collects, dashboard, finance, auth, payment; then the admin sections. */
  mercado: SectionRoute[];
  ozone: SectionRoute[];
};

/** Spec §6: the Mercado and Ozone menus; admin (tenant) sections are appended to the Mercado list. */
function splitMenus(sections: readonly SectionRoute[]): Menus {
  const of = (menu: MenuKey) => sections.filter((s) => s.menu === menu);
  return { mercado: [...of("mercado"), ...of("admin")], ozone: of("ozone") };
}

/** Every screen path (and section path) the user may open; what the console keeps in local storage. */
export function allowedPaths(sections: readonly SectionRoute[]): string[] {
  return sections.flatMap((s) => [s.path, ...s.children.map((c) => c.path)]);
}

export type AllowedRoutes = { sections: SectionRoute[]; paths: string[]; menus: Menus };

/** The whole build of spec §6, once after login. ROLE and BACK modes are empty (spec §4). */
export function buildAllowedRoutes(
  user: PermissionUser,
  lists: PermissionLists,
  mode: PermissionMode = PermissionMode.ROUTE_MAPPING,
  sections: readonly SectionRoute[] = sectionRoutes,
): AllowedRoutes {
  const visible = mode === PermissionMode.ROUTE_MAPPING ? filterSections(user, lists, sections) : [];
  return { sections: visible, paths: allowedPaths(visible), menus: splitMenus(visible) };
}

/** The screen route for a path among the given sections (exact, case-sensitive match: strict routes). */
export function findScreen(sections: readonly SectionRoute[], path: string): AppRoute | undefined {
  for (const s of sections) for (const c of s.children) if (c.path === path) return c;
  return undefined;
}

/** The section whose own path is `path` (the console redirects it to `redirect`). */
export function findSection(sections: readonly SectionRoute[], path: string): SectionRoute | undefined {
  return sections.find((s) => s.path === path);
}
