// Account calls on ABP's paths (spec §7 Account): sign-up, password reset by code, credential checks, logout and the
// caller's own profile. JSON bodies, answers in {result} or 204.
import { z } from "zod";
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
} from "../contract/account.ts";
import { call } from "./define.ts";

const group = "Account";

export const accountCalls = {
  register: call({
    group,
    name: "Register",
    method: "POST",
    path: "/api/account/register",
    access: "anonymous",
    summary: "自助注册：开通一个新公司，注册人为其主账号",
    body: registerInput,
    result: fullUser,
  }),
  sendPasswordResetCode: call({
    group,
    name: "SendPasswordResetCode",
    method: "POST",
    path: "/api/account/send-password-reset-code",
    access: "anonymous",
    summary: "发送密码重置验证码（无论邮箱是否存在都答复 204）",
    body: sendPasswordResetCodeInput,
  }),
  verifyPasswordResetToken: call({
    group,
    name: "VerifyPasswordResetToken",
    method: "POST",
    path: "/api/account/verify-password-reset-token",
    access: "anonymous",
    body: verifyPasswordResetTokenInput,
    result: z.boolean(),
  }),
  resetPassword: call({
    group,
    name: "ResetPassword",
    method: "POST",
    path: "/api/account/reset-password",
    access: "anonymous",
    body: resetPasswordInput,
  }),
  /** Checks a user name and password without opening a session (tokens come from /connect/token). */
  login: call({
    group,
    name: "Login",
    method: "POST",
    path: "/api/account/login",
    access: "anonymous",
    summary: "校验用户名和密码（不建立会话；令牌由 /connect/token 签发）",
    body: loginInput,
    result: loginResult,
  }),
  checkPassword: call({
    group,
    name: "CheckPassword",
    method: "POST",
    path: "/api/account/check-password",
    access: "anonymous",
    body: loginInput,
    result: loginResult,
  }),
  /** Ends the session of the token sent with it. */
  logout: call({
    group,
    name: "Logout",
    method: "GET",
    path: "/api/account/logout",
    access: "anonymous",
    summary: "退出登录：所带令牌的会话立即失效",
  }),
  getMyProfile: call({ group, name: "GetMyProfile", method: "GET", path: "/api/account/my-profile", access: "user", result: profile }),
  updateMyProfile: call({
    group,
    name: "UpdateMyProfile",
    method: "PUT",
    path: "/api/account/my-profile",
    access: "user",
    body: updateProfileInput,
    result: profile,
  }),
};
