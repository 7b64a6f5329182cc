import { describe, expect, it } from "vitest";
import { confirmsTenantName, custIdList, deletionRange, productIdList } from "./clear-confirm.ts";
import { takenGroups } from "./shop-selection.tsx";

describe("confirmsTenantName", () => {
  it("takes the tenant's name exactly, spaces around it aside", () => {
    expect(confirmsTenantName("acme", "acme")).toBe(true);
    expect(confirmsTenantName("  acme ", "acme")).toBe(true);
  });

  it("refuses an empty, partial or differently cased name", () => {
    expect(confirmsTenantName("", "acme")).toBe(false);
    expect(confirmsTenantName("   ", "")).toBe(false);
    expect(confirmsTenantName("acm", "acme")).toBe(false);
    expect(confirmsTenantName("ACME", "acme")).toBe(false);
    expect(confirmsTenantName("acme2", "acme")).toBe(false);
  });
});

describe("deletionRange", () => {
  it("runs from the first day's local midnight to the midnight after the last day", () => {
    const r = deletionRange("2026-03-01", "2026-03-03")!;
    expect(new Date(r.startTime).getTime()).toBe(new Date(2026, 2, 1).getTime());
    expect(new Date(r.endTime).getTime()).toBe(new Date(2026, 2, 4).getTime());
  });

  it("covers one whole day when both are the same", () => {
    const r = deletionRange("2026-03-01", "2026-03-01")!;
    expect(new Date(r.endTime).getTime()).toBe(new Date(2026, 2, 2).getTime());
  });

  it("refuses a reversed or missing range", () => {
    expect(deletionRange("2026-03-02", "2026-03-01")).toBeNull();
    expect(deletionRange("", "2026-03-01")).toBeNull();
  });
});

describe("typed lists", () => {
  const a = "0B6C3F2E-9D7A-4C1E-8F00-123456789ABC";
  const b = "1b6c3f2e-9d7a-4c1e-8f00-123456789abc";

  it("splits on spaces, commas and new lines, each id once, GUIDs in lower case", () => {
    expect(productIdList(` ${a},${b}\n${a.toLowerCase()}；`)).toEqual({ items: [a.toLowerCase(), b], problem: null });
    expect(custIdList("123456, 7890 abc_1")).toEqual({ items: ["123456", "7890", "abc_1"], problem: null });
    expect(productIdList("").items).toEqual([]);
  });

  it("names the first bad item and the limit", () => {
    expect(productIdList(`${a} 42`).problem).toBe("商品ID格式不正确：42");
    expect(custIdList("12 3#4").problem).toBe("卖家ID格式不正确：3#4");
    expect(custIdList(Array.from({ length: 501 }, (_, i) => `c${i}`).join(" ")).problem).toBe("卖家ID最多 500 个，已填 501 个");
  });
});

describe("takenGroups", () => {
  const group = (groupId: string, custId: string, sites: number[], shopCustIds: string[] = []) => ({
    groupId,
    custId,
    sites,
    accounts: shopCustIds.map((c) => ({ custId: c })),
  });
  const groups = [group("a", "100", [1, 2]), group("b", "200", [1], ["201"]), group("c", "300", [3])];
  const ids = (gs: { groupId: string }[]) => gs.map((g) => g.groupId);

  it("takes the ticked groups, on the chosen sites when there are any", () => {
    expect(ids(takenGroups(groups, new Set(["a", "c"]), new Set(), []))).toEqual(["a", "c"]);
    expect(ids(takenGroups(groups, new Set(["a", "c"]), new Set([1]), []))).toEqual(["a"]);
  });

  it("with none ticked, every group selling on the chosen sites; with neither, nothing", () => {
    expect(ids(takenGroups(groups, new Set(), new Set([1]), []))).toEqual(["a", "b"]);
    expect(takenGroups(groups, new Set(), new Set(), [])).toEqual([]);
  });

  it("leaves a group alone whose seller or one of whose shops' sellers is protected", () => {
    expect(ids(takenGroups(groups, new Set(), new Set([1, 3]), ["100", "201"]))).toEqual(["c"]);
  });
});
