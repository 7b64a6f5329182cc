// The extension's versioned storage items: the recent list's migration from version 1 (product ids) to version 2
// (what the list shows), run by WXT's storage on the stored value, and the list's own rule (newest first, once, 20).
import { fakeBrowser } from "../testing/fake-browser.ts";
import { beforeEach, describe, expect, it } from "vitest";
import { addRecent, defineStorageItems, MAX_RECENT, type RecentProduct } from "./storage.ts";

const entry = (id: string, openedAt = 1): RecentProduct => ({ id, title: `商品${id}`, image: null, sourceUrl: null, openedAt });

describe("recent products storage", () => {
  beforeEach(() => fakeBrowser.reset());

  it("migrates a version 1 list of ids to version 2 entries, once", async () => {
    await fakeBrowser.storage.local.set({ recentProducts: ["p1", "p2", "", 7], recentProducts$: { v: 1 } });
    const items = defineStorageItems();
    expect(await items.recentProducts.getValue()).toEqual([
      { id: "p1", title: "", image: null, sourceUrl: null, openedAt: 0 },
      { id: "p2", title: "", image: null, sourceUrl: null, openedAt: 0 },
    ]);
    expect(await fakeBrowser.storage.local.get("recentProducts$")).toEqual({ recentProducts$: { v: 2 } });
    // A second definition (the worker starting again) finds version 2 and leaves the list alone.
    await items.recentProducts.setValue([entry("p3")]);
    expect(await defineStorageItems().recentProducts.getValue()).toEqual([entry("p3")]);
  });

  it("a list stored without version metadata is version 1 too", async () => {
    await fakeBrowser.storage.local.set({ recentProducts: ["p9"] });
    expect(await defineStorageItems().recentProducts.getValue()).toEqual([
      { id: "p9", title: "", image: null, sourceUrl: null, openedAt: 0 },
    ]);
  });

  it("starts empty, and a fresh install is stored at version 2", async () => {
    const items = defineStorageItems();
    expect(await items.recentProducts.getValue()).toEqual([]);
    await items.recentProducts.setValue([entry("a")]);
    expect(await fakeBrowser.storage.local.get("recentProducts$")).toEqual({ recentProducts$: { v: 2 } });
  });

  it("keeps the newest first, each product once, at most 20", () => {
    let list: RecentProduct[] = [];
    for (let i = 0; i < 25; i++) list = addRecent(list, entry(`p${i}`, i));
    expect(list).toHaveLength(MAX_RECENT);
    expect(list[0].id).toBe("p24");
    expect(list.at(-1)!.id).toBe("p5");
    list = addRecent(list, entry("p10", 99));
    expect(list.map((r) => r.id).filter((id) => id === "p10")).toHaveLength(1);
    expect(list[0]).toEqual(entry("p10", 99));
    expect(list).toHaveLength(MAX_RECENT);
  });
});
