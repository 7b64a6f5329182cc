// The publish rulebook's sites: the console's publish screen, the extension's side panel and the server's planner ask a
// category for the same sites (they disagreed: the panel asked a global-selling shop for the global category before
// any site was chosen, and the screen kept the sites in the order they were ticked).
import { describe, expect, it } from "vitest";
import { categorySiteOf, categorySitesOf, chartsOfSite, GLOBAL_SITE, isGlobalSite, siteName, withSite } from "./sites.ts";

describe("category sites", () => {
  it("a local shop group lists each chosen site in its own category, in site order", () => {
    expect(categorySitesOf(false, [2, 1, 4])).toEqual([1, 2, 4]);
    expect(categorySiteOf(false, 3)).toBe(3);
  });

  it("a global-selling shop lists every site in the one global category", () => {
    expect(GLOBAL_SITE).toBe(5);
    expect(categorySitesOf(true, [2, 1])).toEqual([GLOBAL_SITE]);
    expect(categorySiteOf(true, 1)).toBe(GLOBAL_SITE);
    expect(isGlobalSite(5)).toBe(true);
    expect(isGlobalSite(1)).toBe(false);
  });

  it("asks no category before a site is chosen, for either kind of shop", () => {
    expect(categorySitesOf(true, [])).toEqual([]);
    expect(categorySitesOf(false, [])).toEqual([]);
  });

  it("keeps the chosen sites in site order as they are ticked and unticked, each once", () => {
    let sites: number[] = withSite([], 4, true);
    sites = withSite(sites, 1, true);
    sites = withSite(sites, 1, true);
    expect(sites).toEqual([1, 4]);
    expect(withSite(sites, 4, false)).toEqual([1]);
  });

  it("offers a site's category the group's charts of that site, and the global category every chart", () => {
    const charts = [
      { id: "a", site: 1 },
      { id: "b", site: 2 },
    ];
    expect(chartsOfSite(charts, 2).map((c) => c.id)).toEqual(["b"]);
    expect(chartsOfSite(charts, GLOBAL_SITE).map((c) => c.id)).toEqual(["a", "b"]);
  });

  it("names sites in Chinese", () => {
    expect(siteName(1)).toBe("墨西哥");
    expect(siteName(9)).toBe("站点 9");
  });
});
