// The selection library's calls (host only; spec §7 Selection: /api/MeliSelectionSku/GetMeliSelectionSku, CreawlUrl).
import { competitorListingPage, creawlUrlBody, creawlUrlResult, getMeliSelectionSkuQuery } from "../contract/selection.ts";
import { call } from "./define.ts";

const group = "MeliSelectionSku";

export const meliSelectionSkuCalls = {
  getMeliSelectionSku: call({
    group,
    name: "GetMeliSelectionSku",
    method: "GET",
    access: "host",
    summary: "Watched competitor listings with their price and sold trend (reads within StartDate..EndDate, default 30 days)",
    query: getMeliSelectionSkuQuery,
    result: competitorListingPage,
  }),
  creawlUrl: call({
    group,
    name: "CreawlUrl",
    method: "POST",
    access: "host",
    summary: "Watches Mercado Libre listings given by URL or item id (one already watched is read again now); answers what was added",
    body: creawlUrlBody,
    result: creawlUrlResult,
  }),
};
