import { describe, expect, it } from "vitest";
import { OrderStatus } from "#shared/contract/enums.ts";
import { deadlineOf, moneyText, spanText } from "./order-names.ts";
import { orderListSchema, orderNumberOf, toOrderFilter, toOrderQuery } from "./order-search-params.ts";

const stateOf = (raw: Record<string, string>) => orderListSchema.parse(raw);
const GROUP = "0b9c2a52-6a53-4a6e-9a3b-6f7b1f0d9e11";

describe("the orders screen's URL state", () => {
  it("turns every set param into GetOrders' query names, and leaves the rest out", () => {
    const f = toOrderFilter(
      stateOf({ status: "3", shop: GROUP.toUpperCase(), site: "2", no: " #2000001234 ", pack: "2000009999", user: GROUP }),
    );
    expect(f).toEqual({
      OrderStatus: 3,
      AccountGroupId: GROUP,
      Site: 2,
      UserId: GROUP,
      OrderNo: "2000001234",
      PackOrderId: "2000009999",
    });
    expect(toOrderFilter(stateOf({}))).toEqual({});
  });

  it("turns a local day range into instants, the end exclusive (the first instant after the last day)", () => {
    const f = toOrderFilter(stateOf({ from: "2026-11-01", to: "2026-11-02" }));
    expect(f.StartTime).toBe(new Date(2026, 10, 1).toISOString());
    expect(f.EndTime).toBe(new Date(2026, 10, 3).toISOString());
  });

  it("falls back to the defaults on broken params", () => {
    const s = stateOf({ status: "9", shop: "x", site: "6", no: "MLM12", sort: "price desc", size: "7", page: "-2", from: "2026-02-31" });
    expect(s).toMatchObject({ status: "all", shop: "all", site: "all", no: "", sort: "orderTime desc", size: 20, page: 1, from: "" });
    expect(toOrderQuery(s)).toEqual({ Sorting: "orderTime desc", SkipCount: 0, MaxResultCount: 20 });
    expect(toOrderQuery(stateOf({ page: "3", size: "50", sort: "mustSendTime asc" }))).toEqual({
      Sorting: "mustSendTime asc",
      SkipCount: 100,
      MaxResultCount: 50,
    });
  });

  it("reads an order number as typed: digits only, a leading # and spaces dropped", () => {
    expect(orderNumberOf(" #2000 0012-34 ")).toBe("2000001234");
    expect(orderNumberOf("abc")).toBe("");
    expect(orderNumberOf("1".repeat(21))).toBe("");
  });
});

describe("the shipping deadline", () => {
  const now = Date.parse("2026-11-26T12:00:00Z");
  const at = (ms: number) => new Date(now + ms).toISOString();
  it("counts down for an order still to ship, due soon within a day, and overdue after", () => {
    expect(deadlineOf(at(2 * 86_400_000 + 3 * 3600_000), OrderStatus.Paid, now)).toEqual({ state: "ok", text: "剩余 2天3小时" });
    expect(deadlineOf(at(5 * 3600_000 + 12 * 60_000), OrderStatus.ReadyToShip, now)).toEqual({ state: "soon", text: "剩余 5小时12分" });
    expect(deadlineOf(at(-90 * 60_000), OrderStatus.ReadyToShip, now)).toEqual({ state: "overdue", text: "已超时 1小时30分" });
  });

  it("says nothing once the order is shipped, delivered, cancelled or unpaid, or without a deadline", () => {
    for (const s of [OrderStatus.Shipped, OrderStatus.Delivered, OrderStatus.Cancelled, OrderStatus.Unpaid])
      expect(deadlineOf(at(-60_000), s, now)).toBeNull();
    expect(deadlineOf(null, OrderStatus.Paid, now)).toBeNull();
    expect(deadlineOf("soon", OrderStatus.Paid, now)).toBeNull();
  });

  it("reads spans of days, hours and minutes, at least a minute", () => {
    expect(spanText(0)).toBe("1分");
    expect(spanText(59 * 60_000)).toBe("59分");
    expect(spanText(3 * 3600_000)).toBe("3小时");
    expect(spanText(86_400_000)).toBe("1天");
  });

  it("shows money with two decimals and the currency", () => {
    expect(moneyText(1234.5, "MXN")).toBe("1,234.50 MXN");
    expect(moneyText(-3, null)).toBe("-3.00");
    expect(moneyText(null, "MXN")).toBe("-");
  });
});
