// @vitest-environment happy-dom
// The collection list's capped total (issue 29): the selection line says "1,000+" and still offers every matching
// collection, and "every collection matching" reads its ids past the cap, to the last short page.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CollectPage } from "#shared/contract/collect.ts";
import { api } from "../../lib/feature-api.ts";
import { fetchAllCollectIds } from "./api/get-collects.ts";
import { CollectBulkBar } from "./collect-bulk-bar.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const bar = (over: Partial<Parameters<typeof CollectBulkBar>[0]>) =>
  render(
    <CollectBulkBar
      selectedCount={0}
      allMatching={false}
      total={1000}
      running={null}
      onSelectAllMatching={() => {}}
      onClear={() => {}}
      onAction={() => {}}
      {...over}
    />,
  );

describe("a capped collection total", () => {
  it("shows 1,000+ in the selection line and offers every matching collection even with 1,000 chosen", () => {
    bar({ selectedCount: 1000, totalCapped: true });
    expect(screen.getByTestId("collects-select-all-matching").textContent).toContain("选择全部 1,000+ 个符合条件的商品");
    cleanup();
    bar({ allMatching: true, totalCapped: true });
    expect(screen.getByTestId("collects-selected-count").textContent).toBe("已选择全部 1,000+ 个符合条件的商品");
    cleanup();
    // An exact total: all 1,000 chosen by hand leaves nothing more to offer.
    bar({ selectedCount: 1000 });
    expect(screen.queryByTestId("collects-select-all-matching")).toBeNull();
  });

  it("reads every matching id past the cap, to the short last page", async () => {
    const all = Array.from({ length: 2005 }, (_, i) => `id-${i}`);
    const getCollect = vi.spyOn(api.collect, "getCollect").mockImplementation(async (q) => {
      const items = all.slice(q.skipCount ?? 0, (q.skipCount ?? 0) + (q.maxResultCount ?? 10)).map((id) => ({ id }));
      return { items, totalCount: 1000, totalCountCapped: true } as unknown as CollectPage;
    });
    expect(await fetchAllCollectIds({ title: "x" })).toEqual(all);
    expect(getCollect).toHaveBeenCalledTimes(3);
  });
});
