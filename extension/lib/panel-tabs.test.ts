// The side panel's per-tab state: each tab keeps its own item, collection and product; another item on a tab, a new
// URL or a closed tab forgets the old one; the oldest tabs go first past the cap.
import { describe, expect, it } from "vitest";
import { applyTabEvent, MAX_TABS, tabReadiness, type TabEvent, type TabStates } from "./panel-tabs.ts";

const cup = { platform: "1688" as const, itemId: "111" };
const lamp = { platform: "1688" as const, itemId: "222" };
const url = (id: string) => `https://detail.1688.com/offer/${id}.html`;
const run = (events: TabEvent[], start: TabStates = {}) => events.reduce((s, e, i) => applyTabEvent(s, e, 1000 + i), start);

describe("panel tab states", () => {
  it("follows a press from seen to collected, per tab, and records the product opened", () => {
    let s = run([
      { type: "seen", tabId: 1, url: url("111"), item: cup, collected: false },
      { type: "seen", tabId: 2, url: url("222"), item: lamp, collected: true },
    ]);
    expect(s["1"]).toMatchObject({ item: cup, phase: "seen", collectionId: null });
    expect(s["2"]).toMatchObject({ item: lamp, phase: "collected" });
    expect(tabReadiness(s["1"])).toBe("collect"); // the panel offers to collect it

    s = run([{ type: "collecting", tabId: 1, url: url("111"), item: cup }], s);
    expect(tabReadiness(s["1"])).toBe("waiting");
    s = run([{ type: "outcome", tabId: 1, item: cup, outcome: { outcome: "collected", message: "已采集", collectionId: "c1" } }], s);
    expect(s["1"]).toMatchObject({ phase: "collected", collectionId: "c1", message: "已采集", url: url("111") });
    s = run([{ type: "product", tabId: 1, item: cup, productId: "p1" }], s);
    expect(s["1"]).toMatchObject({ productId: "p1", collectionId: "c1" });
    // The other tab is untouched.
    expect(s["2"]).toMatchObject({ item: lamp, phase: "collected", productId: null });
    // Seen again (the content script marks the button on every load): what is known stays.
    s = run([{ type: "seen", tabId: 1, url: url("111"), item: cup, collected: true }], s);
    expect(s["1"]).toMatchObject({ phase: "collected", collectionId: "c1", productId: "p1" });
  });

  it("a queued or refused press blocks the panel with its message; a later success clears it", () => {
    let s = run([
      { type: "collecting", tabId: 5, url: url("111"), item: cup },
      { type: "outcome", tabId: 5, item: cup, outcome: { outcome: "queued", message: "已加入待发送队列", collectionId: null } },
    ]);
    expect(s["5"]).toMatchObject({ phase: "queued", message: "已加入待发送队列" });
    expect(tabReadiness(s["5"])).toBe("blocked");
    s = run(
      [{ type: "outcome", tabId: 5, item: cup, outcome: { outcome: "already", message: "已采集过，已更新", collectionId: "c9" } }],
      s,
    );
    expect(tabReadiness(s["5"])).toBe("ready");
    expect(s["5"].collectionId).toBe("c9");
    s = run([{ type: "outcome", tabId: 6, item: cup, outcome: { outcome: "limit", message: "已达采集上限", collectionId: null } }], s);
    expect(tabReadiness(s["6"])).toBe("blocked");
    // Refused for want of a login: once logged in the panel offers to collect it again.
    s = run([{ type: "outcome", tabId: 7, item: cup, outcome: { outcome: "not-logged-in", message: "请先登录", collectionId: null } }], s);
    expect(tabReadiness(s["7"])).toBe("collect");
  });

  it("another item on the tab, a new URL or closing the tab forgets what the old page had", () => {
    let s = run([
      { type: "outcome", tabId: 1, item: cup, outcome: { outcome: "collected", message: "", collectionId: "c1" } },
      { type: "product", tabId: 1, item: cup, productId: "p1" },
    ]);
    s = run([{ type: "navigated", tabId: 1, url: url("111") }], { ...s, 1: { ...s["1"], url: url("111") } });
    expect(s["1"].productId).toBe("p1"); // the same URL: nothing changes
    s = run([{ type: "seen", tabId: 1, url: url("222"), item: lamp, collected: false }], s);
    expect(s["1"]).toMatchObject({ item: lamp, phase: "seen", collectionId: null, productId: null });
    s = run([{ type: "navigated", tabId: 1, url: "https://www.example.com/" }], s);
    expect(s["1"]).toMatchObject({ item: null, url: "https://www.example.com/" });
    expect(tabReadiness(s["1"])).toBe("none");
    s = run([{ type: "closed", tabId: 1 }], s);
    expect(s).toEqual({});
    expect(tabReadiness(null)).toBe("none");
  });

  it("does not change the states it is given, and keeps at most MAX_TABS tabs, dropping the least recent", () => {
    const before = run([{ type: "seen", tabId: 1, url: url("111"), item: cup, collected: false }]);
    const copy = structuredClone(before);
    applyTabEvent(before, { type: "closed", tabId: 1 }, 5);
    expect(before).toEqual(copy);

    const many = run(
      Array.from({ length: MAX_TABS + 3 }, (_, i) => ({ type: "seen", tabId: i, url: null, item: cup, collected: false }) as TabEvent),
    );
    expect(Object.keys(many)).toHaveLength(MAX_TABS);
    expect(many["0"]).toBeUndefined();
    expect(many["2"]).toBeUndefined();
    expect(many[String(MAX_TABS + 2)]).toBeDefined();
  });
});
