// @vitest-environment happy-dom
// The category fetch by site id: "Invalid site ID" for anything but 1-5, the tree kept in the platform store with its
// version, the version sent back so an unchanged tree costs no nodes, a changed one replacing it, one request for
// callers asking together; and the picker on top of it, including a site the host has not synced.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CategoryTreeAnswer, CategoryTreeNode } from "#shared/contract/category.ts";
import { CategorySelect } from "../components/category-select.tsx";
import { usePlatformStore } from "../stores/platform.ts";
import { api } from "./feature-api.ts";
import { fetchCategoryTree, INVALID_SITE_ID } from "./category-trees.ts";

const tree: CategoryTreeNode[] = [
  { id: "MLM1", name: "Hogar", fullName: "Hogar", children: [{ id: "MLM2", name: "Cocina", fullName: "Hogar > Cocina", isLeaf: true }] },
];
const answer = (site: number, version: string | null, nodes: CategoryTreeNode[] | null, notModified = false): CategoryTreeAnswer => ({
  site,
  version,
  syncTime: version ? "2026-01-01T00:00:00.000Z" : null,
  nodeCount: nodes ? nodes.length : 0,
  notModified,
  tree: nodes,
});

let calls: { site: number; version?: string }[];
let next: (q: { site: number; version?: string }) => CategoryTreeAnswer;

beforeEach(() => {
  usePlatformStore.getState().reset();
  calls = [];
  vi.spyOn(api.meliCategory, "getAllCategory").mockImplementation((async (q: { site: number; version?: string }) => {
    calls.push(q);
    return next(q);
  }) as never);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("fetchCategoryTree", () => {
  it('rejects a site that is not 1-5 with "Invalid site ID", without a request', async () => {
    for (const site of [0, 6, "mx", "1", null, 1.5]) await expect(fetchCategoryTree(site)).rejects.toThrow(INVALID_SITE_ID);
    expect(INVALID_SITE_ID).toBe("Invalid site ID");
    expect(calls).toEqual([]);
  });

  it("keeps the tree with its version, sends the version back, and replaces the tree only when it changed", async () => {
    next = () => answer(1, "v1", tree);
    const first = await fetchCategoryTree(1);
    expect(first).toEqual(tree);
    expect(calls).toEqual([{ site: 1, version: undefined }]);
    expect(usePlatformStore.getState().categoryVersions[1]).toBe("v1");
    expect(usePlatformStore.getState().categoryTrees[1]).toBe(first);

    next = (q) => answer(1, q.version!, null, true);
    const second = await fetchCategoryTree(1);
    expect(calls[1]).toEqual({ site: 1, version: "v1" });
    expect(second).toBe(first);

    const changed = [{ ...tree[0], name: "Casa" }];
    next = () => answer(1, "v2", changed);
    expect(await fetchCategoryTree(1)).toEqual(changed);
    expect(usePlatformStore.getState().categoryVersions[1]).toBe("v2");
  });

  it("shares one request between callers asking together", async () => {
    next = () => answer(3, "v9", tree);
    const [a, b] = await Promise.all([fetchCategoryTree(3), fetchCategoryTree(3)]);
    expect(a).toBe(b);
    expect(calls).toHaveLength(1);
  });
});

describe("CategorySelect", () => {
  const renderSelect = (site: 1 | 4 | null, onChange = vi.fn()) => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <CategorySelect site={site} value={null} onChange={onChange} testId="cs" />
      </QueryClientProvider>,
    );
    return onChange;
  };

  it("asks for a site first", () => {
    renderSelect(null);
    expect((screen.getByTestId("cs") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("cs").textContent).toBe("请先选择站点");
  });

  it("offers the site's tree and gives the chosen leaf with its full name", async () => {
    next = () => answer(1, "v1", tree);
    const onChange = renderSelect(1);
    await waitFor(() => expect(usePlatformStore.getState().categoryVersions[1]).toBe("v1"));
    fireEvent.click(screen.getByTestId("cs"));
    fireEvent.change(screen.getByTestId("cs-search"), { target: { value: "cocina" } });
    fireEvent.click(screen.getByTestId("cs-node-MLM2"));
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ id: "MLM2", fullName: "Hogar > Cocina" }));
  });

  it("says when the host has not synced the site's categories", async () => {
    next = () => answer(4, null, []);
    renderSelect(4);
    await waitFor(() => expect(calls).toHaveLength(1));
    fireEvent.click(screen.getByTestId("cs"));
    await waitFor(() => expect(screen.getByTestId("cs-empty").textContent).toBe("该站点的类目尚未同步，请联系管理员同步类目"));
  });
});
