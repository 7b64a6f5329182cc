// @vitest-environment happy-dom
// The variant grid and the bulk bar as a user meets them.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ProductBulkBar } from "./product-bulk-bar.tsx";
import { VariantGrid } from "./variant-grid.tsx";
import { gridOf, toVariantModelInput, type VariantGrid as Grid } from "./variant-model.ts";

afterEach(cleanup);

function Harness({ initial, onGrid }: { initial: Grid; onGrid: (g: Grid) => void }) {
  const [grid, setGrid] = useState(initial);
  return (
    <VariantGrid
      grid={grid}
      onChange={(g) => {
        setGrid(g);
        onGrid(g);
      }}
    />
  );
}

describe("VariantGrid", () => {
  const initial = gridOf({
    headers: [{ vairantKey: "颜色", vairantValues: ["红", "蓝"] }],
    items: [
      { kvId: "红", values: ["红"], price: "10", stock: 1, sku: "R", images: [] },
      { kvId: "蓝", values: ["蓝"], price: "12", stock: 2, sku: "B", images: [] },
    ],
  });

  it("edits one variant's price and adds a value's row", () => {
    let last = initial;
    render(<Harness initial={initial} onGrid={(g) => (last = g)} />);
    expect(screen.getByTestId("variant-rows").dataset.count).toBe("2");
    fireEvent.change(screen.getByTestId("variant-price-1"), { target: { value: "15.5" } });
    expect(toVariantModelInput(last).items.map((i) => i.price)).toEqual([10, 15.5]);
    fireEvent.change(screen.getByTestId("variant-option-add-value-0"), { target: { value: "绿" } });
    fireEvent.keyDown(screen.getByTestId("variant-option-add-value-0"), { key: "Enter" });
    expect(screen.getByTestId("variant-rows").dataset.count).toBe("3");
    expect(screen.getByTestId("variant-row-2").dataset.values).toBe("绿");
  });

  it("marks a cell that cannot be saved", () => {
    render(<Harness initial={initial} onGrid={() => {}} />);
    fireEvent.change(screen.getByTestId("variant-stock-0"), { target: { value: "1.5" } });
    expect(screen.getByTestId("variant-stock-0").getAttribute("aria-invalid")).toBe("true");
  });
});

describe("ProductBulkBar", () => {
  const base = {
    selectedCount: 0,
    allMatching: false,
    total: 10000,
    totalCapped: true,
    canAssign: false,
    onSelectAllMatching: () => {},
    onClear: () => {},
    onAction: () => {},
  };

  it("offers every matching product and the actions once something is chosen", () => {
    const onAction = vi.fn();
    const { rerender } = render(<ProductBulkBar {...base} onAction={onAction} />);
    expect((screen.getByTestId("products-bulk-same-price") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId("products-bulk-assign")).toBeNull();
    rerender(<ProductBulkBar {...base} selectedCount={3} canAssign onAction={onAction} />);
    expect(screen.getByTestId("products-selected-count").textContent).toBe("已选择 3 个商品");
    expect(screen.getByTestId("products-select-all-matching").textContent).toContain("选择全部 10,000+ 条匹配商品");
    fireEvent.click(screen.getByTestId("products-bulk-assign"));
    expect(onAction).toHaveBeenCalledWith("assign");
    rerender(<ProductBulkBar {...base} allMatching onAction={onAction} />);
    expect(screen.getByTestId("products-selected-count").textContent).toBe("已选择全部 10,000+ 条匹配商品");
    rerender(<ProductBulkBar {...base} selectedCount={1001} onAction={onAction} />);
    expect((screen.getByTestId("products-bulk-delete") as HTMLButtonElement).disabled).toBe(true);
  });
});
