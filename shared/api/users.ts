// User calls (spec §7 User): the caller's own info and cache, and the main account's sub-account management.
import { z } from "zod";
import { id, pagedResult } from "../contract/common.ts";
import {
  changePwdInput,
  createSubUserInput,
  enabledQuery,
  getSubUsersQuery,
  resetPwdInput,
  subUser,
  subUserStat,
  subUserStatQuery,
  tenantAccountSummary,
  updateUserInput,
  userInfo,
  userInitCache,
} from "../contract/users.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const userCalls = {
  getUserInfo: call({ method: "GET", path: "/api/User/GetUserInfo", result: userInfo }),
  getMyInfo: call({ method: "GET", path: "/api/User/GetMyInfo", result: tenantAccountSummary }),
  getUserInitCache: call({ method: "GET", path: "/api/User/GetUserInitCache", result: userInitCache }),
  getSubUsers: call({ method: "GET", path: "/api/User/GetSubUsers", query: getSubUsersQuery, result: pagedResult(subUser) }),
  getSubUserById: call({ method: "GET", path: "/api/User/GetSubUserById", query: z.object({ id }), result: subUser }),
  getSubUserStaticInfo: call({
    method: "GET",
    path: "/api/User/GetSubUserStaticInfo",
    query: subUserStatQuery,
    result: z.array(subUserStat),
  }),
  createSubUser: call({ idempotent: true, method: "POST", path: "/api/User/CreateSubUser", body: createSubUserInput, result: subUser }),
  updateUser: call({ method: "POST", path: "/api/User/UpdateUser", body: updateUserInput, result: subUser }),
  changePwd: call({ method: "POST", path: "/api/User/ChangePwd", body: changePwdInput }),
  getResetPwdToken: call({
    method: "GET",
    path: "/api/User/GetResetPwdToken",
    query: z.object({ userId: id }),
    result: z.object({ token: z.string(), expireTime: z.string() }),
  }),
  resetPwd: call({ method: "POST", path: "/api/User/ResetPwd", body: resetPwdInput }),
  clearSubAccountInfo: call({
    method: "POST",
    path: "/api/User/ClearSubAccountInfo",
    query: z.object({ id }),
    result: z.object({ taskId: z.string() }),
  }),
  enabled: call({ method: "PUT", path: "/api/User/Enabled", query: enabledQuery }),
};

export const createUserApi = (client: ApiClient) => bindCalls(client, userCalls);
export type UserApi = ReturnType<typeof createUserApi>;
