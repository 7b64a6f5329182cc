// @vitest-environment happy-dom
// The status tab bar of the orders and listings: 全部 and a tab per status with the groups read's counts (none while
// it is read), 全部 counting the list's own total or, under a status, every status's; a click chooses the status.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { StatusTabs, type StatusCounts } from "./list-tabs.tsx";
import { ALL } from "./url-params.ts";

afterEach(cleanup);

const counts: StatusCounts = {
  total: { count: 1200, capped: false },
  statuses: [
    { status: 1, count: 1000, capped: true },
    { status: 2, count: 5, capped: false },
  ],
};
const names: Record<number, string> = { 1: "待发货", 2: "已完成" };

function tabs(value: string, c: StatusCounts | undefined, chosen: string[] = []) {
  return (
    <StatusTabs
      counts={c}
      statuses={[1, 2]}
      labelOf={(s) => names[s]}
      value={value}
      onChange={(s) => chosen.push(s)}
      label="订单状态"
      testId="t"
    />
  );
}
const text = (id: string) => screen.getByTestId(id).textContent;

describe("StatusTabs", () => {
  it("counts 全部 by the list's total while it shows every status, each tab by its own", () => {
    render(tabs(ALL, counts));
    expect(screen.getByRole("tablist", { name: "订单状态" }).getAttribute("data-testid")).toBe("t-status-tabs");
    expect(text("t-tab-all")).toBe("全部1,200");
    expect(text("t-tab-1")).toBe("待发货1,000+");
    expect(screen.getByTestId("t-tab-2").getAttribute("data-count")).toBe("5");
    expect(screen.getByTestId("t-tab-all").getAttribute("aria-selected")).toBe("true");
  });

  it("counts 全部 as every status's sum under a status, capped when one is", () => {
    render(tabs("2", counts));
    expect(text("t-tab-all")).toBe("全部1,005+");
    expect(screen.getByTestId("t-tab-2").getAttribute("aria-selected")).toBe("true");
  });

  it("shows no counts while the groups are read, and a click chooses the status", () => {
    const chosen: string[] = [];
    render(tabs(ALL, undefined, chosen));
    expect(text("t-tab-all")).toBe("全部");
    expect(screen.getByTestId("t-tab-1").getAttribute("data-count")).toBe("0");
    fireEvent.click(screen.getByTestId("t-tab-1"));
    fireEvent.click(screen.getByTestId("t-tab-all"));
    expect(chosen).toEqual(["1", ALL]);
  });
});
