// @vitest-environment happy-dom
// The 类目映射 screen as a seller meets it: the mappings listed with the source category and the Chinese path, a
// mapping pointed at another leaf of its site through the category picker, and one deleted behind a confirmation.
// The CategoryMapping calls answer from an in-memory list standing in for the server.
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CategoryMapping } from "#shared/contract/category-mapping.ts";
import type { CategoryTreeNode } from "#shared/contract/category.ts";
import { ConfirmHost } from "#shared/ui/confirm.tsx";
import { useToastStore } from "#shared/ui/toast.tsx";
import type { AppRoute } from "#shared/routes/table.ts";
import { api } from "../../lib/feature-api.ts";
import { queryClient } from "../../lib/query-client.ts";
import { usePlatformStore } from "../../stores/platform.ts";
import CategoryMappingsPage from "./category-mappings-page.tsx";

const route: AppRoute = {
  path: "/proudcts/category-mappings",
  name: "ProductCategoryMappings",
  page: "products-category-mappings",
  meta: { title: "类目映射" },
};
const tree: CategoryTreeNode[] = [
  {
    id: "MLM1",
    name: "Ropa",
    fullName: "Ropa",
    zh: "服装",
    children: [
      { id: "MLM2", name: "Vestidos", fullName: "Ropa > Vestidos", zh: "连衣裙", isLeaf: true },
      { id: "MLM3", name: "Blusas", fullName: "Ropa > Blusas", zh: "女士衬衫", isLeaf: true },
    ],
  },
];
const mapping = (over: Partial<CategoryMapping>): CategoryMapping => ({
  id: "00000000-0000-4000-8000-000000000001",
  platformType: 1,
  sourceKey: "1031910",
  sourcePath: "女装 > 连衣裙",
  site: 1,
  cateId: "MLM2",
  categoryName: "Ropa > Vestidos",
  fullZh: "服装 > 连衣裙",
  useCount: 3,
  lastModificationTime: "2026-11-28T10:00:00.000Z",
  ...over,
});

let rows: CategoryMapping[];
beforeEach(() => {
  usePlatformStore.getState().reset();
  rows = [mapping({}), mapping({ id: "00000000-0000-4000-8000-000000000002", platformType: 2, sourceKey: "50013228", sourcePath: null })];
  vi.spyOn(api.meliCategory, "getAllCategory").mockImplementation((async () => ({
    site: 1,
    version: "v1",
    syncTime: null,
    nodeCount: 1,
    notModified: false,
    tree,
  })) as never);
  vi.spyOn(api.categoryMapping, "getCategoryMappings").mockImplementation(async (q) => {
    const filter = q?.Filter;
    const items = rows.filter((r) => !filter || `${r.sourcePath} ${r.sourceKey} ${r.fullZh}`.includes(filter));
    return { items, totalCount: items.length };
  });
  vi.spyOn(api.categoryMapping, "updateCategoryMapping").mockImplementation(async ({ id, cateId }) => {
    const leaf = tree[0].children!.find((c) => c.id === cateId)!;
    rows = rows.map((r) => (r.id === id ? { ...r, cateId, categoryName: leaf.fullName, fullZh: `服装 > ${leaf.zh}`, useCount: 1 } : r));
    return rows.find((r) => r.id === id)!;
  });
  vi.spyOn(api.categoryMapping, "deleteCategoryMapping").mockImplementation(async ({ id }) => {
    rows = rows.filter((r) => r.id !== id);
    return { count: 1 };
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  queryClient.clear();
  useToastStore.setState({ toasts: [] });
});

function renderPage() {
  return render(
    <MemoryRouter>
      <QueryClientProvider client={queryClient}>
        <CategoryMappingsPage route={route} />
        <ConfirmHost />
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

const first = "00000000-0000-4000-8000-000000000001";

describe("类目映射", () => {
  it("lists the mappings with the source category and the Chinese path", async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId(`category-mappings-category-${first}`).textContent).toBe("服装 > 连衣裙MLM2"));
    expect(screen.getByText("女装 > 连衣裙")).not.toBeNull();
    // Without a path, the source category's id.
    expect(screen.getByText("50013228")).not.toBeNull();
    expect(screen.getByText("1688")).not.toBeNull();
  });

  it("points a mapping at another leaf of its site", async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId(`category-mappings-edit-${first}`));
    await waitFor(() => expect(usePlatformStore.getState().categoryVersions[1]).toBe("v1"));
    fireEvent.click(screen.getByTestId("category-mapping-category"));
    fireEvent.change(screen.getByTestId("category-mapping-category-search"), { target: { value: "衬衫" } });
    fireEvent.click(screen.getByTestId("category-mapping-category-node-MLM3"));
    fireEvent.click(screen.getByTestId("category-mapping-save"));
    await waitFor(() => expect(api.categoryMapping.updateCategoryMapping).toHaveBeenCalledWith({ id: first, cateId: "MLM3" }));
    await waitFor(() => expect(screen.getByTestId(`category-mappings-category-${first}`).textContent).toBe("服装 > 女士衬衫MLM3"));
  });

  it("deletes a mapping after confirmation", async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId(`category-mappings-delete-${first}`));
    fireEvent.click(await screen.findByRole("button", { name: "删除" }));
    await waitFor(() => expect(screen.queryByTestId(`category-mappings-category-${first}`)).toBeNull());
    expect(api.categoryMapping.deleteCategoryMapping).toHaveBeenCalledWith({ id: first });
  });
});
