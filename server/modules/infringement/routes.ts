// Infringement word calls (spec §7 InfringementWord), declared in shared/api/infringement.ts, and the product screening
// (spec §7 Product ScreeningforInfringement), declared with the product calls in shared/api/products.ts.
import type { Registrar } from "../../http/calls.ts";
import { infringementWordCalls as calls } from "#shared/api/infringement.ts";
import { productCalls } from "#shared/api/products.ts";
import { INFRINGEMENT_IMPORT_MAX_BYTES } from "#shared/contract/infringement.ts";
import type { InfringementService } from "./service.ts";

export function registerInfringement(r: Registrar, { infringement }: { infringement: InfringementService }) {
  r.handle(calls.getInfringementWord, { handler: (ctx, { query }) => infringement.getInfringementWord(ctx, query) });
  r.handle(calls.getDefaultfringementWord, { handler: (ctx, { query }) => infringement.getDefaultfringementWord(ctx, query) });
  r.handle(calls.createIfringementWord, { handler: (ctx, { body }) => infringement.createIfringementWord(ctx, body) });
  r.handle(calls.deleteInfringementWord, { handler: (ctx, { body }) => infringement.deleteInfringementWord(ctx, body.ids) });
  r.handle(calls.importInfringementWord, {
    multipart: { fileSizeBytes: INFRINGEMENT_IMPORT_MAX_BYTES },
    handler: (ctx) => infringement.importInfringementWord(ctx),
  });
  r.handle(productCalls.screeningforInfringement, { handler: (ctx, { body }) => infringement.screenProducts(ctx, body) });
}
