// @vitest-environment happy-dom
// The tree-select as a user meets it: opening, branches, leaves only, search without case or accents with each match's
// path, keyboard, clearing, a saved label, and a tree of thousands of nodes rendering only a window of rows.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fold, indexTree, searchRows, TREE_SELECT, TreeSelect, zhPathOf, type TreeSelectNode } from "./tree-select.tsx";

afterEach(cleanup);

const leaf = (id: string, name: string, path: string, extra: Partial<TreeSelectNode> = {}): TreeSelectNode => ({
  id,
  name,
  fullName: `${path} > ${name}`,
  isLeaf: true,
  ...extra,
});

const nodes: TreeSelectNode[] = [
  {
    id: "MLM1",
    name: "Celulares y Teléfonos",
    fullName: "Celulares y Teléfonos",
    children: [
      leaf("MLM11", "Fundas", "Celulares y Teléfonos", { zh: "手机壳" }),
      leaf("MLM12", "Teléfonos Fijos", "Celulares y Teléfonos"),
      {
        id: "MLM13",
        name: "Accesorios",
        fullName: "Celulares y Teléfonos > Accesorios",
        children: [leaf("MLM131", "Cargadores", "Celulares y Teléfonos > Accesorios", { alias: "充电器" })],
      },
    ],
  },
  { id: "MLM2", name: "Hogar", fullName: "Hogar", children: [leaf("MLM21", "Cocina", "Hogar")] },
];

function Harness({
  onChange,
  initial = null,
  items = nodes,
}: {
  onChange?: (n: TreeSelectNode | null) => void;
  initial?: string | null;
  items?: TreeSelectNode[];
}) {
  const [value, setValue] = useState<string | null>(initial);
  return (
    <TreeSelect
      nodes={items}
      value={value}
      valueLabel="Guardada > Vieja"
      placeholder="请选择类目"
      onChange={(n) => {
        setValue(n?.id ?? null);
        onChange?.(n);
      }}
      testId="cat"
    />
  );
}

const open = () => fireEvent.click(screen.getByTestId("cat"));
const rowIds = () =>
  [...screen.getByTestId("cat-list").querySelectorAll<HTMLElement>("[role=treeitem], [role=option]")]
    .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
    .map((e) => e.dataset.testid!.replace("cat-node-", ""));

describe("TreeSelect", () => {
  it("uses the spec's constants: full width, list height 500, dropdown at most 400 px", () => {
    expect(TREE_SELECT).toEqual({ width: "100%", listHeight: 500, dropdownMaxHeight: 400 });
    render(<Harness />);
    expect((screen.getByTestId("cat").parentElement as HTMLElement).style.width).toBe("100%");
    open();
    expect(screen.getByTestId("cat-dropdown").style.maxHeight).toContain("400px");
  });

  it("opens on the roots, opens a branch, and chooses only leaves; the selection text is the full name", () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    expect(screen.getByTestId("cat").textContent).toBe("请选择类目");
    open();
    expect(rowIds()).toEqual(["MLM1", "MLM2"]);
    fireEvent.click(screen.getByTestId("cat-node-MLM1"));
    expect(onChange).not.toHaveBeenCalled();
    expect(rowIds()).toEqual(["MLM1", "MLM11", "MLM12", "MLM13", "MLM2"]);
    expect(screen.getByTestId("cat-node-MLM1").getAttribute("aria-expanded")).toBe("true");
    fireEvent.click(screen.getByTestId("cat-node-MLM12"));
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ id: "MLM12", fullName: "Celulares y Teléfonos > Teléfonos Fijos" }));
    expect(screen.getByTestId("cat").textContent).toBe("Celulares y Teléfonos > Teléfonos Fijos");
    expect(screen.queryByTestId("cat-dropdown")).toBeNull();
    // Reopened, the chosen node shows with its branch open.
    open();
    expect(screen.getByTestId("cat-node-MLM12").getAttribute("aria-selected")).toBe("true");
  });

  it("searches names, Chinese names and aliases without case or accents, showing each match's path", () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    open();
    const search = screen.getByTestId("cat-search");
    fireEvent.change(search, { target: { value: "TELEFONOS" } });
    expect(rowIds()).toEqual(["MLM1", "MLM12"]);
    expect(screen.getByTestId("cat-node-MLM12").textContent).toContain("Celulares y Teléfonos > Teléfonos Fijos");
    expect(screen.getByTestId("cat-node-MLM12").querySelector("mark")!.textContent).toBe("Teléfonos");
    expect(screen.getByTestId("cat-count").textContent).toBe("找到 2 项");
    fireEvent.change(search, { target: { value: "手机" } });
    expect(rowIds()).toEqual(["MLM11"]);
    fireEvent.change(search, { target: { value: "充电" } });
    expect(rowIds()).toEqual(["MLM131"]);
    fireEvent.click(screen.getByTestId("cat-node-MLM131"));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ id: "MLM131" }));
    open();
    fireEvent.change(screen.getByTestId("cat-search"), { target: { value: "nada" } });
    expect(screen.getByTestId("cat-empty").textContent).toBe("没有匹配的结果");
  });

  it("shows a Chinese name first with the site's name beside, in the tree, the search and the chosen path", () => {
    const zhNodes: TreeSelectNode[] = [
      {
        ...nodes[0],
        zh: "手机和电话",
        children: [
          leaf("MLM11", "Fundas", "Celulares y Teléfonos", { zh: "手机壳" }),
          leaf("MLM12", "Teléfonos Fijos", "Celulares y Teléfonos"),
        ],
      },
    ];
    const onChange = vi.fn();
    render(<Harness items={zhNodes} onChange={onChange} />);
    open();
    expect(screen.getByTestId("cat-node-MLM1").textContent).toBe("手机和电话· Celulares y Teléfonos");
    fireEvent.click(screen.getByTestId("cat-node-MLM1"));
    expect(screen.getByTestId("cat-node-MLM11").textContent).toBe("手机壳· Fundas");
    expect(screen.getByTestId("cat-node-MLM12").textContent).toBe("Teléfonos Fijos");
    // Searched by the Chinese name: the match marked, the path in Chinese beside the site's.
    fireEvent.change(screen.getByTestId("cat-search"), { target: { value: "手机壳" } });
    expect(rowIds()).toEqual(["MLM11"]);
    const row = screen.getByTestId("cat-node-MLM11");
    expect(row.querySelector("mark")!.textContent).toBe("手机壳");
    expect(row.textContent).toContain("手机和电话 > 手机壳 · Celulares y Teléfonos > Fundas");
    fireEvent.click(row);
    // The product keeps the site's full name; the field shows the Chinese path beside it.
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ id: "MLM11", fullName: "Celulares y Teléfonos > Fundas" }));
    expect(screen.getByTestId("cat").textContent).toBe("手机和电话 > 手机壳· Celulares y Teléfonos > Fundas");
    // A leaf without a Chinese name under a named branch: the path mixes, as the server's fullZh.
    open();
    fireEvent.change(screen.getByTestId("cat-search"), { target: { value: "fijos" } });
    fireEvent.click(screen.getByTestId("cat-node-MLM12"));
    expect(screen.getByTestId("cat").textContent).toBe("手机和电话 > Teléfonos Fijos· Celulares y Teléfonos > Teléfonos Fijos");
  });

  it("a branch found by search opens in the tree instead of being chosen", () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    open();
    fireEvent.change(screen.getByTestId("cat-search"), { target: { value: "accesorios" } });
    fireEvent.click(screen.getByTestId("cat-node-MLM13"));
    expect(onChange).not.toHaveBeenCalled();
    expect((screen.getByTestId("cat-search") as HTMLInputElement).value).toBe("");
    expect(rowIds()).toEqual(["MLM1", "MLM11", "MLM12", "MLM13", "MLM131", "MLM2"]);
  });

  it("works from the keyboard: arrows move, right opens, Enter chooses", () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    open();
    const search = screen.getByTestId("cat-search");
    fireEvent.keyDown(search, { key: "ArrowDown" });
    expect(screen.getByTestId("cat-node-MLM2").dataset.active).toBe("true");
    fireEvent.keyDown(search, { key: "ArrowRight" });
    fireEvent.keyDown(search, { key: "ArrowDown" });
    fireEvent.keyDown(search, { key: "Enter" });
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ id: "MLM21", fullName: "Hogar > Cocina" }));
  });

  it("clears the choice, and shows a saved label for a value the tree does not hold", () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} initial="MLM999" />);
    expect(screen.getByTestId("cat").textContent).toBe("Guardada > Vieja");
    fireEvent.click(screen.getByTestId("cat-clear"));
    expect(onChange).toHaveBeenCalledWith(null);
    expect(screen.getByTestId("cat").textContent).toBe("请选择类目");
  });

  it("renders only a window of a tree of thousands, and searches all of it", () => {
    const big: TreeSelectNode[] = Array.from({ length: 60 }, (_, r) => ({
      id: `R${r}`,
      name: `Raíz ${r}`,
      fullName: `Raíz ${r}`,
      children: Array.from({ length: 100 }, (_, c) => leaf(`R${r}C${c}`, `Hoja ${r}-${c}`, `Raíz ${r}`)),
    }));
    render(<Harness items={big} />);
    open();
    fireEvent.change(screen.getByTestId("cat-search"), { target: { value: "hoja" } });
    expect(screen.getByTestId("cat-list").dataset.count).toBe("6000");
    const rendered = rowIds().length;
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(60);
    fireEvent.change(screen.getByTestId("cat-search"), { target: { value: "hoja 59-99" } });
    expect(rowIds()).toEqual(["R59C99"]);
  });
});

describe("indexing and matching", () => {
  it("folds case and accents, and indexes subtrees", () => {
    expect(fold("Teléfonos ÀÇÑ")).toBe("telefonos acn");
    const { entries, byId } = indexTree(nodes);
    expect(entries.map((e) => e.node.id)).toEqual(["MLM1", "MLM11", "MLM12", "MLM13", "MLM131", "MLM2", "MLM21"]);
    expect(entries[byId.get("MLM1")!].end).toBe(5);
    expect(searchRows(entries, "  ").length).toBe(0);
    expect(searchRows(entries, "cocina").map((i) => entries[i].node.id)).toEqual(["MLM21"]);
    // The Chinese path only once some node on it has a Chinese name.
    expect(zhPathOf(entries, byId.get("MLM11")!)).toBe("Celulares y Teléfonos > 手机壳");
    expect(zhPathOf(entries, byId.get("MLM131")!)).toBeNull();
  });
});
