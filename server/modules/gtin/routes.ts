// GTIN pool calls, declared in shared/api/gtin.ts (spec §7 MeliCode).
import type { Registrar } from "../../http/calls.ts";
import { meliCodeCalls as calls } from "#shared/api/gtin.ts";
import type { GtinService } from "./service.ts";

export function registerGtin(r: Registrar, { gtin }: { gtin: GtinService }) {
  r.handle(calls.setCodes, { handler: (ctx, { body }) => gtin.setCodes(ctx, body) });
  r.handle(calls.getCodeCnt, { handler: (ctx) => gtin.getCodeCount(ctx) });
  r.handle(calls.clearCode, { handler: (ctx) => gtin.clearCodes(ctx) });
}
