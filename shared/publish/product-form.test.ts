// The product editor's model, one for the console's editor and the extension's side panel: a product's fields as the
// form's text, the typed values checked by the same rules, and the body built the same way.
import { describe, expect, it } from "vitest";
import type { ProductDetail } from "../contract/product.ts";
import {
  categoryBodyOf,
  categoryValuesOf,
  editLanguagesOf,
  imagesOf,
  mainImageAmong,
  numberTextOf,
  sameCategory,
  textsIn,
  titleBodyOf,
} from "./product-form.ts";
import { currencyText, problemOf, productFields, titlesText, variantCells } from "./product-form-rules.ts";

const attrs = [{ nameId: "BRAND", name: "Marca", valueId: null, value: "Acme" }];
const product = {
  images: ["a.jpg", "b.jpg"],
  image: "c.jpg",
  cateInfo: { site: 1, cateId: "MLM1", attrs },
  site: 2,
  cateId: "MLB9",
  categoryName: "Casa",
} as unknown as ProductDetail;

describe("a product as the form's values", () => {
  it("lists the edit languages first, then the product's others once", () => {
    expect(editLanguagesOf()).toEqual(["zh", "es", "pt", "en"]);
    expect(editLanguagesOf({ fr: "x", es: "y" }, { fr: "z", de: "w" })).toEqual(["zh", "es", "pt", "en", "fr", "de"]);
    expect(textsIn(["zh", "es"], { es: "Hola" })).toEqual({ zh: "", es: "Hola" });
  });

  it("shows numbers as typed text, none as blank", () => {
    expect(numberTextOf(null)).toBe("");
    expect(numberTextOf("12.50")).toBe("12.5");
    expect(numberTextOf(3)).toBe("3");
  });

  it("takes the main image only when it is among the images", () => {
    expect(imagesOf(product)).toEqual(["a.jpg", "b.jpg"]);
    expect(imagesOf({ images: [], image: "c.jpg" })).toEqual(["c.jpg"]);
    expect(mainImageAmong(imagesOf(product), product.image)).toBe("a.jpg");
    expect(mainImageAmong(["a.jpg", "b.jpg"], "b.jpg")).toBe("b.jpg");
    expect(mainImageAmong([], "b.jpg")).toBeNull();
  });

  it("reads the category chosen for publishing over the collected one", () => {
    expect(categoryValuesOf(product)).toEqual({ site: "1", cateId: "MLM1", categoryName: "Casa" });
    expect(categoryValuesOf(null)).toEqual({ site: "", cateId: "", categoryName: "" });
  });
});

describe("the form's values as the body", () => {
  it("sends titles trimmed, the blank ones left out", () => {
    expect(titleBodyOf({ zh: " 台灯 ", es: "  ", en: "" })).toEqual({ zh: "台灯" });
  });

  it("sends a category once a site and a category are chosen, its attribute values only while it stays", () => {
    const same = { site: "1", cateId: "MLM1", categoryName: "Casa" };
    expect(sameCategory(product, same)).toBe(true);
    expect(categoryBodyOf(same, attrs)).toEqual({ cateInfo: { site: 1, cateId: "MLM1", attrs }, categoryName: "Casa" });
    expect(sameCategory(product, { ...same, site: "2" })).toBe(false);
    expect(categoryBodyOf({ ...same, cateId: "" }, attrs)).toEqual({ cateInfo: null, categoryName: null });
    expect(categoryBodyOf({ ...same, categoryName: "" }, [])).toEqual({
      cateInfo: { site: 1, cateId: "MLM1", attrs: [] },
      categoryName: null,
    });
  });
});

describe("the product form's rules", () => {
  it("asks for at least one title and a three-letter currency, upper-cased", () => {
    expect(problemOf(titlesText, { zh: " ", es: "" })).toBe("请至少填写一种语言的标题");
    expect(currencyText.parse(" usd ")).toBe("USD");
    expect(currencyText.parse("")).toBeNull();
    expect(problemOf(currencyText, "US")).toBe("币种为3位字母代码，如 CNY、USD");
  });

  it("checks a variant's cells with the product's own price and stock rules", () => {
    expect(variantCells.price).toBe(productFields.price);
    expect(variantCells.stock).toBe(productFields.stock);
    expect(problemOf(variantCells.price, "")).toBeNull();
    expect(problemOf(variantCells.price, "1.234")).toBe("价格请输入不小于0的数字，最多2位小数");
    expect(problemOf(variantCells.stock, "1.5")).toBe("库存请输入不小于0的整数");
    expect(problemOf(variantCells.sku, "x".repeat(129))).toBe("SKU最多128个字符");
  });
});
