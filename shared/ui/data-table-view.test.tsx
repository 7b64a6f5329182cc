// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { DataTable, type DataTableColumn } from "./data-table.tsx";
import { arrangeColumns, DataTableViewOptions, moveColumn, tableViewSchema, type TableView } from "./data-table-view.tsx";

afterEach(cleanup);

type Row = { id: string };
const col = (id: string, extra: Partial<DataTableColumn<Row>> = {}): DataTableColumn<Row> => ({
  id,
  header: id.toUpperCase(),
  cell: (r) => `${id}:${r.id}`,
  ...extra,
});
const columns = [
  col("a"),
  col("title", { hideable: false }),
  col("b"),
  col("extra", { defaultHidden: true }),
  col("actions", { movable: false, hideable: false }),
];
const ids = (cs: { id: string }[]) => cs.map((c) => c.id);

describe("arrangeColumns", () => {
  it("without a view shows every column in code order; a view hides the default-hidden ones until told otherwise", () => {
    expect(ids(arrangeColumns(columns, undefined))).toEqual(["a", "title", "b", "extra", "actions"]);
    expect(ids(arrangeColumns(columns, { density: "compact" }))).toEqual(["a", "title", "b", "actions"]);
    expect(ids(arrangeColumns(columns, { density: "compact", hidden: ["b"] }))).toEqual(["a", "title", "extra", "actions"]);
  });

  it("never hides a column that is not hideable, and keeps fixed columns in their place", () => {
    const view: TableView = { density: "compact", hidden: ["title", "actions"], order: ["actions", "b", "title", "a"] };
    expect(ids(arrangeColumns(columns, view))).toEqual(["b", "extra", "title", "a", "actions"]);
  });

  it("places a column the saved order does not know after its predecessor in code", () => {
    expect(ids(arrangeColumns(columns, { density: "compact", hidden: [], order: ["b", "a"] }))).toEqual([
      "b",
      "extra",
      "a",
      "title",
      "actions",
    ]);
  });

  it("moves a column among the movable ones", () => {
    const view: TableView = { density: "compact" };
    expect(moveColumn(columns, view, "b", -1)).toEqual(["a", "b", "title", "extra"]);
    expect(moveColumn(columns, view, "a", -1)).toEqual(["a", "title", "b", "extra"]);
  });

  it("reads a stored view leniently", () => {
    expect(tableViewSchema.parse({ density: "huge", hidden: "x", order: ["a"] })).toEqual({ density: "comfortable", order: ["a"] });
  });
});

function ViewedTable() {
  const [view, setView] = useState<TableView>({ density: "comfortable" });
  return (
    <>
      <DataTableViewOptions columns={columns} view={view} onChange={setView} defaults={{ density: "comfortable" }} testId="v" />
      <DataTable columns={columns} rows={[{ id: "1" }]} rowKey={(r) => r.id} view={view} />
    </>
  );
}

describe("DataTableViewOptions with DataTable", () => {
  const headers = () => Array.from(document.querySelectorAll("th")).map((th) => th.textContent);
  it("switches the density, hides, shows and moves columns, and restores the defaults", async () => {
    const { container } = render(<ViewedTable />);
    const root = container.querySelector<HTMLElement>("[data-slot=data-table]")!;
    expect(root.dataset.density).toBe("comfortable");
    expect(headers()).toEqual(["A", "TITLE", "B", "ACTIONS"]);
    await act(async () => fireEvent.click(screen.getByTestId("v")));
    await act(async () => fireEvent.click(screen.getByTestId("v-density-compact")));
    expect(root.dataset.density).toBe("compact");
    expect(container.querySelector("td")!.className).toContain("py-1");
    await act(async () => fireEvent.click(screen.getByTestId("v-column-extra")));
    await act(async () => fireEvent.click(screen.getByTestId("v-column-a")));
    expect(headers()).toEqual(["TITLE", "B", "EXTRA", "ACTIONS"]);
    expect((screen.getByTestId("v-column-title") as HTMLButtonElement).disabled).toBe(true);
    await act(async () => fireEvent.click(screen.getByTestId("v-down-title")));
    expect(headers()).toEqual(["B", "TITLE", "EXTRA", "ACTIONS"]);
    expect(screen.queryByTestId("v-up-actions")).toBeNull();
    await act(async () => fireEvent.click(screen.getByTestId("v-reset")));
    expect(headers()).toEqual(["A", "TITLE", "B", "ACTIONS"]);
    expect(root.dataset.density).toBe("comfortable");
  });

  it("pins the actions column to the right edge", () => {
    const { container } = render(<DataTable columns={columns} rows={[{ id: "1" }]} rowKey={(r) => r.id} />);
    const cells = Array.from(container.querySelectorAll("td"));
    expect(cells.at(-1)!.className).toContain("sticky");
    expect(cells[0].className).not.toContain("sticky");
  });
});
