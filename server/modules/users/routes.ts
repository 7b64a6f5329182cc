// User calls (spec §7 User): the caller's own info and cache, and the main account's sub-account management.
import { z } from "zod";
import type { Registrar } from "../../http/calls.ts";
import { id } from "#shared/contract/common.ts";
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
} from "#shared/contract/users.ts";
import { pagedResult } from "#shared/contract/common.ts";
import type { UserService } from "./service.ts";

export function registerUsers(r: Registrar, { users }: { users: UserService }) {
  r.call({
    group: "User",
    name: "GetUserInfo",
    method: "GET",
    access: "user",
    result: userInfo,
    handler: (ctx) => users.getUserInfo(ctx),
  });
  r.call({
    group: "User",
    name: "GetMyInfo",
    method: "GET",
    access: "user",
    result: tenantAccountSummary,
    handler: (ctx) => users.getMyInfo(ctx),
  });
  r.call({
    group: "User",
    name: "GetUserInitCache",
    method: "GET",
    access: "user",
    result: userInitCache,
    handler: (ctx) => users.getUserInitCache(ctx),
  });
  r.call({
    group: "User",
    name: "GetSubUsers",
    method: "GET",
    access: "main",
    query: getSubUsersQuery,
    result: pagedResult(subUser),
    handler: (ctx, { query }) => users.getSubUsers(ctx, query),
  });
  r.call({
    group: "User",
    name: "GetSubUserById",
    method: "GET",
    access: "main",
    query: z.object({ id }),
    result: subUser,
    handler: (ctx, { query }) => users.getSubUserById(ctx, query.id),
  });
  r.call({
    group: "User",
    name: "GetSubUserStaticInfo",
    method: "GET",
    access: "main",
    query: subUserStatQuery,
    result: z.array(subUserStat),
    handler: (ctx, { query }) => users.getSubUserStaticInfo(ctx, query),
  });
  r.call({
    group: "User",
    name: "CreateSubUser",
    method: "POST",
    access: "main",
    idempotent: true,
    body: createSubUserInput,
    result: subUser,
    handler: (ctx, { body }) => users.createSubUser(ctx, body),
  });
  r.call({
    group: "User",
    name: "UpdateUser",
    method: "POST",
    access: "main",
    body: updateUserInput,
    result: subUser,
    handler: (ctx, { body }) => users.updateUser(ctx, body),
  });
  r.call({
    group: "User",
    name: "ChangePwd",
    method: "POST",
    access: "user",
    body: changePwdInput,
    handler: (ctx, { body }) => users.changePwd(ctx, body),
  });
  r.call({
    group: "User",
    name: "GetResetPwdToken",
    method: "GET",
    access: "main",
    query: z.object({ userId: id }),
    result: z.object({ token: z.string(), expireTime: z.string() }),
    handler: (ctx, { query }) => users.getResetPwdToken(ctx, query.userId),
  });
  r.call({
    group: "User",
    name: "ResetPwd",
    method: "POST",
    access: "main",
    body: resetPwdInput,
    handler: (ctx, { body }) => users.resetPwd(ctx, body),
  });
  r.call({
    group: "User",
    name: "ClearSubAccountInfo",
    method: "POST",
    access: "main",
    query: z.object({ id }),
    result: z.object({ taskId: z.string() }),
    handler: (ctx, { query }) => users.clearSubAccountInfo(ctx, query.id),
  });
  r.call({
    group: "User",
    name: "Enabled",
    method: "PUT",
    access: "main",
    query: enabledQuery,
    handler: (ctx, { query }) => users.setEnabled(ctx, query.userId, query.enable),
  });
}
