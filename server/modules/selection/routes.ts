// The selection library's calls (host only; spec §7 Selection: /api/MeliSelectionSku/GetMeliSelectionSku, CreawlUrl).
import type { Registrar } from "../../http/calls.ts";
import { competitorListingPage, creawlUrlBody, creawlUrlResult, getMeliSelectionSkuQuery } from "#shared/contract/selection.ts";
import type { SelectionService } from "./service.ts";

export function registerSelection(r: Registrar, { selection }: { selection: SelectionService }) {
  r.call({
    group: "MeliSelectionSku",
    name: "GetMeliSelectionSku",
    method: "GET",
    access: "host",
    summary: "Watched competitor listings with their price and sold trend (reads within StartDate..EndDate, default 30 days)",
    query: getMeliSelectionSkuQuery,
    result: competitorListingPage,
    handler: (ctx, { query }) => selection.getMeliSelectionSku(ctx, query),
  });
  r.call({
    group: "MeliSelectionSku",
    name: "CreawlUrl",
    method: "POST",
    access: "host",
    summary: "Watches Mercado Libre listings given by URL or item id (one already watched is read again now); answers what was added",
    body: creawlUrlBody,
    result: creawlUrlResult,
    handler: (ctx, { body }) => selection.creawlUrl(ctx, body),
  });
}
