// The listing centre's read calls (spec §7 MeliStat / MeliStatNew GetMeliStatsByPage, GetMeliStatGroupInfo).
import { getMeliStatGroupInfoInput, getMeliStatsByPageInput, listingGroupInfo, listingRowPage } from "../contract/listings.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

const listingReads = (group: string) => ({
  getMeliStatsByPage: call({
    method: "POST",
    path: `/api/${group}/GetMeliStatsByPage`,
    body: getMeliStatsByPageInput,
    result: listingRowPage,
  }),
  getMeliStatGroupInfo: call({
    method: "POST",
    path: `/api/${group}/GetMeliStatGroupInfo`,
    body: getMeliStatGroupInfoInput,
    result: listingGroupInfo,
  }),
});

/** Cross-border shops' listings. */
export const meliStatNewListingCalls = listingReads("MeliStatNew");
/** Local shops' listings. */
export const meliStatListingCalls = listingReads("MeliStat");

export const createMeliStatNewListingApi = (client: ApiClient) => bindCalls(client, meliStatNewListingCalls);
export const createMeliStatListingApi = (client: ApiClient) => bindCalls(client, meliStatListingCalls);
