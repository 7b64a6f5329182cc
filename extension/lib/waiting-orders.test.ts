// @vitest-environment happy-dom
// On a collected offer's page the collect button lists the ready orders waiting for it: the worker asks GetPurchaseList
// by the page's source (platform and item id) and sums what it answers; logged out or unanswered, nothing shows.
import { fakeBrowser } from "../testing/fake-browser.ts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PlatformType } from "#shared/contract/enums.ts";
import type { PurchaseList } from "#shared/contract/order-sources.ts";
import { createCollector } from "../entrypoints/background/collector.ts";
import type { SessionService } from "../entrypoints/background/session.ts";
import { mountCollectButton } from "./collect-button.ts";
import { defineStorageItems } from "./storage.ts";

const variant = { sku: "SRC-B", values: ["蓝色"], image: null, match: "sku" as const };
const order = (orderNo: string, quantity: number, bought = false) => ({
  orderId: orderNo,
  orderNo,
  line: 1,
  quantity,
  purchase: bought ? { cost: 10, currency: "CNY", purchaseOrderNo: null, purchaseTime: null } : null,
});
const list = {
  groups: [
    {
      shopId: "s1",
      shopName: "义乌小店",
      shopUrl: null,
      lines: [{ source: { variant }, orders: [order("2000001", 2), order("2000002", 1, true)] }],
    },
  ],
} as unknown as PurchaseList;

describe("the orders waiting for a collected offer", () => {
  const items = defineStorageItems();
  let ui: ReturnType<typeof mountCollectButton> | undefined;
  afterEach(() => ui?.remove());

  it("reads them by the page's source and lists them above the button", async () => {
    fakeBrowser.reset();
    const getPurchaseList = vi.fn(async () => list);
    const session = { api: { order: { getPurchaseList } } } as unknown as SessionService;
    const collector = createCollector({ session, items });
    const item = { platform: "1688" as const, itemId: "654321" };
    expect(await collector.waitingOrders(item)).toBeNull(); // logged out: not asked
    expect(getPurchaseList).not.toHaveBeenCalled();

    await items.session.setValue({
      accessToken: "t",
      refreshToken: null,
      expiresAt: Date.now() + 60_000,
      userName: "boss",
      tenantName: "a",
    });
    const waiting = await collector.waitingOrders(item);
    expect(getPurchaseList).toHaveBeenCalledWith({ SourcePlatformType: PlatformType.Alibaba1688, SourceItemId: "654321" });
    expect(waiting).toEqual({
      orders: 2,
      quantity: 3,
      bought: 1,
      lines: [
        { orderNo: "2000001", quantity: 2, variant: "SRC-B 蓝色", bought: false },
        { orderNo: "2000002", quantity: 1, variant: "SRC-B 蓝色", bought: true },
      ],
    });

    ui = mountCollectButton(() => {});
    ui.showOrders(waiting);
    const shown = ui.host.shadowRoot!.querySelector(".orders")!;
    expect(shown.querySelector("b")!.textContent).toBe("待采购订单 2 个 · 共 3 件（已采购 1 件）");
    expect([...shown.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "2000001 × 2 · SRC-B 蓝色",
      "2000002 × 1 · SRC-B 蓝色 · 已采购",
    ]);
    ui.showOrders(null);
    expect(shown.textContent).toBe("");

    // The server not answering shows nothing rather than an error.
    getPurchaseList.mockRejectedValueOnce(new Error("down"));
    expect(await collector.waitingOrders(item)).toBeNull();
  });
});
