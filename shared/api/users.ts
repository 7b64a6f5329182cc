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
import { call } from "./define.ts";

const group = "User";

export const userCalls = {
  getUserInfo: call({ group, name: "GetUserInfo", method: "GET", access: "user", result: userInfo }),
  getMyInfo: call({ group, name: "GetMyInfo", method: "GET", access: "user", result: tenantAccountSummary }),
  getUserInitCache: call({ group, name: "GetUserInitCache", method: "GET", access: "user", result: userInitCache }),
  getSubUsers: call({
    group,
    name: "GetSubUsers",
    method: "GET",
    access: "main",
    query: getSubUsersQuery,
    result: pagedResult(subUser),
  }),
  getSubUserById: call({ group, name: "GetSubUserById", method: "GET", access: "main", query: z.object({ id }), result: subUser }),
  getSubUserStaticInfo: call({
    group,
    name: "GetSubUserStaticInfo",
    method: "GET",
    access: "main",
    query: subUserStatQuery,
    result: z.array(subUserStat),
  }),
  createSubUser: call({
    group,
    name: "CreateSubUser",
    method: "POST",
    access: "main",
    idempotent: true,
    body: createSubUserInput,
    result: subUser,
  }),
  updateUser: call({ group, name: "UpdateUser", method: "POST", access: "main", body: updateUserInput, result: subUser }),
  changePwd: call({ group, name: "ChangePwd", method: "POST", access: "user", body: changePwdInput }),
  getResetPwdToken: call({
    group,
    name: "GetResetPwdToken",
    method: "GET",
    access: "main",
    query: z.object({ userId: id }),
    result: z.object({ token: z.string(), expireTime: z.string() }),
  }),
  resetPwd: call({ group, name: "ResetPwd", method: "POST", access: "main", body: resetPwdInput }),
  clearSubAccountInfo: call({
    group,
    name: "ClearSubAccountInfo",
    method: "POST",
    access: "main",
    query: z.object({ id }),
    result: z.object({ taskId: z.string() }),
  }),
  enabled: call({ group, name: "Enabled", method: "PUT", access: "main", query: enabledQuery }),
};
