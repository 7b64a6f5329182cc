// @vitest-environment happy-dom
// The category advice the editor and the publish screen share: the category mapped to the product's source category
// offered first (and not once it is chosen), and 推荐类目 asking for the title in the site's language, a Chinese title
// when it is the only one; without a title it says so instead of asking.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useToastStore } from "#shared/ui/toast.tsx";
import { api } from "../lib/feature-api.ts";
import { CategoryAdvice } from "./category-advice.tsx";

const PRODUCT = "00000000-0000-4000-8000-00000000000a";
beforeEach(() => {
  vi.spyOn(api.categoryMapping, "getSuggestedCategory").mockImplementation(async () => ({
    id: "00000000-0000-4000-8000-000000000001",
    platformType: 2,
    sourceKey: "50008090",
    sourcePath: "耳机",
    site: 1,
    cateId: "MLM9",
    categoryName: "Audio > Audífonos",
    fullZh: "音频 > 耳机",
    useCount: 4,
    lastModificationTime: "2026-11-28T10:00:00.000Z",
  }));
  vi.spyOn(api.meliCategory, "predictMeliCategory").mockImplementation(async (q) => ({
    title: q.title ?? "",
    site: 1,
    method: "chineseNames",
    translatedTitle: null,
    note: null,
    items: [],
  }));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useToastStore.setState({ toasts: [] });
});

function renderAdvice(titles: Record<string, string> | null, chosen: string | null = null) {
  const onChoose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CategoryAdvice
        site={1}
        productId={PRODUCT}
        titles={() => titles}
        chosen={chosen}
        onChoose={onChoose}
        testIds={{ button: "b", list: "l" }}
      />
    </QueryClientProvider>,
  );
  return onChoose;
}

describe("CategoryAdvice", () => {
  it("offers the mapped category first and takes it in one click", async () => {
    const onChoose = renderAdvice({ zh: "无线耳机" });
    await waitFor(() => expect(screen.getByTestId("l-mapping").textContent).toContain("音频 > 耳机"));
    expect(api.categoryMapping.getSuggestedCategory).toHaveBeenCalledWith({ site: 1, productId: PRODUCT }, expect.anything());
    fireEvent.click(screen.getByTestId("l-mapping-use"));
    expect(onChoose).toHaveBeenCalledWith("MLM9", "Audio > Audífonos");
  });

  it("does not offer the category already chosen", async () => {
    renderAdvice({ zh: "无线耳机" }, "MLM9");
    await waitFor(() => expect(api.categoryMapping.getSuggestedCategory).toHaveBeenCalled());
    expect(screen.queryByTestId("l-mapping")).toBeNull();
  });

  it("predicts from a Chinese title, and asks for a title when there is none", async () => {
    renderAdvice({ zh: "无线耳机" });
    fireEvent.click(screen.getByTestId("b"));
    await waitFor(() => expect(api.meliCategory.predictMeliCategory).toHaveBeenCalledWith({ site: 1, title: "无线耳机", limit: 5 }));
    cleanup();
    renderAdvice(null);
    fireEvent.click(screen.getByTestId("b"));
    expect(useToastStore.getState().toasts.map((t) => t.message)).toContain("请先填写标题");
  });
});
