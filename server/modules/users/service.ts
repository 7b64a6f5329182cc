// Users: the caller's own info and cache (own-info.ts), the main account's management of sub-accounts (sub-users.ts),
// passwords (passwords.ts), the sub-account statistics (sub-user-stats.ts) and the clearing of a sub-account's data
// (clear-sub-account.ts). Every query names the caller's tenant; row-level security backs that up.
import type { Database } from "../../db/client.ts";
import type { CallContext } from "../../http/calls.ts";
import type { PasswordHasher } from "../identity/index.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { createClearSubAccount } from "./clear-sub-account.ts";
import type { ShopFigures, UserDataCleaner, UserStatContributor } from "./extensions.ts";
import { createOwnInfo } from "./own-info.ts";
import { changePwd, getResetPwdToken, resetPwd } from "./passwords.ts";
import { createSubUserStats } from "./sub-user-stats.ts";
import { createSubUser, getSubUserById, getSubUsers, setEnabled, toSubUser, updateUser } from "./sub-users.ts";

export type UserServiceDeps = {
  database: Database;
  jobs: Jobs;
  shops: ShopFigures;
  /** What ClearSubAccountInfo clears, in this order: each area's rows of the user. */
  userDataCleaners: UserDataCleaner[];
  /** Fill in the per-user figures of the sub-account statistics. */
  userStatContributors: UserStatContributor[];
  passwords: PasswordHasher;
};

export function createUserService({ database, jobs, shops, userDataCleaners, userStatContributors, passwords }: UserServiceDeps) {
  const { accountSummary, getMyInfo, getUserInitCache, getUserInfo } = createOwnInfo({ shops });
  const { getSubUserStaticInfo } = createSubUserStats({ userStatContributors });
  const clearing = createClearSubAccount({ database, jobs, userDataCleaners });
  return {
    accountSummary,
    getMyInfo,
    getUserInitCache,
    toSubUser,
    getSubUsers,
    getSubUserById,
    getSubUserStaticInfo,
    createSubUser: (ctx: CallContext, body: Parameters<typeof createSubUser>[1]) => createSubUser(ctx, body, passwords),
    updateUser,
    changePwd: (ctx: CallContext, body: Parameters<typeof changePwd>[1]) => changePwd(ctx, body, passwords),
    getResetPwdToken,
    resetPwd: (ctx: CallContext, body: Parameters<typeof resetPwd>[1]) => resetPwd(ctx, body, passwords),
    setEnabled,
    clearSubAccountInfo: clearing.clearSubAccountInfo,
    getUserInfo,
    workers: [clearing.worker],
  };
}

export type UserService = ReturnType<typeof createUserService>;
