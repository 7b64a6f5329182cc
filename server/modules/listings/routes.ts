// The listing centre's read calls (spec §7 MeliStat / MeliStatNew GetMeliStatsByPage, GetMeliStatGroupInfo): the same
// calls under both names, MeliStat over local shops' listings and MeliStatNew over cross-border shops'.
import type { Registrar } from "../../http/calls.ts";
import { getMeliStatGroupInfoInput, getMeliStatsByPageInput, listingGroupInfo, listingRowPage } from "../../../shared/contract/listings.ts";
import { getMeliStatGroupInfo, getMeliStatsByPage, kindOfGroup } from "./service.ts";

export function registerListings(r: Registrar) {
  for (const group of ["MeliStatNew", "MeliStat"]) {
    const kind = kindOfGroup(group);
    const which = kind === "cbt" ? "cross-border" : "local";
    r.call({
      group,
      name: "GetMeliStatsByPage",
      method: "POST",
      access: "user",
      summary: `Listings of the caller's ${which} shops (a sub-account: the shops given to it), filtered and sorted; newest first; the count stops at 1,000`,
      body: getMeliStatsByPageInput,
      result: listingRowPage,
      handler: (ctx, { body }) => getMeliStatsByPage(ctx, kind, body),
    });
    r.call({
      group,
      name: "GetMeliStatGroupInfo",
      method: "POST",
      access: "user",
      summary: `Counts of the ${which} listings per status, site and shop group for the list's tabs, each with every filter but its own`,
      body: getMeliStatGroupInfoInput,
      result: listingGroupInfo,
      handler: (ctx, { body }) => getMeliStatGroupInfo(ctx, kind, body),
    });
  }
}
