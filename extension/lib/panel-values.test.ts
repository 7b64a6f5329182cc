// The panel's values before the product is stored: the collected page's core as the form's values, and the seller's
// edits of that core carried over to the stored product when it arrives.
import { describe, expect, it } from "vitest";
import type { ProductDetail } from "#shared/contract/product.ts";
import { coreOf, coreValues, moveImage, valuesOf, withEdits } from "./panel-values.ts";

const page = {
  platform: "1688",
  itemId: "712345678901",
  title: { zh: "纯棉T恤" },
  images: ["https://img.example.com/a.jpg", "https://img.example.com/b.jpg", "https://img.example.com/a.jpg"],
  price: 23.5,
  currency: "CNY",
  stock: 3250,
};

const stored = {
  id: "3f1c0c4e-8a51-4a2b-9b7e-1f2a3b4c5d6e",
  concurrencyStamp: "s1",
  title: { zh: "纯棉T恤" },
  price: "23.50",
  currency: "CNY",
  stock: 3250,
  weight: "205",
  size: null,
  image: "https://img.example.com/a.jpg",
  images: ["https://img.example.com/a.jpg", "https://img.example.com/b.jpg"],
  cateInfo: null,
  categoryName: null,
  site: null,
  cateId: null,
  variantModel: { headers: [], items: [{ kvId: "白", values: ["白"], price: "23.5", stock: 5, sku: "W", images: [] }] },
} as unknown as ProductDetail;

describe("the collected page's core", () => {
  it("keeps the page's images once each, its titles, price, currency and stock", () => {
    const core = coreOf(page);
    expect(core.images).toEqual(["https://img.example.com/a.jpg", "https://img.example.com/b.jpg"]);
    expect(coreOf({ ...page, price: undefined, currency: undefined, stock: undefined })).toMatchObject({
      price: null,
      currency: null,
      stock: null,
    });
    const v = coreValues(core);
    expect(v).toMatchObject({ titles: { zh: "纯棉T恤", es: "", pt: "", en: "" }, price: "23.5", currency: "CNY", stock: "3250" });
    expect(v.mainImage).toBe("https://img.example.com/a.jpg");
    expect(v.variants).toEqual([]);
  });

  it("without edits the stored product's values replace the core's", () => {
    const shown = coreValues(coreOf(page));
    expect(withEdits(shown, shown, valuesOf(stored))).toEqual(valuesOf(stored));
  });

  it("the fields the seller edited keep the seller's values; the others, and the variants, come from the stored product", () => {
    const shown = coreValues(coreOf(page));
    const edited = {
      ...shown,
      price: "59.9",
      titles: { ...shown.titles, es: "Camiseta" },
      images: moveImage(shown.images, 1, -1),
      mainImage: "https://img.example.com/b.jpg",
    };
    const next = withEdits(shown, edited, { ...valuesOf(stored), titles: { zh: "纯棉T恤（已存）", es: "", pt: "", en: "" } });
    expect(next.price).toBe("59.9");
    // Per language: the one typed in keeps the seller's text, the others are the stored ones.
    expect(next.titles).toEqual({ zh: "纯棉T恤（已存）", es: "Camiseta", pt: "", en: "" });
    expect(next.images).toEqual(["https://img.example.com/b.jpg", "https://img.example.com/a.jpg"]);
    expect(next.mainImage).toBe("https://img.example.com/b.jpg");
    expect(next).toMatchObject({ weight: "205", stock: "3250", currency: "CNY" });
    expect(next.variants).toHaveLength(1);
  });

  it("a main image the stored product lacks falls back to its first image", () => {
    const shown = coreValues(coreOf(page));
    const edited = { ...shown, mainImage: "https://img.example.com/gone.jpg" };
    expect(withEdits(shown, edited, valuesOf(stored)).mainImage).toBe("https://img.example.com/a.jpg");
  });
});
