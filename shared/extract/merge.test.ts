// Field-by-field merge and source recording.
import { describe, expect, it } from "vitest";
import { deriveFromVariants, mergeSources } from "./merge.ts";
import type { PartialProduct } from "./product.ts";

const variant = (sku: string, price?: number, extra: object = {}) => ({
  sku,
  optionValues: [],
  ...(price === undefined ? {} : { price }),
  ...extra,
});

describe("mergeSources", () => {
  it("takes each field from the first source that has it and records that source", () => {
    const { product, sources } = mergeSources([
      { source: "taobao", product: { title: { zh: "杯子" }, titleLanguage: "zh", images: [] } },
      { source: "json-ld", product: { title: { en: "Cup" }, titleLanguage: "en", images: ["https://x/1.jpg"], brand: "ACME" } },
      { source: "opengraph", product: { images: ["https://x/og.jpg"], video: "https://x/v.mp4", brand: "Other" } },
    ]);
    expect(product).toEqual({
      title: { zh: "杯子" },
      titleLanguage: "zh",
      images: ["https://x/1.jpg"],
      brand: "ACME",
      video: "https://x/v.mp4",
    });
    expect(sources).toEqual({ title: "taobao", titleLanguage: "taobao", images: "json-ld", brand: "json-ld", video: "opengraph" });
  });

  it("keeps a price with its own range and original price, and the currency of the price's source", () => {
    const { product, sources } = mergeSources([
      { source: "shein", product: { currency: "USD" } },
      { source: "json-ld", product: { price: 10, priceRange: { min: 10, max: 12 }, currency: "EUR" } },
      { source: "opengraph", product: { price: 11, originalPrice: 20, currency: "GBP" } },
    ]);
    expect(product).toMatchObject({ price: 10, priceRange: { min: 10, max: 12 }, currency: "EUR" });
    expect(product.originalPrice).toBeUndefined();
    expect(sources).toMatchObject({ price: "json-ld", priceRange: "json-ld", currency: "json-ld" });
  });

  it("falls back to another source's currency when the price's source has none", () => {
    const { product, sources } = mergeSources([
      { source: "amazon", product: { price: 24.99 } },
      { source: "opengraph", product: { currency: "USD" } },
    ]);
    expect(product.currency).toBe("USD");
    expect(sources.currency).toBe("opengraph");
  });

  it("takes options and variants together", () => {
    const options = [{ name: "Color", values: [{ id: "1", name: "Red" }] }];
    const { product, sources } = mergeSources([
      { source: "a", product: { options: [] } },
      { source: "b", product: { options, variants: [{ sku: "s1", optionValues: ["1"] }] } },
      { source: "c", product: { variants: [{ sku: "other", optionValues: [] }] } },
    ]);
    expect(product.options).toBe(options);
    expect(product.variants).toEqual([{ sku: "s1", optionValues: ["1"] }]);
    expect(sources).toEqual({ options: "b", variants: "b" });
  });

  it("an empty string, list or object is not a value", () => {
    const { sources } = mergeSources([
      { source: "a", product: { brand: "", attributes: [], shop: {} } },
      { source: "b", product: { brand: "B", attributes: [{ name: "n", value: "v" }], shop: { name: "S" } } },
    ]);
    expect(sources).toEqual({ brand: "b", attributes: "b", shop: "b" });
  });

  it("description HTML and URL come from one source", () => {
    const { product, sources } = mergeSources([
      { source: "1688", product: { descriptionUrl: "https://x/desc" } },
      { source: "json-ld", product: { descriptionHtml: "<p>x</p>" } },
    ]);
    expect(product).toEqual({ descriptionUrl: "https://x/desc" });
    expect(sources).toEqual({ descriptionUrl: "1688" });
  });
});

describe("deriveFromVariants", () => {
  it("lowest price, its original price, the range and the total stock", () => {
    const p: PartialProduct = {
      variants: [variant("a", 12, { stock: 1 }), variant("b", 9.5, { originalPrice: 15, stock: 2 }), variant("c", 30, { stock: 0 })],
    };
    expect(deriveFromVariants(p)).toMatchObject({ price: 9.5, originalPrice: 15, priceRange: { min: 9.5, max: 30 }, stock: 3 });
  });

  it("keeps what the source said itself, and no total when a variant's stock is unknown", () => {
    const p: PartialProduct = { price: 5, variants: [variant("a", 12, { stock: 1 }), variant("b", 12)] };
    const out = deriveFromVariants(p);
    expect(out.price).toBe(5);
    expect(out.priceRange).toBeUndefined();
    expect(out.stock).toBeUndefined();
  });
});
