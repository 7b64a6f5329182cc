// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { BarChart, LineChart, yScale } from "./chart.tsx";

afterEach(cleanup);

describe("yScale", () => {
  it("uses round ticks from 0 and never a zero range", () => {
    expect(yScale([3, 7, 12])).toEqual({ min: 0, max: 15, ticks: [0, 5, 10, 15] });
    expect(yScale([0, 0, 0])).toMatchObject({ min: 0, max: 1 });
    expect(yScale([])).toMatchObject({ min: 0, max: 1 });
    expect(yScale([-4, 2]).min).toBeLessThan(0);
    expect(yScale([0.1, 0.2]).ticks.every((t) => String(t).length < 6)).toBe(true);
  });
});

describe("charts", () => {
  const data = [
    { label: "周一", value: 3 },
    { label: "周二", value: 8 },
    { label: "周三", value: 5 },
  ];

  it("LineChart draws one point per datum with a tooltip, axis labels, and scales by viewBox", () => {
    const { container } = render(<LineChart data={data} title="订单趋势" />);
    const svg = screen.getByRole("img", { name: "订单趋势" });
    expect(svg.getAttribute("viewBox")).toBe("0 0 600 240");
    const points = container.querySelectorAll("circle");
    expect(points).toHaveLength(3);
    expect(points[1].querySelector("title")?.textContent).toBe("周二: 8");
    expect(svg.textContent).toContain("周一");
    expect(svg.textContent).toContain("周三");
  });

  it("BarChart draws one bar per datum", () => {
    const { container } = render(<BarChart data={data} />);
    const bars = container.querySelectorAll("rect");
    expect(bars).toHaveLength(3);
    expect(bars[0].querySelector("title")?.textContent).toBe("周一: 3");
  });

  it("all-zero data renders finite coordinates", () => {
    const zeros = data.map((d) => ({ ...d, value: 0 }));
    const { container } = render(
      <>
        <LineChart data={zeros} />
        <BarChart data={zeros} />
      </>,
    );
    const html = container.innerHTML;
    expect(html).not.toContain("NaN");
    expect(html).not.toContain("Infinity");
  });

  it("a single point and empty data are handled", () => {
    const { container, rerender } = render(<LineChart data={[{ label: "今日", value: 4 }]} />);
    expect(container.innerHTML).not.toContain("NaN");
    rerender(<LineChart data={[]} />);
    expect(screen.getByText("暂无数据")).toBeTruthy();
    rerender(<BarChart data={[]} emptyText="还没有订单" />);
    expect(screen.getByText("还没有订单")).toBeTruthy();
  });
});
