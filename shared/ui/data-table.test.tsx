// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DataTable, DataTablePager, pageSelectionState, togglePageSelection, type DataTableColumn } from "./data-table.tsx";

afterEach(cleanup);

type User = { id: string; name: string; email: string };
const users = (n: number, from = 1): User[] =>
  Array.from({ length: n }, (_, i) => ({ id: `u${from + i}`, name: `用户${from + i}`, email: `u${from + i}@example.com` }));
const columns: DataTableColumn<User>[] = [
  { id: "name", header: "用户名", cell: (r) => r.name },
  { id: "email", header: "邮箱", cell: (r) => r.email, width: 240 },
];
const bodyRows = (container: HTMLElement) => Array.from(container.querySelectorAll<HTMLElement>("[data-row-key]"));

describe("DataTable (plain)", () => {
  it("renders a real table with headers and one row per item, keyed by rowKey", () => {
    const { container } = render(<DataTable columns={columns} rows={users(3)} rowKey={(r) => r.id} />);
    const table = screen.getByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["用户名", "邮箱"]);
    expect(bodyRows(container).map((tr) => tr.dataset.rowKey)).toEqual(["u1", "u2", "u3"]);
    expect(bodyRows(container)[1].textContent).toBe("用户2u2@example.com");
  });

  it("shows 暂无数据 (or the given text) when there are no rows, and 加载中... while loading", () => {
    const { rerender } = render(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} />);
    expect(screen.getByText("暂无数据")).toBeTruthy();
    rerender(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} emptyText="还没有用户" />);
    expect(screen.getByText("还没有用户")).toBeTruthy();
    rerender(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} loading />);
    expect(screen.getByText("加载中...")).toBeTruthy();
    expect(screen.queryByText("还没有用户")).toBeNull();
  });

  it("keeps rows visible under a loading overlay when reloading", () => {
    const { container } = render(<DataTable columns={columns} rows={users(2)} rowKey={(r) => r.id} loading />);
    expect(bodyRows(container)).toHaveLength(2);
    expect(screen.getByRole("status", { name: "加载中..." })).toBeTruthy();
  });

  it("calls onRowClick with the row", () => {
    const onRowClick = vi.fn();
    render(<DataTable columns={columns} rows={users(2)} rowKey={(r) => r.id} onRowClick={onRowClick} />);
    fireEvent.click(screen.getByText("用户2"));
    expect(onRowClick).toHaveBeenCalledWith(users(2)[1]);
  });
});

function SelectableTable({ rows, initial = [], onChange }: { rows: User[]; initial?: string[]; onChange?: (s: Set<string>) => void }) {
  const [selected, setSelected] = useState(new Set(initial));
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(r) => r.id}
      selection={{
        selected,
        onChange: (next) => {
          setSelected(next);
          onChange?.(next);
        },
      }}
    />
  );
}

describe("DataTable selection", () => {
  it("select-all selects every row on the page, keeping other pages' keys, and clears them again", () => {
    const onChange = vi.fn();
    const { container } = render(<SelectableTable rows={users(3)} initial={["other-page"]} onChange={onChange} />);
    const all = screen.getByRole("checkbox", { name: "全选" });
    expect(all.getAttribute("aria-checked")).toBe("false");

    fireEvent.click(all);
    expect([...onChange.mock.lastCall![0]].sort()).toEqual(["other-page", "u1", "u2", "u3"]);
    expect(all.getAttribute("aria-checked")).toBe("true");
    expect(bodyRows(container).every((tr) => tr.dataset.state === "selected")).toBe(true);

    fireEvent.click(all);
    expect([...onChange.mock.lastCall![0]]).toEqual(["other-page"]);
    expect(all.getAttribute("aria-checked")).toBe("false");
  });

  it("row boxes toggle one key; a partial page shows the select-all box as mixed", () => {
    const onChange = vi.fn();
    render(<SelectableTable rows={users(3)} onChange={onChange} />);
    const rowBoxes = screen.getAllByRole("checkbox", { name: "选择此行" });
    expect(rowBoxes).toHaveLength(3);
    fireEvent.click(rowBoxes[1]);
    expect([...onChange.mock.lastCall![0]]).toEqual(["u2"]);
    expect(screen.getByRole("checkbox", { name: "全选" }).getAttribute("aria-checked")).toBe("mixed");
    // From mixed, select-all selects the whole page.
    fireEvent.click(screen.getByRole("checkbox", { name: "全选" }));
    expect([...onChange.mock.lastCall![0]].sort()).toEqual(["u1", "u2", "u3"]);
    fireEvent.click(rowBoxes[1]);
    expect([...onChange.mock.lastCall![0]].sort()).toEqual(["u1", "u3"]);
  });

  it("clicking a row box does not trigger onRowClick", () => {
    const onRowClick = vi.fn();
    render(
      <DataTable
        columns={columns}
        rows={users(1)}
        rowKey={(r) => r.id}
        onRowClick={onRowClick}
        selection={{ selected: new Set(), onChange: () => {} }}
      />,
    );
    fireEvent.click(screen.getByRole("checkbox", { name: "选择此行" }));
    expect(onRowClick).not.toHaveBeenCalled();
  });

  it("pure helpers", () => {
    expect(pageSelectionState([], new Set(["a"]))).toBe(false);
    expect(pageSelectionState(["a", "b"], new Set(["a"]))).toBe("indeterminate");
    expect(pageSelectionState(["a", "b"], new Set(["a", "b", "c"]))).toBe(true);
    expect([...togglePageSelection(["a", "b"], new Set(["a", "c"]))].sort()).toEqual(["a", "b", "c"]);
    expect([...togglePageSelection(["a", "b"], new Set(["a", "b", "c"]))]).toEqual(["c"]);
  });
});

describe("DataTable pagination", () => {
  it("shows 共 N 条 and page x / y; previous/next call onChange with the new page", () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <DataTable columns={columns} rows={users(20)} rowKey={(r) => r.id} pagination={{ page: 1, pageSize: 20, total: 95, onChange }} />,
    );
    expect(screen.getByText("共 95 条")).toBeTruthy();
    expect(screen.getByText("1 / 5")).toBeTruthy();
    const prev = screen.getByRole("button", { name: "上一页" }) as HTMLButtonElement;
    const next = screen.getByRole("button", { name: "下一页" }) as HTMLButtonElement;
    expect(prev.disabled).toBe(true);
    fireEvent.click(next);
    expect(onChange).toHaveBeenLastCalledWith(2, 20);

    rerender(
      <DataTable columns={columns} rows={users(15, 81)} rowKey={(r) => r.id} pagination={{ page: 5, pageSize: 20, total: 95, onChange }} />,
    );
    expect(screen.getByText("5 / 5")).toBeTruthy();
    expect((screen.getByRole("button", { name: "下一页" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "上一页" }));
    expect(onChange).toHaveBeenLastCalledWith(4, 20);
  });

  it("an empty list is page 1 / 1 with both buttons disabled; the size select shows the current size", () => {
    render(<DataTablePager page={1} pageSize={50} total={0} onChange={() => {}} />);
    expect(screen.getByText("共 0 条")).toBeTruthy();
    expect(screen.getByText("1 / 1")).toBeTruthy();
    expect((screen.getByRole("button", { name: "上一页" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "下一页" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole("combobox", { name: "每页条数" }).textContent).toContain("50 条/页");
  });
});

describe("DataTable (virtualized)", () => {
  it("renders only a window of thousands of rows in a grid with a header row", () => {
    const rows = users(5000);
    const { container } = render(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} virtualized height={400} rowHeight={40} />);
    const grid = screen.getByRole("grid");
    expect(grid.getAttribute("aria-rowcount")).toBe("5001");
    expect(
      within(grid)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["用户名", "邮箱"]);
    const rendered = bodyRows(container);
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(100);
    expect(rendered[0].dataset.rowKey).toBe("u1");
    // The body is as tall as all rows, so the scrollbar reflects the whole list.
    expect((rendered[0].parentElement as HTMLElement).style.height).toBe(`${5000 * 40}px`);
  });

  it("supports selection and the empty state", () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <DataTable columns={columns} rows={users(3)} rowKey={(r) => r.id} virtualized selection={{ selected: new Set(), onChange }} />,
    );
    fireEvent.click(screen.getByRole("checkbox", { name: "全选" }));
    expect([...onChange.mock.lastCall![0]].sort()).toEqual(["u1", "u2", "u3"]);
    rerender(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} virtualized />);
    expect(screen.getByText("暂无数据")).toBeTruthy();
  });
});
