// @vitest-environment happy-dom
// Pure parts of the product list: the URL state, the bulk edits' bodies (ids vs filter, checked against the contract),
// the variant grid model ↔ variantModel, the editor's save body, and the export's file name.
import { describe, expect, it } from "vitest";
import { ProductStatus, Site } from "#shared/contract/enums.ts";
import {
  batchUpdateProductCategoryInput,
  batchUpdateProductPriceInput,
  batchUpdateProductSamePriceInput,
  batchUpdateProductStatusInput,
  batchUpdateProductWeightInput,
  cancelLinkProductLabelInput,
  createOrUpdateProductInput,
  linkProductLabelInput,
  replaceKeywordInput,
  translateProductInput,
  type ProductDetail,
  type VariantModel,
} from "#shared/contract/product.ts";
import {
  adjustPriceBody,
  adjustPriceForm,
  ANY_LABEL,
  categoryBody,
  categoryForm,
  labelBody,
  labelForm,
  replaceBody,
  replaceForm,
  samePriceBody,
  samePriceForm,
  statusBody,
  statusForm,
  translateBody,
  translateForm,
  weightBody,
  weightForm,
} from "./bulk-forms.ts";
import { countText, selectionBody, type BulkTarget } from "./bulk-target.ts";
import { fileNameOf } from "../../lib/export-download.ts";
import { editorValuesOf, productEditorForm, saveBodyOf } from "./product-editor-schema.ts";
import { editKindLabel, productStatusLabel } from "./product-names.ts";
import { defaultListState, hasListFilter, readListState, writeListState } from "../../components/list/use-list-url-state.ts";
import { productListSchema, sourceIdsOf, toProductFilter, toProductQuery, type ProductListState } from "./search-params.ts";
import {
  addOption,
  addValue,
  combinations,
  gridOf,
  gridProblems,
  removeOption,
  removeValue,
  renameValue,
  setCell,
  toVariantModelInput,
} from "./variant-model.ts";

const LABEL = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
const USER = "8c1f3c3e-5d0e-4a55-9b5e-2f1b7a9d0c11";
const P1 = "11111111-2222-4333-8444-555555555555";
const P2 = "66666666-7777-4888-9999-aaaaaaaaaaaa";

describe("product list search params", () => {
  const full: ProductListState = {
    q: "蓝牙耳机",
    sku: "SKU-1",
    src: "6101,6102",
    status: String(ProductStatus.Ready),
    platform: "1",
    label: LABEL,
    user: USER,
    cur: "CNY",
    pmin: "10",
    pmax: "99.5",
    wmin: "100",
    wmax: "2000",
    site: String(Site.mx),
    cate: "MLM1055",
    from: "2024-05-01",
    to: "2024-05-31",
    infr: "yes",
    page: 3,
    size: 500,
  };
  const read = (params: URLSearchParams) => readListState(productListSchema, params);
  const write = (params: URLSearchParams, state: ProductListState) => writeListState(productListSchema, params, state);
  const empty = defaultListState(productListSchema);

  it("round-trips every filter and the paging through the URL", () => {
    const params = write(new URLSearchParams(), full);
    expect(read(params)).toEqual(full);
    // keys the page does not own are kept
    const withOther = write(new URLSearchParams("tab=x"), full);
    expect(withOther.get("tab")).toBe("x");
  });

  it("leaves defaults out of the URL and reads broken values as defaults", () => {
    expect(empty.size).toBe(50);
    expect(write(new URLSearchParams(), empty).toString()).toBe("");
    const s = read(
      new URLSearchParams(
        "status=9&platform=x&label=nope&user=1&pmin=abc&wmax=-1&site=7&from=2024-02-30&infr=maybe&page=-2&size=33&cur=usdx",
      ),
    );
    expect(s).toEqual(empty);
    expect(hasListFilter(productListSchema, s)).toBe(false);
    expect(hasListFilter(productListSchema, { ...s, wmin: "5" })).toBe(true);
    expect(hasListFilter(productListSchema, { ...s, page: 2, size: 100 })).toBe(false);
  });

  it("writes what it reads back: source ids comma-separated, the currency in capitals", () => {
    const params = write(new URLSearchParams(), { ...empty, src: " 1 2,2\n3", cur: "usd", q: " 耳机 " });
    expect(params.toString()).toBe(new URLSearchParams({ q: "耳机", src: "1,2,3", cur: "USD" }).toString());
  });

  it("turns the state into the contract's filter (only what is set; end day inclusive)", () => {
    const f = toProductFilter(full);
    expect(f).toMatchObject({
      title: "蓝牙耳机",
      sku: "SKU-1",
      sourceIds: ["6101", "6102"],
      status: ProductStatus.Ready,
      platformType: 1,
      labelId: LABEL,
      userId: USER,
      currrency: "CNY",
      minPrice: 10,
      maxPrice: 99.5,
      minWeight: 100,
      maxWeight: 2000,
      site: Site.mx,
      cateId: "MLM1055",
      hasInfringement: true,
    });
    expect(new Date(f.startTime!).getTime()).toBe(new Date(2024, 4, 1).getTime());
    expect(new Date(f.endTime!).getTime()).toBe(new Date(2024, 5, 1).getTime());
    expect(toProductFilter(empty)).toEqual({});
    expect(toProductFilter({ ...full, infr: "no" }).hasInfringement).toBe(false);
    expect(toProductQuery(full)).toMatchObject({ skipCount: 1000, maxResultCount: 500, sorting: "creationTime desc" });
  });

  it("reads source ids split by spaces, commas and lines, each once", () => {
    expect(sourceIdsOf(" 1, 2，3\n4 2 ")).toEqual(["1", "2", "3", "4"]);
    expect(sourceIdsOf("")).toEqual([]);
  });
});

describe("bulk edit bodies", () => {
  const ids: BulkTarget = { kind: "ids", ids: [P1, P2] };
  const filter: BulkTarget = { kind: "filter", filter: { title: "耳机", status: 2 } };

  it("select by productIds or by the filter, never both", () => {
    expect(selectionBody(ids)).toEqual({ productIds: [P1, P2] });
    expect(selectionBody(filter)).toEqual({ filter: { title: "耳机", status: 2 } });
    const v = samePriceForm.parse({ fixPrice: "199", rate: "", tinyPrice: "0.99" });
    expect(samePriceBody(ids, v)).toEqual({ fixPrice: 199, tinyPrice: 0.99, productIds: [P1, P2] });
    expect(samePriceBody(filter, v)).toEqual({ fixPrice: 199, tinyPrice: 0.99, filter: { title: "耳机", status: 2 } });
    for (const t of [ids, filter]) expect(batchUpdateProductSamePriceInput.safeParse(samePriceBody(t, v)).success).toBe(true);
  });

  it("builds every dialog's body so the contract accepts it", () => {
    const cases: [{ safeParse: (v: unknown) => { success: boolean } }, (t: BulkTarget) => unknown][] = [
      [batchUpdateProductPriceInput, (t) => adjustPriceBody(t, adjustPriceForm.parse({ rate: "1.2", add: "-5", tinyPrice: "" }))],
      [
        batchUpdateProductWeightInput,
        (t) => weightBody(t, weightForm.parse({ mode: "fixed", weight: "350", minWeight: "", maxWeight: "", size: "" })),
      ],
      [
        batchUpdateProductWeightInput,
        (t) => weightBody(t, weightForm.parse({ mode: "random", weight: "", minWeight: "100", maxWeight: "300", size: "30 x 20 x 10" })),
      ],
      [batchUpdateProductStatusInput, (t) => statusBody(t, statusForm.parse({ status: "3" }))],
      [linkProductLabelInput, (t) => labelBody(t, labelForm.parse({ op: "link", labelId: LABEL })).body],
      [cancelLinkProductLabelInput, (t) => labelBody(t, labelForm.parse({ op: "cancel", labelId: ANY_LABEL })).body],
      [batchUpdateProductCategoryInput, (t) => categoryBody(t, categoryForm.parse({ cateId: "MLM1055", site: "1", categoryName: "" }))],
      [
        replaceKeywordInput,
        (t) =>
          replaceBody(
            t,
            replaceForm.parse({ keyword: "Nike", replaceText: "", isReplaceTitle: true, isReplaceDescription: true, isIgnoreCase: true }),
          ),
      ],
      [
        translateProductInput,
        (t) => translateBody(t, translateForm.parse({ from: "auto", to: "pt", isContainsDescription: true, provider: "default" })),
      ],
    ];
    for (const [schema, build] of cases) {
      for (const t of [ids, filter]) {
        const body = build(t) as Record<string, unknown>;
        expect(schema.safeParse(body).success, JSON.stringify(body)).toBe(true);
        expect("productIds" in body).toBe(t.kind === "ids");
        expect("filter" in body).toBe(t.kind === "filter");
      }
    }
  });

  it("reads each dialog's fields with its defaults and Chinese messages", () => {
    expect(adjustPriceBody(ids, adjustPriceForm.parse({ rate: "2", add: "", tinyPrice: "" }))).toEqual({
      rate: 2,
      price: 0,
      productIds: [P1, P2],
    });
    expect(weightBody(ids, weightForm.parse({ mode: "random", weight: "9", minWeight: "1", maxWeight: "2", size: "" }))).toEqual({
      weight: null,
      isRandom: true,
      minRandomWeight: 1,
      maxRandomWeight: 2,
      productIds: [P1, P2],
    });
    expect(labelBody(ids, labelForm.parse({ op: "cancel", labelId: LABEL })).body.labelId).toBe(LABEL);
    expect(labelBody(ids, labelForm.parse({ op: "cancel", labelId: ANY_LABEL })).body.labelId).toBeNull();
    expect(translateBody(ids, translateForm.parse({ from: "zh", to: "es", isContainsDescription: false, provider: "2" }))).toMatchObject({
      from: "zh",
      to: "es",
      thirdPlatformType: 2,
    });
    const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message) ?? [];
    expect(messages(samePriceForm.safeParse({ fixPrice: "", rate: "", tinyPrice: "" }))).toContain("请输入价格");
    expect(messages(samePriceForm.safeParse({ fixPrice: "1", rate: "200", tinyPrice: "1" }))).toEqual(
      expect.arrayContaining(["倍率应在 0.01 到 100 之间", "尾数应在 0 到 0.99 之间"]),
    );
    expect(messages(weightForm.safeParse({ mode: "fixed", weight: "", minWeight: "", maxWeight: "", size: "" }))).toEqual([
      "请输入重量或尺寸",
    ]);
    expect(messages(weightForm.safeParse({ mode: "random", weight: "", minWeight: "5", maxWeight: "1", size: "" }))).toEqual([
      "最大重量不能小于最小重量",
    ]);
    expect(messages(weightForm.safeParse({ mode: "fixed", weight: "", minWeight: "", maxWeight: "", size: "30x20" }))[0]).toMatch(
      /长x宽x高/,
    );
    expect(messages(labelForm.safeParse({ op: "link", labelId: "" }))).toEqual(["请选择标签"]);
    expect(messages(translateForm.safeParse({ from: "es", to: "es", isContainsDescription: false, provider: "default" }))).toEqual([
      "目标语言不能与源语言相同",
    ]);
    expect(
      messages(
        replaceForm.safeParse({ keyword: " ", replaceText: "", isReplaceTitle: false, isReplaceDescription: false, isIgnoreCase: true }),
      ),
    ).toEqual(["请输入要查找的内容", "请至少选择标题或描述"]);
  });

  it("shows capped counts with a plus", () => {
    expect(countText(10000, true)).toBe("10,000+");
    expect(countText(12)).toBe("12");
  });
});

describe("variant grid model", () => {
  const model: VariantModel = {
    headers: [
      { vairantKey: "颜色", vairantValues: ["红", "蓝"] },
      { vairantKey: "尺码", vairantValues: ["S", "M"] },
    ],
    items: [
      { kvId: "红;S", values: ["红", "S"], price: "10.50", stock: 5, sku: "R-S", images: ["https://img.example/r.jpg"] },
      { kvId: "红;M", values: [], price: "11", stock: null, sku: null, images: [] },
      { kvId: "蓝;S", values: ["蓝", "S"], price: null, stock: 0, sku: "B-S", images: [] },
    ],
  };

  it("turns variantModel into the grid and back without adding or losing a variant", () => {
    const grid = gridOf(model);
    expect(grid.options).toEqual([
      { name: "颜色", values: ["红", "蓝"] },
      { name: "尺码", values: ["S", "M"] },
    ]);
    expect(grid.rows.map((r) => [r.values.join(";"), r.price, r.stock, r.sku])).toEqual([
      ["红;S", "10.5", "5", "R-S"],
      ["红;M", "11", "", ""],
      ["蓝;S", "", "0", "B-S"],
    ]);
    const input = toVariantModelInput(grid);
    expect(input).toEqual({
      headers: model.headers,
      items: [
        { values: ["红", "S"], price: 10.5, stock: 5, sku: "R-S", images: ["https://img.example/r.jpg"] },
        { values: ["红", "M"], price: 11, stock: null, sku: null, images: [] },
        { values: ["蓝", "S"], price: null, stock: 0, sku: "B-S", images: [] },
      ],
    });
    expect(createOrUpdateProductInput.safeParse({ variantModel: input }).success).toBe(true);
    expect(toVariantModelInput(gridOf({ headers: [], items: [] }))).toEqual({ headers: [], items: [] });
  });

  it("edits one variant's price and keeps the rest", () => {
    const grid = setCell(gridOf(model), 1, "price", "12.99");
    expect(toVariantModelInput(grid).items.map((i) => i.price)).toEqual([10.5, 12.99, null]);
  });

  it("adds, renames and removes values and options, keeping each surviving variant's data", () => {
    let g = gridOf(model);
    g = addValue(g, 1, "L");
    expect(g.rows.map((r) => r.values.join(";"))).toEqual(["红;S", "红;M", "蓝;S", "红;L", "蓝;L"]);
    g = renameValue(g, 0, 0, "红色");
    expect(g.rows[0]).toMatchObject({ values: ["红色", "S"], price: "10.5", sku: "R-S" });
    g = removeValue(g, 0, 1);
    expect(g.rows.map((r) => r.values.join(";"))).toEqual(["红色;S", "红色;M", "红色;L"]);
    g = removeOption(g, 1);
    expect(g.rows).toHaveLength(1);
    expect(g.rows[0]).toMatchObject({ values: ["红色"], price: "10.5" });
    // A new option's first value joins every row; its next value adds combinations.
    g = addOption(g, "材质");
    expect(toVariantModelInput(g).headers).toEqual([{ vairantKey: "颜色", vairantValues: ["红色"] }]);
    g = addValue(g, 1, "棉");
    expect(g.rows).toEqual([expect.objectContaining({ values: ["红色", "棉"], price: "10.5" })]);
    g = addValue(g, 1, "麻");
    expect(g.rows.map((r) => r.values.join(";"))).toEqual(["红色;棉", "红色;麻"]);
    expect(combinations(g.options)).toEqual([
      ["红色", "棉"],
      ["红色", "麻"],
    ]);
    // Removing every value leaves no variants.
    g = removeValue(removeValue(removeValue(g, 1, 1), 1, 0), 0, 0);
    expect(g.rows).toEqual([]);
    expect(toVariantModelInput(g)).toEqual({ headers: [], items: [] });
  });

  it("names what keeps the grid from being saved", () => {
    let g = addValue(addOption(gridOf(null)), 0, "红");
    expect(gridProblems(g)).toEqual(["第 1 个规格请填写规格名"]);
    g = setCell(setCell(addValue(addOption(gridOf(null), "颜色"), 0, "红"), 0, "price", "abc"), 0, "stock", "1.5");
    // A variant's cells follow the product's own rules and messages (shared/publish/product-form-rules.ts).
    expect(gridProblems(g)).toEqual(["第 1 行：价格请输入不小于0的数字，最多2位小数", "第 1 行：库存请输入不小于0的整数"]);
    g = setCell(setCell(g, 0, "price", "2000000000"), 0, "stock", "12");
    expect(gridProblems(g)).toEqual(["第 1 行：价格应在 0 到 1000000000 之间"]);
  });
});

describe("product editor", () => {
  const detail: ProductDetail = {
    id: P1,
    platformType: 1,
    status: 1,
    country: "CN",
    image: "https://img.example/2.jpg",
    images: ["https://img.example/1.jpg", "https://img.example/2.jpg"],
    sourceUrl: "https://detail.1688.com/offer/1.html",
    currency: "CNY",
    price: "12.50",
    title: { zh: "蓝牙耳机", fr: "Écouteurs" },
    titleText: "蓝牙耳机",
    creationTime: "2024-05-01T00:00:00Z",
    owner: "demo",
    userId: USER,
    labelId: null,
    labelName: null,
    infringementWord: null,
    logs: [],
    sku: "SKU-1",
    weight: "350.00",
    stock: 10,
    site: null,
    cateId: null,
    variants: [],
    variantModel: { headers: [], items: [] },
    attributes: [{ name: "材质", value: "塑料" }],
    brand: null,
    size: "10x5x3",
    description: { zh: "<p>好</p>" },
    cateInfo: null,
    categoryName: null,
    lastModificationTime: null,
    videoUrl: null,
    profit: "20.00",
    itemId: "1",
    concurrencyStamp: "stamp-1",
  };

  it("shows a product and saves it back with its id and concurrency stamp", () => {
    const values = editorValuesOf(detail);
    expect(Object.keys(values.titles)).toEqual(["zh", "es", "pt", "en", "fr"]);
    expect(values).toMatchObject({ price: "12.5", weight: "350", profit: "20", mainImage: "https://img.example/2.jpg" });
    const body = saveBodyOf(
      detail,
      productEditorForm.parse({ ...values, titles: { ...values.titles, es: " Auriculares " } }),
      gridOf(null),
    );
    expect(body).toMatchObject({
      id: P1,
      concurrencyStamp: "stamp-1",
      title: { zh: "蓝牙耳机", es: "Auriculares", fr: "Écouteurs" },
      description: { zh: "<p>好</p>" },
      price: 12.5,
      currency: "CNY",
      stock: 10,
      weight: 350,
      profit: 20,
      image: "https://img.example/2.jpg",
      images: ["https://img.example/1.jpg", "https://img.example/2.jpg"],
      attributes: [{ name: "材质", value: "塑料" }],
      variantModel: { headers: [], items: [] },
    });
    expect(createOrUpdateProductInput.safeParse(body).success).toBe(true);
  });

  it("creates without an id and refuses a form without any title", () => {
    const values = editorValuesOf(null);
    expect(productEditorForm.safeParse(values).error?.issues.map((i) => i.message)).toEqual(["请至少填写一种语言的标题"]);
    const body = saveBodyOf(null, productEditorForm.parse({ ...values, titles: { ...values.titles, zh: "新商品" } }), gridOf(null));
    expect(body.id).toBeUndefined();
    expect(body.concurrencyStamp).toBeUndefined();
    expect(createOrUpdateProductInput.safeParse(body).success).toBe(true);
  });

  it("saves the category picked in the tree-select with its full name, keeping attribute values only for the same one", () => {
    const attrs = [{ nameId: "BRAND", name: "Marca", valueId: null, value: "Acme" }];
    const withCategory = {
      ...detail,
      site: 1,
      cateId: "MLM1055",
      cateInfo: { cateId: "MLM1055", site: 1, attrs },
      categoryName: "Celulares > Fundas",
    };
    const values = editorValuesOf(withCategory);
    expect(values).toMatchObject({ site: "1", cateId: "MLM1055", categoryName: "Celulares > Fundas" });
    const same = saveBodyOf(withCategory, productEditorForm.parse(values), gridOf(null));
    expect(same).toMatchObject({ cateInfo: { cateId: "MLM1055", site: 1, attrs }, categoryName: "Celulares > Fundas" });
    const moved = saveBodyOf(
      withCategory,
      productEditorForm.parse({ ...values, site: "2", cateId: "MLB200", categoryName: "Casa > Cozinha" }),
      gridOf(null),
    );
    expect(moved).toMatchObject({ cateInfo: { cateId: "MLB200", site: 2, attrs: [] }, categoryName: "Casa > Cozinha" });
    expect(createOrUpdateProductInput.safeParse(moved).success).toBe(true);
    const cleared = saveBodyOf(withCategory, productEditorForm.parse({ ...values, cateId: "", categoryName: "" }), gridOf(null));
    expect(cleared).toMatchObject({ cateInfo: null, categoryName: null });
    expect(editorValuesOf(null)).toMatchObject({ site: "", cateId: "", categoryName: "" });
  });
});

describe("names", () => {
  it("names statuses and bulk edit kinds in Chinese", () => {
    expect([1, 2, 3, 4].map(productStatusLabel)).toEqual(["未编辑", "待发布", "已发布", "已归档"]);
    expect(editKindLabel("BatchUpdateProductPrice")).toBe("调整价格");
    expect(editKindLabel("Something")).toBe("Something");
  });

  it("reads the export's file name from Content-Disposition", () => {
    expect(fileNameOf(`attachment; filename="a.xlsx"; filename*=UTF-8''%E5%95%86%E5%93%81.xlsx`)).toBe("商品.xlsx");
    expect(fileNameOf(`attachment; filename="products.xlsx"`)).toBe("products.xlsx");
    expect(fileNameOf(null)).toBeNull();
  });
});
