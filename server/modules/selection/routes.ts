// The selection library's calls, declared in shared/api/selection.ts (host only; spec §7 Selection).
import type { Registrar } from "../../http/calls.ts";
import { meliSelectionSkuCalls as calls } from "#shared/api/selection.ts";
import type { SelectionService } from "./service.ts";

export function registerSelection(r: Registrar, { selection }: { selection: SelectionService }) {
  r.handle(calls.getMeliSelectionSku, { handler: (ctx, { query }) => selection.getMeliSelectionSku(ctx, query) });
  r.handle(calls.creawlUrl, { handler: (ctx, { body }) => selection.creawlUrl(ctx, body) });
}
