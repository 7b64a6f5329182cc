import { describe, expect, it } from "vitest";
import { ListingStatus } from "../contract/enums.ts";
import { duplicateProblem, isListed, listedPairs } from "./duplicates.ts";

describe("the duplicate listing rule", () => {
  it("counts a listing waiting, being sent or live; not one closed, refused, failed or skipped", () => {
    for (const s of [
      ListingStatus.Pending,
      ListingStatus.Publishing,
      ListingStatus.Active,
      ListingStatus.Paused,
      ListingStatus.UnderReview,
    ])
      expect(isListed(s)).toBe(true);
    for (const s of [ListingStatus.Closed, ListingStatus.Refused, ListingStatus.Failed, ListingStatus.Skipped])
      expect(isListed(s)).toBe(false);
  });

  it("refuses the pair naming the live item, or warns when the seller asked for a copy", () => {
    expect(duplicateProblem("MLM123", false)).toMatchObject({
      code: "duplicate",
      severity: "error",
      message: "该商品已在此店铺站点刊登（MLM123）；如需再刊登一份，请勾选“允许重复刊登”",
    });
    expect(duplicateProblem(null, false).message).toContain("该商品正在此店铺站点刊登中");
    expect(duplicateProblem("MLM123", true)).toMatchObject({
      severity: "warning",
      message: "该商品已在此店铺站点刊登（MLM123），将再刊登一份",
    });
  });

  it("lists the pre-flight pairs already listed, with the reason", () => {
    const pairs = [
      { productId: "a", site: 1, problems: [duplicateProblem("MLM1", false)] },
      { productId: "b", site: 1, problems: [{ code: "package.weight", message: "缺少重量" }] },
    ];
    expect(listedPairs(pairs).map((p) => [p.productId, p.listedReason])).toEqual([["a", duplicateProblem("MLM1", false).message]]);
  });
});
