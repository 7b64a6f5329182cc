// User store (spec §3 client-kept user info): the token, the tenant it was issued for, the user's info and cache.
// Persisted in local storage under its store id so a reload keeps the session (spec §4).
import { create } from "zustand";
import { persist } from "zustand/middleware";
import type { UserInfo, UserInitCache } from "#shared/contract/users.ts";

type UserCache = Pick<UserInitCache, "accs" | "subUsers" | "moduleAuths">;

type UserState = {
  access_token: string | null;
  token_type: string;
  refresh_token: string | null;
  /** The tenant id sent as __tenant (null for the host). */
  tenantId: string | null;
  tenantName: string | null;
  userInfo: UserInfo | null;
  isMainAccount: boolean;
  isHost: boolean;
  /** Spec §3: defaults to holding the super role until the user info says otherwise. */
  roleList: string[];
  userCache: UserCache;
  groups: UserInitCache["groups"];
};

type UserActions = {
  setToken(
    t: { access_token: string; token_type: string; refresh_token?: string | null },
    tenant?: { id: string | null; name: string | null },
  ): void;
  setUserInfo(info: UserInfo): void;
  setCache(cache: UserInitCache): void;
  reset(): void;
};

const USER_STORE_ID = "user";

const initial: UserState = {
  access_token: null,
  token_type: "Bearer",
  refresh_token: null,
  tenantId: null,
  tenantName: null,
  userInfo: null,
  isMainAccount: false,
  isHost: false,
  roleList: ["super"],
  userCache: { accs: [], subUsers: [], moduleAuths: [] },
  groups: [],
};

export const useUserStore = create<UserState & UserActions>()(
  persist(
    (set) => ({
      ...initial,
      setToken: (t, tenant) =>
        set((s) => ({
          access_token: t.access_token,
          token_type: t.token_type || "Bearer",
          refresh_token: t.refresh_token ?? s.refresh_token,
          ...(tenant ? { tenantId: tenant.id, tenantName: tenant.name } : {}),
        })),
      setUserInfo: (info) =>
        set({
          userInfo: info,
          isMainAccount: info.isMainAccount,
          isHost: info.isHost,
          roleList: info.roleList,
          tenantName: info.tenantName,
        }),
      setCache: (c) => set({ userCache: { accs: c.accs, subUsers: c.subUsers, moduleAuths: c.moduleAuths }, groups: c.groups }),
      reset: () => set(initial),
    }),
    { name: USER_STORE_ID, version: 1 },
  ),
);
