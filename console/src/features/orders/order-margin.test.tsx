// @vitest-environment happy-dom
// Issue 28: the order list's profit is red, with the reason, when the order loses money or earns under its shop's
// minimum margin (the pre-flight's rule, shared/publish/margin.ts); green otherwise; a cancelled order counts none.
// Issue 32: the row's source shop shows the order's margin at the sources' last known prices.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { OrderStatus } from "#shared/contract/enums.ts";
import type { OrderRow } from "#shared/contract/orders.ts";
import { orderColumns } from "./order-columns.tsx";
import { orderMarginOf } from "./order-names.ts";

afterEach(cleanup);

const order = (over: Partial<OrderRow>): OrderRow =>
  ({
    id: "o1",
    currency: "MXN",
    orderStatus: OrderStatus.Paid,
    totalAmount: 320.5,
    profit: 80,
    minMargin: null,
    profitDetail: { complete: true, missing: [] },
    ...over,
  }) as OrderRow;

const cell = (id: string, r: OrderRow) => {
  const column = orderColumns({
    density: "compact",
    now: 0,
    packSizes: new Map(),
    onOpen: () => {},
    onPack: () => {},
    onLabel: () => {},
    onRefresh: () => {},
    busy: null,
    isFresh: () => false,
  }).find((c) => c.id === id)!;
  render(<>{column.cell(r, 0)}</>);
};
const amountCell = (r: OrderRow) => {
  cell("amount", r);
  return screen.getByTestId("order-profit");
};

describe("the order list's margin", () => {
  it("reads each order's margin against its shop's minimum", () => {
    expect(orderMarginOf(order({}))).toEqual({ percent: "24.96", status: "ok", warning: null });
    expect(orderMarginOf(order({ minMargin: 30 }))).toMatchObject({ status: "low", warning: "利润率24.96%低于店铺最低利润率30%" });
    expect(orderMarginOf(order({ profit: -68 }))).toMatchObject({ percent: "-21.22", status: "negative" });
  });

  it("shows a loss and a margin under the minimum in red with the reason, a good margin in green", () => {
    const loss = amountCell(order({ profit: -68 }));
    expect(loss.className).toContain("text-destructive");
    expect(loss.dataset.margin).toBe("negative");
    expect(loss.title).toContain("利润为负（-21.22%）");
    cleanup();
    const low = amountCell(order({ minMargin: 30 }));
    expect(low.className).toContain("text-destructive");
    expect(low.textContent).toBe("! 利润 80.00");
    cleanup();
    const good = amountCell(order({}));
    expect(good.className).toContain("text-success");
    expect(good.title).toContain("利润率 24.96%");
    cleanup();
    const cancelled = amountCell(order({ profit: -68, orderStatus: OrderStatus.Cancelled }));
    expect(cancelled.className).not.toContain("text-destructive");
    expect(cancelled.dataset.margin).toBeUndefined();
  });

  it("shows the margin at the source beside the row's source shop, red at a loss", () => {
    const margin = {
      currency: "MXN",
      salePrice: 320.5,
      cost: 340,
      profit: -60,
      profitCny: null,
      margin: -18.7,
      complete: true,
      missing: [],
    };
    const line = {
      title: "T",
      num: 1,
      sku: "S",
      source: { offerUrl: "https://detail.1688.com/offer/1.html", platformType: 1, shopName: "义乌小店" },
    };
    cell("goods", order({ items: [line] as OrderRow["items"], sourceMargin: margin }));
    const shown = screen.getByTestId("order-source-margin-row");
    expect(shown.textContent).toBe("货源利润率 -18.7%");
    expect(shown.className).toContain("text-destructive");
    expect(screen.getByTestId("order-row-source").textContent).toContain("义乌小店");
  });
});
