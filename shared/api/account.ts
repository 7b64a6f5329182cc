// Account calls on ABP's paths (spec §7 Account): sign-up, password reset by code, credential checks, logout and the
// caller's own profile.
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
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const accountCalls = {
  register: call({ method: "POST", path: "/api/account/register", body: registerInput, result: fullUser }),
  sendPasswordResetCode: call({ method: "POST", path: "/api/account/send-password-reset-code", body: sendPasswordResetCodeInput }),
  verifyPasswordResetToken: call({
    method: "POST",
    path: "/api/account/verify-password-reset-token",
    body: verifyPasswordResetTokenInput,
    result: z.boolean(),
  }),
  resetPassword: call({ method: "POST", path: "/api/account/reset-password", body: resetPasswordInput }),
  /** Checks a user name and password without opening a session (tokens come from /connect/token). */
  login: call({ method: "POST", path: "/api/account/login", body: loginInput, result: loginResult }),
  checkPassword: call({ method: "POST", path: "/api/account/check-password", body: loginInput, result: loginResult }),
  /** Ends the session of the token sent with it. */
  logout: call({ method: "GET", path: "/api/account/logout" }),
  getMyProfile: call({ method: "GET", path: "/api/account/my-profile", result: profile }),
  updateMyProfile: call({ method: "PUT", path: "/api/account/my-profile", body: updateProfileInput, result: profile }),
};

export const createAccountApi = (client: ApiClient) => bindCalls(client, accountCalls);
export type AccountApi = ReturnType<typeof createAccountApi>;
