// User calls, declared in shared/api/users.ts.
import type { Registrar } from "../../http/calls.ts";
import { userCalls as calls } from "#shared/api/users.ts";
import type { UserService } from "./service.ts";

export function registerUsers(r: Registrar, { users }: { users: UserService }) {
  r.handle(calls.getUserInfo, { handler: (ctx) => users.getUserInfo(ctx) });
  r.handle(calls.getMyInfo, { handler: (ctx) => users.getMyInfo(ctx) });
  r.handle(calls.getUserInitCache, { handler: (ctx) => users.getUserInitCache(ctx) });
  r.handle(calls.getSubUsers, { handler: (ctx, { query }) => users.getSubUsers(ctx, query) });
  r.handle(calls.getSubUserById, { handler: (ctx, { query }) => users.getSubUserById(ctx, query.id) });
  r.handle(calls.getSubUserStaticInfo, { handler: (ctx, { query }) => users.getSubUserStaticInfo(ctx, query) });
  r.handle(calls.createSubUser, { handler: (ctx, { body }) => users.createSubUser(ctx, body) });
  r.handle(calls.updateUser, { handler: (ctx, { body }) => users.updateUser(ctx, body) });
  r.handle(calls.changePwd, { handler: (ctx, { body }) => users.changePwd(ctx, body) });
  r.handle(calls.getResetPwdToken, { handler: (ctx, { query }) => users.getResetPwdToken(ctx, query.userId) });
  r.handle(calls.resetPwd, { handler: (ctx, { body }) => users.resetPwd(ctx, body) });
  r.handle(calls.clearSubAccountInfo, { handler: (ctx, { query }) => users.clearSubAccountInfo(ctx, query.id) });
  r.handle(calls.enabled, { handler: (ctx, { query }) => users.setEnabled(ctx, query.userId, query.enable) });
}
