// The authorization centre's calls, declared in shared/api/module-auth.ts (spec §7 ModuleAuth; RevokeAuth and the calls
// that use a grant are ours).
import type { Registrar } from "../../http/calls.ts";
import { moduleAuthCalls as calls } from "#shared/api/module-auth.ts";
import type { ModuleAuthService } from "./service.ts";

export function registerModuleAuth(r: Registrar, { moduleAuth: auth }: { moduleAuth: ModuleAuthService }) {
  r.handle(calls.generateAuthCode, { handler: (ctx) => auth.generateAuthCode(ctx) });
  r.handle(calls.applyAuth, { handler: (ctx, { body }) => auth.applyAuth(ctx, body) });
  r.handle(calls.reApplyAuth, { handler: (ctx, { body }) => auth.reApplyAuth(ctx, body) });
  r.handle(calls.auditAuth, { handler: (ctx, { body }) => auth.auditAuth(ctx, body) });
  r.handle(calls.revokeAuth, { handler: (ctx, { body }) => auth.revokeAuth(ctx, body) });
  r.handle(calls.getApplys, { handler: (ctx, { query }) => auth.getApplys(ctx, query) });
  r.handle(calls.getAuths, { handler: (ctx, { query }) => auth.getAuths(ctx, query) });
  r.handle(calls.getAuthProducts, { handler: (ctx, { body }) => auth.getAuthProducts(ctx, body) });
  r.handle(calls.getAuthProductById, { handler: (ctx, { query }) => auth.getAuthProductById(ctx, query) });
  r.handle(calls.copyAuthProducts, { handler: (ctx, { body }) => auth.copyAuthProducts(ctx, body) });
}
