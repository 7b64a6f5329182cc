// The selection library's calls (host only; spec §7 Selection).
import { competitorListingPage, creawlUrlBody, creawlUrlResult, getMeliSelectionSkuQuery } from "../contract/selection.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const meliSelectionSkuCalls = {
  getMeliSelectionSku: call({
    method: "GET",
    path: "/api/MeliSelectionSku/GetMeliSelectionSku",
    query: getMeliSelectionSkuQuery,
    result: competitorListingPage,
  }),
  creawlUrl: call({ method: "POST", path: "/api/MeliSelectionSku/CreawlUrl", body: creawlUrlBody, result: creawlUrlResult }),
};

export const createMeliSelectionSkuApi = (client: ApiClient) => bindCalls(client, meliSelectionSkuCalls);
export type MeliSelectionSkuApi = ReturnType<typeof createMeliSelectionSkuApi>;
