import { describe, expect, it } from "vitest";
import { itemIdsOf, listingListSchema, toListingFilter, toListingQuery } from "./listing-search-params.ts";

const stateOf = (raw: Record<string, string>) => listingListSchema.parse(raw);

describe("the listing centre's URL state", () => {
  it("turns every set param into the contract's filter, and leaves the rest out", () => {
    const f = toListingFilter(
      stateOf({
        status: "3",
        site: "1",
        q: " Taza ",
        items: "mlm1, MLM2 mlm1",
        pmin: "10",
        pmax: "99.5",
        smin: "0",
        sold: "yes",
        viewed: "no",
        warn: "yes",
        cbt: "cbt123",
      }),
    );
    expect(f).toEqual({
      status: 3,
      site: 1,
      title: "Taza",
      itemIds: ["MLM1", "MLM2"],
      minPrice: 10,
      maxPrice: 99.5,
      minStock: 0,
      hasSold: true,
      hasView: false,
      warning: true,
      cbtId: "CBT123",
    });
    expect(toListingFilter(stateOf({}))).toEqual({});
  });

  it("falls back to the defaults on broken params", () => {
    const s = stateOf({ kind: "x", status: "42", shop: "not-a-guid", smin: "-1", sort: "drop table", size: "7", page: "0" });
    expect(s).toMatchObject({ kind: "local", status: "all", shop: "all", smin: "", sort: "creationTime desc", size: 50, page: 1 });
    expect(toListingQuery(s)).toEqual({ skipCount: 0, maxResultCount: 50, sorting: "creationTime desc" });
  });

  it("reads item ids as typed: any separator, upper case, each once", () => {
    expect(itemIdsOf("mlm1\nMLM2，mlm1;  MLB3")).toEqual(["MLM1", "MLM2", "MLB3"]);
  });
});
