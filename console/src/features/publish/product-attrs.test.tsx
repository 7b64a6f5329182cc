// @vitest-environment happy-dom
// Issue 28 point 5: 填写属性 on a batch published in each product's own category (no category chosen above) opens
// that product's category attributes, marks the missing one, saves them on the product with UpdateProductAttr (its
// other values kept) and asks the screen to check again; with a category chosen above it still scrolls to the form.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState, type ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CategoryAttribute } from "#shared/contract/category.ts";
import type { PreflightPairView } from "#shared/contract/publish.ts";
import { useToastStore } from "#shared/ui/toast.tsx";
import { PreviewTable } from "./preview-table.tsx";
import { ProductAttrsDialog, mergedAttrs, productAttrFieldId, type AttrsTarget } from "./product-attrs-dialog.tsx";
import { previewRows } from "./publish-names.ts";

const attribute = (over: Partial<CategoryAttribute>): CategoryAttribute => ({
  id: "MODEL",
  modelType: 0,
  isRequired: true,
  name: "Modelo",
  alias: null,
  zh: "型号",
  values: [],
  units: [],
  defaultUnit: null,
  valueType: "string",
  valueMaxLength: 255,
  tags: ["required"],
  hierarchy: null,
  relevance: null,
  groupId: null,
  groupName: null,
  ...over,
});

const pair = (productId: string, cateId: string): PreflightPairView => ({
  productId,
  productTitle: `商品${productId}`,
  image: null,
  site: 1,
  cateId,
  cateName: null,
  ok: false,
  title: null,
  problems: [{ code: "attribute.required", severity: "error", field: "MODEL", message: "缺少必填属性「Modelo」", fix: "attribute:MODEL" }],
  price: null,
});

type Answer = (url: URL, init: RequestInit) => unknown;
let answers: Record<string, Answer>;
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(String(input), "http://erp.test");
  const answer = answers[url.pathname];
  if (!answer) return new Response(JSON.stringify({ error: { message: "no" } }), { status: 404 });
  return new Response(JSON.stringify({ result: answer(url, init ?? {}) }), {
    status: 200,
    headers: { "content-type": "application/json" },
  });
});

const productB = {
  id: "p-b",
  categoryName: "Bocinas",
  cateInfo: { site: 1, cateId: "MLM2", attrs: [{ nameId: "BRAND", name: "Marca", valueId: null, value: "Acme" }] },
};

/** The publish screen's part: the preview, and the dialog its 填写属性 opens. */
function Screen({ formCategories, onSaved }: { formCategories?: Partial<Record<number, string>>; onSaved: () => void }) {
  const [target, setTarget] = useState<AttrsTarget | null>(null);
  return (
    <>
      <PreviewTable rows={previewRows([pair("p-b", "MLM2")])} formCategories={formCategories} onFixAttributes={setTarget} />
      <ProductAttrsDialog target={target} onClose={() => setTarget(null)} onSaved={onSaved} />
    </>
  );
}
function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter>{children}</MemoryRouter>
    </QueryClientProvider>
  );
}

beforeEach(() => {
  answers = {};
  fetchMock.mockClear();
  vi.stubGlobal("fetch", fetchMock);
  useToastStore.setState({ toasts: [] });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("填写属性 on a product published in its own category", () => {
  it("opens the product's category attributes, saves them on the product and checks again", async () => {
    answers["/api/Product/GetProductById"] = (u) => (u.searchParams.get("id") === "p-b" ? productB : null);
    answers["/api/MeliCategory/GetAttributes"] = (u) => ({
      site: Number(u.searchParams.get("site")),
      cateId: u.searchParams.get("cateId"),
      fullName: "Bocinas",
      isLeaf: true,
      variantKeys: [],
      syncTime: null,
      attributes: [attribute({}), attribute({ id: "COLOR", name: "Color", zh: "颜色", isRequired: false, tags: ["conditional_required"] })],
    });
    answers["/api/Product/UpdateProductAttr"] = (_u, init) => ({
      ...productB,
      cateInfo: { ...productB.cateInfo, ...JSON.parse(String(init.body)) },
    });
    const onSaved = vi.fn();
    render(wrap(<Screen onSaved={onSaved} />));

    fireEvent.click(screen.getByTestId("publish-fix-product-attribute"));
    await screen.findByTestId("publish-product-attrs-dialog");
    const model = (await screen.findByTestId(productAttrFieldId("MODEL"))) as HTMLInputElement;
    // The product's category (MLM2 on Mexico), the missing attribute first and marked.
    const attrsCall = fetchMock.mock.calls.map(([u]) => String(u)).find((u) => u.includes("GetAttributes"))!;
    expect(attrsCall).toContain("cateId=MLM2");
    expect(model.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText(/商品「商品p-b」按自己的类目刊登（Bocinas）/)).toBeTruthy();
    fireEvent.change(model, { target: { value: " X200 " } });
    fireEvent.click(screen.getByTestId("publish-product-attrs-save"));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    const [, init] = fetchMock.mock.calls.find(([u]) => String(u).includes("UpdateProductAttr"))!;
    expect(JSON.parse(String(init!.body))).toEqual({
      productId: "p-b",
      attrs: [
        { nameId: "BRAND", name: "Marca", valueId: null, value: "Acme" },
        { nameId: "MODEL", name: "Modelo", valueId: null, value: "X200" },
      ],
    });
    await waitFor(() => expect(screen.queryByTestId("publish-product-attrs-dialog")).toBeNull());
  });

  it("with a category chosen above, the link goes to the form's field instead", () => {
    render(wrap(<Screen formCategories={{ 1: "MLM2" }} onSaved={() => {}} />));
    expect(screen.queryByTestId("publish-fix-product-attribute")).toBeNull();
    expect(screen.getByTestId("publish-fix-attribute")).toBeTruthy();
  });

  it("merges the dialog's values into the product's, dropping an emptied one", () => {
    const own = [
      { nameId: "BRAND", name: "Marca", valueId: null, value: "Acme" },
      { nameId: "COLOR", name: "Color", valueId: "52049", value: "Negro" },
    ];
    expect(
      mergedAttrs(own, { COLOR: { valueId: null, valueName: " " }, MODEL: { valueId: null, valueName: "X1" } }, { MODEL: "Modelo" }),
    ).toEqual([
      { nameId: "BRAND", name: "Marca", valueId: null, value: "Acme" },
      { nameId: "MODEL", name: "Modelo", valueId: null, value: "X1" },
    ]);
  });
});
