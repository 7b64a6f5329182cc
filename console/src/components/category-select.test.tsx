// @vitest-environment happy-dom
// The category picker's promise: with Chinese names in the site's tree (the glossary's on a fresh start) a Chinese word
// finds the category, and the placeholders say so; a tree without them promises only the site's language.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CategoryTreeNode } from "#shared/contract/category.ts";
import { api } from "../lib/feature-api.ts";
import { usePlatformStore } from "../stores/platform.ts";
import { CategorySelect } from "./category-select.tsx";

const chineseTree: CategoryTreeNode[] = [
  {
    id: "MLM1051",
    name: "Celulares y Teléfonos",
    fullName: "Celulares y Teléfonos",
    zh: "手机和电话",
    children: [
      {
        id: "MLM1055",
        name: "Celulares y Smartphones",
        fullName: "Celulares y Teléfonos > Celulares y Smartphones",
        zh: "手机",
        isLeaf: true,
      },
      { id: "MLM5", name: "Teléfonos Fijos", fullName: "Celulares y Teléfonos > Teléfonos Fijos", zh: "座机电话", isLeaf: true },
    ],
  },
];
const spanishTree: CategoryTreeNode[] = [
  { id: "MLB1", name: "Casa", fullName: "Casa", children: [{ id: "MLB2", name: "Cozinha", fullName: "Casa > Cozinha", isLeaf: true }] },
];

beforeEach(() => {
  usePlatformStore.getState().reset();
  vi.spyOn(api.meliCategory, "getAllCategory").mockImplementation((async (q: { site: number }) => {
    const tree = q.site === 1 ? chineseTree : spanishTree;
    return { site: q.site, version: `v${q.site}`, syncTime: null, nodeCount: tree.length, notModified: false, tree };
  }) as never);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderSelect(site: 1 | 2, onChange = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CategorySelect site={site} value={null} onChange={onChange} testId="cs" />
    </QueryClientProvider>,
  );
  return onChange;
}

describe("CategorySelect in Chinese", () => {
  it("finds a category by a Chinese word and promises Chinese search", async () => {
    const onChange = renderSelect(1);
    await waitFor(() => expect(screen.getByTestId("cs").textContent).toBe("请选择类目，可输入中文搜索"));
    fireEvent.click(screen.getByTestId("cs"));
    const search = screen.getByTestId("cs-search") as HTMLInputElement;
    expect(search.placeholder).toBe("搜索类目：中文或西语名称");
    fireEvent.change(search, { target: { value: "手机" } });
    expect(screen.queryByTestId("cs-node-MLM1055")).not.toBeNull();
    expect(screen.queryByTestId("cs-node-MLM5")).toBeNull();
    fireEvent.click(screen.getByTestId("cs-node-MLM1055"));
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ id: "MLM1055" }));
  });

  it("promises only the site's language where the tree has no Chinese names", async () => {
    renderSelect(2);
    await waitFor(() => expect(usePlatformStore.getState().categoryVersions[2]).toBe("v2"));
    expect(screen.getByTestId("cs").textContent).toBe("请选择类目");
    fireEvent.click(screen.getByTestId("cs"));
    expect((screen.getByTestId("cs-search") as HTMLInputElement).placeholder).toBe("搜索类目：葡语名称（该站点暂无中文类目名）");
  });
});
