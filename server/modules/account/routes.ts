// Account calls on ABP's paths (spec §7 Account): JSON bodies, answers in {result} or 204.
import { z } from "zod";
import type { Registrar } from "../../http/calls.ts";
import {
  fullUser,
  loginInput,
  loginResult,
  profile,
  registerInput,
  resetPasswordInput,
  sendPasswordResetCodeInput,
  updateProfileInput,
  verifyPasswordResetTokenInput,
} from "#shared/contract/account.ts";
import type { AccountService } from "./service.ts";

export function registerAccount(r: Registrar, { account }: { account: AccountService }) {
  r.call({
    group: "Account",
    name: "Register",
    method: "POST",
    path: "/api/account/register",
    access: "anonymous",
    summary: "自助注册：开通一个新公司，注册人为其主账号",
    body: registerInput,
    result: fullUser,
    handler: (ctx, { body }) => account.register(ctx, body),
  });
  r.call({
    group: "Account",
    name: "SendPasswordResetCode",
    method: "POST",
    path: "/api/account/send-password-reset-code",
    access: "anonymous",
    summary: "发送密码重置验证码（无论邮箱是否存在都答复 204）",
    body: sendPasswordResetCodeInput,
    handler: async (ctx, { body }) => {
      account.limitPerIp(ctx);
      await account.sendPasswordResetCode(ctx, body);
    },
  });
  r.call({
    group: "Account",
    name: "VerifyPasswordResetToken",
    method: "POST",
    path: "/api/account/verify-password-reset-token",
    access: "anonymous",
    body: verifyPasswordResetTokenInput,
    result: z.boolean(),
    handler: (ctx, { body }) => {
      account.limitPerIp(ctx);
      return account.verifyPasswordResetToken(ctx, body);
    },
  });
  r.call({
    group: "Account",
    name: "ResetPassword",
    method: "POST",
    path: "/api/account/reset-password",
    access: "anonymous",
    body: resetPasswordInput,
    handler: (ctx, { body }) => {
      account.limitPerIp(ctx);
      return account.resetPassword(ctx, body);
    },
  });
  r.call({
    group: "Account",
    name: "Login",
    method: "POST",
    path: "/api/account/login",
    access: "anonymous",
    summary: "校验用户名和密码（不建立会话；令牌由 /connect/token 签发）",
    body: loginInput,
    result: loginResult,
    handler: (ctx, { body }) => account.checkPassword(ctx, body),
  });
  r.call({
    group: "Account",
    name: "CheckPassword",
    method: "POST",
    path: "/api/account/check-password",
    access: "anonymous",
    body: loginInput,
    result: loginResult,
    handler: (ctx, { body }) => account.checkPassword(ctx, body),
  });
  r.call({
    group: "Account",
    name: "Logout",
    method: "GET",
    path: "/api/account/logout",
    access: "anonymous",
    summary: "退出登录：所带令牌的会话立即失效",
    handler: (ctx) => account.logout(ctx),
  });
  r.call({
    group: "Account",
    name: "GetMyProfile",
    method: "GET",
    path: "/api/account/my-profile",
    access: "user",
    result: profile,
    handler: async (ctx) => account.getProfile(ctx),
  });
  r.call({
    group: "Account",
    name: "UpdateMyProfile",
    method: "PUT",
    path: "/api/account/my-profile",
    access: "user",
    body: updateProfileInput,
    result: profile,
    handler: (ctx, { body }) => account.updateProfile(ctx, body),
  });
}
