// The session of spec §4: logged out → token → user info and cache loaded → dashboard; logout resets the user, app
// and platform stores, clears the category cache and goes to /login; a reload with a token loads everything again.
import { ApiError } from "#shared/api/errors.ts";
import { SettingKeys } from "#shared/contract/setting-registry.ts";
import { buildAllowedRoutes, parseNameList, permissionUserOf } from "#shared/routes/permission.ts";
import { basicRoutes } from "#shared/routes/table.ts";
import { toast } from "#shared/ui/toast.tsx";
import { useAppStore } from "../stores/app.ts";
import { useConfigStore } from "../stores/config.ts";
import { usePermissionStore } from "../stores/permission.ts";
import { usePlatformStore } from "../stores/platform.ts";
import { useTabsStore } from "../stores/tabs.ts";
import { useUserStore } from "../stores/user.ts";
import { onUnauthorized, sessionApi } from "./api.ts";
import { clearCategoryCache, readAllCategoryTrees } from "./category-cache.ts";
import { queryClient } from "./query-client.ts";

/** The host settings holding the two lists of spec §6 (read through GetValueByKey). */
const PermissionSettingKeys = {
  newVersionTenants: SettingKeys.newVersionTenants,
  financeHiddenTenants: SettingKeys.financeHiddenTenants,
};

export const sessionMessages = {
  initializing: "初始化用户信息中，请稍候...",
  loaded: "用户信息加载成功",
  loadFailed: "用户信息加载失败",
  loginFailed: "获取用户信息失败，请重新登录!!!",
  tenantUnknown: (name: string) => `公司 ${name} 不存在`,
  tenantInactive: (name: string) => `公司 ${name} 已停用`,
};

export class LoginError extends Error {}

/** Resolves the tenant name typed on the login screen; an empty name is the host. */
export async function resolveTenant(name: string): Promise<{ id: string | null; name: string | null }> {
  const trimmed = name.trim();
  if (!trimmed) return { id: null, name: null };
  const t = await sessionApi.tenancy.findTenantByName({ name: trimmed });
  if (!t.success || !t.tenantId) throw new LoginError(sessionMessages.tenantUnknown(trimmed));
  if (!t.isActive) throw new LoginError(sessionMessages.tenantInactive(t.name ?? trimmed));
  return { id: t.tenantId, name: t.name ?? trimmed };
}

/** Password login: stores the token for the resolved tenant (with a refresh token: sellers stay in all day). */
async function login(input: { tenantName: string; userName: string; password: string }): Promise<void> {
  const tenant = await resolveTenant(input.tenantName);
  const token = await sessionApi.token.login({
    username: input.userName.trim(),
    password: input.password,
    tenant: tenant.id,
    offlineAccess: true,
  });
  useUserStore.getState().setToken(token, tenant);
}

/** Loads the user info, the user cache and the two host lists, builds the allowed routes once, and restores the
 *  category trees from the local database. */
export async function loadUserSession(): Promise<void> {
  const [info, cache, newVersion, financeHidden] = await Promise.all([
    sessionApi.user.getUserInfo(),
    sessionApi.user.getUserInitCache(),
    sessionApi.settings.getValueByKey({ key: PermissionSettingKeys.newVersionTenants }),
    sessionApi.settings.getValueByKey({ key: PermissionSettingKeys.financeHiddenTenants }),
  ]);
  // Only the host has the built-in sandbox's page; its menu entry shows while the server runs the sandbox.
  const meliSandbox = info.isHost
    ? await sessionApi.meliSandbox.getSandbox().then(
        (s) => s.enabled,
        () => false,
      )
    : false;
  const user = useUserStore.getState();
  user.setUserInfo(info);
  user.setCache(cache);
  const allowed = buildAllowedRoutes(
    permissionUserOf(info),
    { newVersionTenants: parseNameList(newVersion), financeHiddenTenants: parseNameList(financeHidden), meliSandbox },
    useAppStore.getState().permissionMode,
  );
  usePermissionStore.getState().setAllowed(allowed);
  try {
    const trees = await readAllCategoryTrees();
    const platform = usePlatformStore.getState();
    for (const [site, cached] of trees) platform.setCategoryTree(site, cached.tree, cached.version);
  } catch {
    // A browser without IndexedDB (private mode) just fetches categories again when a screen needs them.
  }
}

/** Resets every client store and cached server answer. */
async function clearClientState(): Promise<void> {
  useUserStore.getState().reset();
  useAppStore.getState().reset();
  usePlatformStore.getState().reset();
  usePermissionStore.getState().reset();
  useConfigStore.getState().reset();
  useTabsStore.getState().reset();
  queryClient.clear();
  try {
    await clearCategoryCache();
  } catch {
    // Nothing cached when IndexedDB is unavailable.
  }
}

let loggingOut = false;

/** Logout (spec §4). `callServer` revokes the session on the server first (not after a 401: it is gone already). */
export async function logout({ callServer = true } = {}): Promise<void> {
  if (loggingOut) return;
  loggingOut = true;
  try {
    if (callServer && useUserStore.getState().access_token) {
      await sessionApi.account.logout().catch(() => undefined);
    }
    await clearClientState();
    if (window.location.hash !== `#${basicRoutes.login}`) window.location.hash = `#${basicRoutes.login}`;
  } finally {
    loggingOut = false;
  }
}

// Spec §8: a 401 (after the refresh attempt) logs the user out.
onUnauthorized(() => void logout({ callServer: false }));

let signingIn = false;
/** True while the login screen is between getting a token and loading the user (the guard must not step in). */
export const isSigningIn = () => signingIn;

/** Full login as the screen runs it, with the spec's messages. Answers false when it failed (already shown). */
export async function loginAndLoad(input: { tenantName: string; userName: string; password: string }): Promise<boolean> {
  signingIn = true;
  try {
    return await loginThenLoad(input);
  } finally {
    signingIn = false;
  }
}

async function loginThenLoad(input: { tenantName: string; userName: string; password: string }): Promise<boolean> {
  await login(input);
  const id = toast.loading(sessionMessages.initializing);
  try {
    await loadUserSession();
    toast.update(id, { type: "success", message: sessionMessages.loaded });
    return true;
  } catch (error) {
    toast.update(id, { type: "error", message: sessionMessages.loadFailed });
    toast.error(sessionMessages.loginFailed);
    await logout({ callServer: !(error instanceof ApiError && error.status === 401) });
    return false;
  }
}
