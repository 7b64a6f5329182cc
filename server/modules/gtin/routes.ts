// GTIN pool calls (spec §7 MeliCode). Any account may add codes and see the count (a salesperson told by a publish
// that the pool is empty can fill it); only the main account clears the pool, which all its sub-accounts share.
import type { Registrar } from "../../http/calls.ts";
import { clearCodesResult, codeCount, setCodesInput, setCodesResult } from "#shared/contract/gtin.ts";
import type { GtinService } from "./service.ts";

export function registerGtin(r: Registrar, { gtin }: { gtin: GtinService }) {
  r.call({
    group: "MeliCode",
    name: "SetCodes",
    method: "POST",
    access: "user",
    summary: "Adds GTIN codes to the tenant's pool (8/12/13/14 digits, check digit verified); codes already there are ignored",
    body: setCodesInput,
    result: setCodesResult,
    handler: (ctx, { body }) => gtin.setCodes(ctx, body),
  });
  r.call({
    group: "MeliCode",
    name: "GetCodeCnt",
    method: "GET",
    access: "user",
    summary: "The tenant's GTIN pool: unused, used and total codes",
    result: codeCount,
    handler: (ctx) => gtin.getCodeCount(ctx),
  });
  r.call({
    group: "MeliCode",
    name: "ClearCode",
    method: "DELETE",
    access: "main",
    summary: "Removes the unused GTIN codes; used ones stay as the record of which listing got them",
    result: clearCodesResult,
    handler: (ctx) => gtin.clearCodes(ctx),
  });
}
