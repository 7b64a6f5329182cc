// The panel's form: the console editor's rules with their Chinese messages, and the CreateOrUpdateProduct body it
// sends (the product's stamp, the main image, the category's attribute values, the variants' prices and stock).
import { describe, expect, it } from "vitest";
import type { CategoryAttribute } from "#shared/contract/category.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import { moveImage, problemsOf, saveBodyOf, saveProductInputCheck, translateSource, translateTargets, valuesOf } from "./panel-form.ts";

const detail = {
  id: "3f1c0c4e-8a51-4a2b-9b7e-1f2a3b4c5d6e",
  concurrencyStamp: "s1",
  title: { zh: "纯棉T恤" },
  price: "23.50",
  currency: "CNY",
  stock: 10,
  weight: "205",
  size: null,
  image: "https://img.example.com/b.jpg",
  images: ["https://img.example.com/a.jpg", "https://img.example.com/b.jpg"],
  cateInfo: { cateId: "CBT1", site: 5, attrs: [{ nameId: "BRAND", name: "Brand", valueId: null, value: "Acme" }] },
  categoryName: "T-Shirts",
  site: 5,
  cateId: "CBT1",
  variantModel: {
    headers: [{ vairantKey: "颜色", vairantValues: ["白", "黑"] }],
    items: [
      { kvId: "白", values: ["白"], price: "23.5", stock: 5, sku: "W", images: [] },
      { kvId: "黑", values: ["黑"], price: "24", stock: 5, sku: "B", images: [] },
    ],
  },
} as unknown as ProductDetail;

const brand = { id: "BRAND", name: "Brand" } as CategoryAttribute;

describe("panel form", () => {
  it("reads the product into text fields, the main image kept", () => {
    const v = valuesOf(detail);
    expect(v).toMatchObject({ price: "23.5", stock: "10", weight: "205", size: "", mainImage: "https://img.example.com/b.jpg", site: "5" });
    expect(v.titles).toEqual({ zh: "纯棉T恤", es: "", pt: "", en: "" });
    expect(v.attrs).toEqual({ BRAND: { valueId: null, value: "Acme" } });
    expect(v.variants.map((r) => [r.price, r.stock])).toEqual([
      ["23.5", "5"],
      ["24", "5"],
    ]);
  });

  it("refuses what the console editor refuses, with its messages", () => {
    const v = valuesOf(detail);
    expect(problemsOf(v)).toEqual({});
    expect(problemsOf({ ...v, titles: { zh: " ", es: "" } })).toEqual({ titles: "请至少填写一种语言的标题" });
    expect(problemsOf({ ...v, price: "-1", size: "30x20", stock: "1.5" })).toEqual({
      price: "价格请输入不小于0的数字，最多2位小数",
      size: "尺寸格式为 长x宽x高（厘米），如 30x20x10",
      stock: "库存请输入不小于0的整数",
    });
    expect(problemsOf({ ...v, variants: [{ ...v.variants[0], price: "abc" }, v.variants[1]] })).toEqual({
      "variants.0.price": "价格请输入不小于0的数字，最多2位小数",
    });
  });

  it("builds CreateOrUpdateProduct's body with the stamp read, accepted by the server's contract", () => {
    const v = valuesOf(detail);
    const body = saveBodyOf(
      detail,
      {
        ...v,
        price: "59.9",
        size: "30 X 20 x 3",
        titles: { ...v.titles, es: "Camiseta" },
        images: moveImage(v.images, 1, -1),
        mainImage: "https://img.example.com/a.jpg",
        variants: [{ ...v.variants[0], price: "30" }, v.variants[1]],
      },
      [brand],
    );
    expect(body).toMatchObject({
      id: detail.id,
      concurrencyStamp: "s1",
      title: { zh: "纯棉T恤", es: "Camiseta" },
      price: 59.9,
      size: "30x20x3",
      image: "https://img.example.com/a.jpg",
      images: ["https://img.example.com/b.jpg", "https://img.example.com/a.jpg"],
      cateInfo: { cateId: "CBT1", site: 5, attrs: [{ nameId: "BRAND", name: "Brand", valueId: null, value: "Acme" }] },
      variantModel: {
        items: [
          { values: ["白"], price: 30, stock: 5 },
          { values: ["黑"], price: 24 },
        ],
      },
    });
    expect(saveProductInputCheck(body).success).toBe(true);
    // Another category starts without the old one's values; no category sends none.
    expect(saveBodyOf(detail, { ...v, cateId: "CBT2", attrs: {} }).cateInfo).toEqual({ cateId: "CBT2", site: 5, attrs: [] });
    expect(saveBodyOf(detail, { ...v, site: "", cateId: "" })).toMatchObject({ cateInfo: null, categoryName: null });
  });

  it("moves images within bounds and picks what one click translates", () => {
    expect(moveImage(["a", "b", "c"], 0, -1)).toEqual(["a", "b", "c"]);
    expect(moveImage(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    expect(translateTargets({ zh: "杯", es: "Taza" })).toEqual(["pt", "en"]);
    expect(translateTargets({ zh: "杯", es: "a", pt: "b", en: "c" })).toEqual(["es", "pt", "en"]);
    expect(translateSource({ zh: " ", en: "Cup" })).toBe("en");
    expect(translateSource({ zh: "杯", en: "Cup" })).toBe("zh");
    expect(translateSource({ zh: "" })).toBeNull();
  });
});
