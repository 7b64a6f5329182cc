// Account calls on ABP's paths, declared in shared/api/account.ts.
import type { Registrar } from "../../http/calls.ts";
import { accountCalls as calls } from "#shared/api/account.ts";
import type { AccountService } from "./service.ts";

export function registerAccount(r: Registrar, { account }: { account: AccountService }) {
  r.handle(calls.register, { handler: (ctx, { body }) => account.register(ctx, body) });
  r.handle(calls.sendPasswordResetCode, {
    handler: async (ctx, { body }) => {
      account.limitPerIp(ctx);
      await account.sendPasswordResetCode(ctx, body);
    },
  });
  r.handle(calls.verifyPasswordResetToken, {
    handler: (ctx, { body }) => {
      account.limitPerIp(ctx);
      return account.verifyPasswordResetToken(ctx, body);
    },
  });
  r.handle(calls.resetPassword, {
    handler: (ctx, { body }) => {
      account.limitPerIp(ctx);
      return account.resetPassword(ctx, body);
    },
  });
  r.handle(calls.login, { handler: (ctx, { body }) => account.checkPassword(ctx, body) });
  r.handle(calls.checkPassword, { handler: (ctx, { body }) => account.checkPassword(ctx, body) });
  r.handle(calls.logout, { handler: (ctx) => account.logout(ctx) });
  r.handle(calls.getMyProfile, { handler: async (ctx) => account.getProfile(ctx) });
  r.handle(calls.updateMyProfile, { handler: (ctx, { body }) => account.updateProfile(ctx, body) });
}
