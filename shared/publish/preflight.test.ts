import { describe, expect, it } from "vitest";
import { CategoryAttributeModelType, type CategoryAttribute } from "../contract/category.ts";
import { siteLanguage } from "../contract/meli.ts";
import { cutTitle, framedTitle, packageOf, preflight, usablePictures, variationAttributeOf, type PreflightPair } from "./preflight.ts";

const attr = (id: string, tags: string[], extra: Partial<CategoryAttribute> = {}): CategoryAttribute => ({
  id,
  modelType: tags.includes("allow_variations")
    ? CategoryAttributeModelType.Variation
    : tags.includes("variation_attribute")
      ? CategoryAttributeModelType.VariationData
      : tags.includes("hidden")
        ? CategoryAttributeModelType.Hidden
        : CategoryAttributeModelType.Item,
  isRequired: tags.includes("required"),
  name: id.charAt(0) + id.slice(1).toLowerCase(),
  alias: null,
  zh: null,
  values: [],
  units: [],
  defaultUnit: null,
  valueType: "string",
  valueMaxLength: null,
  tags,
  hierarchy: null,
  relevance: null,
  groupId: null,
  groupName: null,
  ...extra,
});

const attributes: CategoryAttribute[] = [
  attr("BRAND", ["required"], { zh: "品牌" }),
  attr("MODEL", ["required"], { zh: "型号" }),
  attr("ITEM_CONDITION", ["required"]),
  attr("LINE", []),
  attr("PATTERN", [], { valueType: "list", values: [{ id: "1", name: "Liso", zh: null }] }),
  attr("COLOR", ["allow_variations"], { name: "Color", zh: "颜色" }),
  attr("SIZE", ["allow_variations"], { name: "Talla" }),
  attr("SELLER_SKU", ["variation_attribute"]),
  attr("GTIN", ["variation_attribute", "conditional_required"]),
  attr("EMPTY_GTIN_REASON", []),
  attr("PACKAGE_WEIGHT", ["hidden", "required"]),
];

const base: PreflightPair = {
  site: 1,
  product: {
    title: { zh: "女式运动鞋", es: "Tenis deportivos para mujer ligeros" },
    description: { es: "Tenis ligeros" },
    price: "100.00",
    currency: "CNY",
    images: ["https://img.example/a.jpg", "https://img.example/b.jpg"],
    weight: "350",
    size: "30x20x10",
    brand: "Acme",
    variants: [
      { sku: "A-1", keys: ["颜色", "Talla"], values: ["Rojo", "38"], gtin: "7501234567890" },
      { sku: "A-2", keys: ["颜色", "Talla"], values: ["Azul", "38"], gtin: "7501234567891" },
    ],
    attrs: [{ nameId: "MODEL", value: "Runner" }],
  },
  category: {
    cateId: "MLM1055",
    name: "Tenis",
    isLeaf: true,
    listingAllowed: true,
    meliStatus: "enabled",
    enable: true,
    maxTitleLength: 60,
    maxPictures: 10,
    minimumPrice: "35.00",
    currency: "MXN",
    classicFee: "13.50",
    premiumFee: "17.50",
  },
  attributes,
  shop: { adjustRate: 1.5, tinyPrice: 0.99, limitMinPrice: null, limitMaxPrice: null, overPrice: 20 },
  rates: [
    { code: "CNY", rate: "1" },
    { code: "MXN", rate: "0.395" },
    { code: "USD", rate: "7.1" },
  ],
  request: { listingType: "gold_special" },
  translationConfigured: false,
  gtinAvailable: 0,
};

const codes = (pair: PreflightPair) => preflight(pair).problems.map((p) => `${p.severity}:${p.code}`);
const withProduct = (p: Partial<PreflightPair["product"]>): PreflightPair => ({ ...base, product: { ...base.product, ...p } });
const withCategory = (c: Partial<NonNullable<PreflightPair["category"]>>): PreflightPair => ({
  ...base,
  category: { ...base.category!, ...c },
});

describe("preflight", () => {
  it("passes a complete product with its price, title and language", () => {
    const r = preflight(base);
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r).toMatchObject({ language: "es", title: "Tenis deportivos para mujer ligeros", gtinNeeded: 0 });
    expect(r.price).toMatchObject({ currency: "MXN", cost: 25316, price: 46299 });
  });

  it("refuses a missing, removed, non-leaf or closed category", () => {
    expect(codes({ ...base, category: null })).toEqual(["error:category.missing"]);
    expect(codes(withCategory({ isLeaf: false }))).toEqual(["error:category.notLeaf"]);
    expect(codes(withCategory({ listingAllowed: false }))).toEqual(["error:category.notAllowed"]);
    expect(codes(withCategory({ meliStatus: "removed" }))).toEqual(["error:category.removed"]);
    expect(preflight(withCategory({ isLeaf: false })).problems[0]).toMatchObject({
      message: "类目「Tenis」不是末级类目，请选择末级类目",
      fix: "category",
    });
  });

  it("asks for required attributes the product and the request leave empty", () => {
    const r = preflight(withProduct({ attrs: [], brand: null }));
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([
      { code: "attribute.required", severity: "error", field: "attributes.BRAND", message: "缺少必填属性「品牌」", fix: "attribute:BRAND" },
      { code: "attribute.required", severity: "error", field: "attributes.MODEL", message: "缺少必填属性「型号」", fix: "attribute:MODEL" },
    ]);
    const filled = {
      ...withProduct({ attrs: [], brand: null }),
      request: { ...base.request, brand: "Acme", attrs: [{ id: "MODEL", valueName: "Runner" }] },
    };
    expect(codes(filled)).toEqual([]);
    // a blank value is no value
    expect(codes(withProduct({ attrs: [{ nameId: "MODEL", value: "  " }] }))).toEqual(["error:attribute.required"]);
  });

  it("warns about conditional-required attributes and refuses a value outside a list", () => {
    const gtinFree = withProduct({ variants: [] });
    expect(codes({ ...base, attributes: [...attributes, attr("VOLTAGE", ["conditional_required"])] })).toEqual([
      "warning:attribute.conditional",
    ]);
    expect(codes(withProduct({ attrs: [...base.product.attrs, { nameId: "PATTERN", valueId: "9" }] }))).toEqual([
      "error:attribute.invalidValue",
    ]);
    expect(codes(withProduct({ attrs: [...base.product.attrs, { nameId: "PATTERN", valueId: "1" }] }))).toEqual([]);
    expect(codes({ ...gtinFree, attributes: attributes.filter((a) => a.id !== "GTIN") })).toEqual([]);
  });

  it("refuses an unknown value id on a string attribute with suggested values, and on an attribute the publisher fills", () => {
    const brand = attr("BRAND", ["required"], { valueType: "string", values: [{ id: "6433977", name: "Acme", zh: null }] });
    const condition = attr("ITEM_CONDITION", ["required"], { valueType: "list", values: [{ id: "2230284", name: "Nuevo", zh: null }] });
    const withAttrs = { ...base, attributes: [...attributes.filter((a) => a.id !== "BRAND"), brand, condition] };
    const given = (a: { nameId: string; valueId: string }[]) => ({
      ...withAttrs,
      product: { ...base.product, attrs: [...base.product.attrs, ...a] },
    });
    expect(codes(given([{ nameId: "BRAND", valueId: "999" }]))).toEqual(["error:attribute.invalidValue"]);
    expect(codes(given([{ nameId: "BRAND", valueId: "6433977" }]))).toEqual([]);
    expect(codes(given([{ nameId: "ITEM_CONDITION", valueId: "999" }]))).toEqual(["error:attribute.invalidValue"]);
    expect(codes(given([]))).toEqual([]);
  });

  it("refuses to include a freight it does not know", () => {
    const withFreight = { ...base, request: { ...base.request, isContainsFreight: true } };
    expect(codes(withFreight)).toEqual(["error:freight.unknown"]);
    expect(preflight(withFreight).problems[0]).toMatchObject({ fix: "settings", field: "freight" });
    const known = preflight({ ...withFreight, freight: "45.50" });
    expect(known.problems).toEqual([]);
    expect(known.price).toMatchObject({ freight: 4550 });
    expect(preflight({ ...base, freight: "45.50" }).price).toMatchObject({ freight: 0 });
  });

  it("maps option names to the category's variation attributes", () => {
    expect(variationAttributeOf("颜色", attributes)?.id).toBe("COLOR");
    expect(variationAttributeOf("talla", attributes)?.id).toBe("SIZE");
    expect(variationAttributeOf("尺码", attributes)?.id).toBe("SIZE");
    expect(variationAttributeOf("Colour", attributes)?.id).toBe("COLOR");
    expect(variationAttributeOf("材质", attributes)).toBeNull();

    const unmapped = withProduct({
      variants: [
        { sku: "A-1", keys: ["材质"], values: ["Piel"], gtin: "1" },
        { sku: "A-2", keys: ["材质"], values: ["Tela"], gtin: "2" },
      ],
    });
    expect(preflight(unmapped).problems).toEqual([
      expect.objectContaining({ code: "variation.unmapped", message: "规格「材质」无法对应类目的变体属性（颜色、Talla）", fix: "product" }),
    ]);
    const twice = withProduct({ variants: [base.product.variants[0], { ...base.product.variants[0], sku: "A-3" }] });
    expect(codes(twice)).toEqual(["error:variation.duplicate"]);
    const noVariations = { ...base, attributes: attributes.filter((a) => a.modelType !== CategoryAttributeModelType.Variation) };
    expect(codes(noVariations)).toEqual(["error:variation.unsupported"]);
    // before a category is chosen (no category, so no attributes) the seller is asked for the category only
    expect(codes({ ...noVariations, category: null, attributes: [] })).toEqual(["error:category.missing"]);
    // one variant is sent as a plain item, whatever its options
    expect(codes(withProduct({ variants: [{ sku: "A-1", keys: ["材质"], values: ["Piel"], gtin: "1" }] }))).toEqual([]);
    expect(codes({ ...noVariations, product: { ...base.product, variants: [base.product.variants[0]] } })).toEqual([]);
    // one variant without options is a plain product
    expect(codes({ ...noVariations, product: { ...base.product, variants: [{ sku: "A", keys: [], values: [], gtin: "1" }] } })).toEqual([]);
  });

  it("warns, without refusing, of a loss or a margin under the shop's minimum", () => {
    // The base pair earns about 32 %: over the default 10 %, under a minimum of 35 %.
    expect(codes({ ...base, minMargin: 35 })).toEqual(["warning:price.marginLow"]);
    const low = preflight({ ...base, minMargin: 35 });
    expect(low.ok).toBe(true);
    expect(low.problems[0]).toMatchObject({
      field: "price",
      fix: "shop",
      message: `利润率${low.price?.marginPercent}%低于店铺最低利润率35%`,
    });
    expect(codes({ ...base, minMargin: null })).toEqual([]);
    // No markup on a price raised by nothing: the fees leave 0 %, under the default minimum.
    expect(codes({ ...base, shop: { ...base.shop, adjustRate: 1, overPrice: 0, tinyPrice: null } })).toEqual(["warning:price.marginLow"]);
    // A markup under 1 sells at a loss.
    const loss = preflight({ ...base, shop: { ...base.shop, adjustRate: 0.5, overPrice: 0 } });
    expect(loss.ok).toBe(true);
    expect(loss.problems).toEqual([expect.objectContaining({ code: "price.marginNegative", severity: "warning", fix: "shop" })]);
    expect(loss.price!.margin).toBeLessThan(0);
  });

  it("checks the price against the category minimum and the shop's limits", () => {
    expect(codes(withProduct({ price: "1" }))).toEqual(["error:price.belowMinimum"]);
    expect(preflight(withProduct({ price: "1" })).problems[0]).toMatchObject({
      message: "售价27.99 MXN低于类目最低价35.00 MXN",
      fix: "product",
    });
    expect(codes({ ...withProduct({ price: "1" }), category: { ...base.category!, currency: "USD" } })).toEqual([]);
    expect(codes({ ...base, shop: { ...base.shop, limitMaxPrice: 400 } })).toEqual(["error:price.overLimit"]);
    expect(preflight({ ...base, shop: { ...base.shop, limitMaxPrice: 400 } }).problems[0]).toMatchObject({
      message: "售价462.99 MXN高于店铺最高限价400.00 MXN",
      fix: "shop",
    });
    const raised = preflight({ ...base, shop: { ...base.shop, limitMinPrice: 500 } });
    expect(raised.ok).toBe(true);
    expect(raised.problems).toEqual([expect.objectContaining({ code: "price.raisedToMin", severity: "warning" })]);
    expect(raised.price?.price).toBe(50000);
    expect(preflight(withProduct({ currency: "EUR" })).problems).toEqual([
      expect.objectContaining({ code: "rate.missing", severity: "error", fix: "settings" }),
    ]);
  });

  it("cuts a long title at a word boundary (a warning) and refuses a missing one without translation", () => {
    const long = { ...base, request: { ...base.request, prefixTitle: "Oferta", suffixTitle: "Envío rápido desde México" } };
    const r = preflight(long);
    expect(r.ok).toBe(true);
    expect(r.title).toBe("Oferta Tenis deportivos para mujer ligeros Envío rápido");
    expect(r.problems).toEqual([expect.objectContaining({ code: "title.cut", severity: "warning", field: "title" })]);

    const noSpanish = withProduct({ title: { zh: "女式运动鞋", en: "Women sneakers" } });
    expect(preflight(noSpanish).problems).toEqual([
      { code: "title.missing", severity: "error", field: "title", message: "商品没有西班牙语标题，且未配置翻译服务", fix: "product" },
    ]);
    const translated = preflight({ ...noSpanish, translationConfigured: true });
    expect(translated).toMatchObject({ ok: true, title: null });
    expect(codes({ ...noSpanish, translationConfigured: true })).toEqual(["warning:title.translate"]);
    expect(codes({ ...noSpanish, site: 2, isCbt: true })).toEqual(["error:title.missing"]);
    expect(preflight({ ...noSpanish, site: 5 })).toMatchObject({ language: "en", title: "Women sneakers" });
  });

  it("needs a picture and warns over the category's maximum", () => {
    expect(codes(withProduct({ images: [] }))).toEqual(["error:pictures.none"]);
    expect(codes(withCategory({ maxPictures: 1 }))).toEqual(["warning:pictures.max"]);
    expect(codes(withProduct({ images: ["https://img.example/a.jpg", "https://img.example/a.jpg"] }))).toEqual([]);
  });

  it("leaves out pictures under 500 px on their longer side, and refuses a product with no other", () => {
    const img = (n: number) => `https://img.example/${n}.jpg`;
    const sized = (entries: [number, { width: number; height: number } | null][]) => new Map(entries.map(([n, v]) => [img(n), v]));
    const check = (images: string[], imageSizes: ReturnType<typeof sized>, maxPictures = 10) =>
      preflight({ ...withCategory({ maxPictures }), product: { ...base.product, images, imageSizes } });
    // 500 on one side is enough (the longer side decides); 499×499 is not.
    expect(
      check(
        [img(1), img(2)],
        sized([
          [1, { width: 500, height: 20 }],
          [2, { width: 20, height: 1200 }],
        ]),
      ).problems,
    ).toEqual([]);
    const oneSmall = check(
      [img(1), img(2), img(3)],
      sized([
        [1, { width: 499, height: 499 }],
        [2, { width: 800, height: 800 }],
      ]),
    );
    expect(oneSmall.ok).toBe(true);
    expect(oneSmall.problems).toEqual([
      { code: "pictures.small", severity: "warning", field: "images", message: "图片尺寸小于500像素，已跳过1张", fix: "product" },
    ]);
    // Only small pictures: an error; a picture not probed yet (3) is not held against the product.
    const allSmall = check(
      [img(1), img(4)],
      sized([
        [1, { width: 499, height: 499 }],
        [4, { width: 100, height: 60 }],
      ]),
    );
    expect(allSmall.ok).toBe(false);
    expect(allSmall.problems).toEqual([
      { code: "pictures.tooSmall", severity: "error", field: "images", message: "图片尺寸均小于500像素，没有可发布的图片", fix: "product" },
    ]);
    expect(check([img(1), img(3)], sized([[1, { width: 499, height: 499 }]])).problems.map((p) => p.code)).toEqual(["pictures.small"]);
    // A picture the probe could not read: one warning for the pair, however many.
    const unreadable = check(
      [img(1), img(5), img(6)],
      sized([
        [1, { width: 900, height: 900 }],
        [5, null],
        [6, null],
      ]),
    );
    expect(unreadable.ok).toBe(true);
    expect(unreadable.problems).toEqual([
      {
        code: "pictures.unknownSize",
        severity: "warning",
        field: "images",
        message: "图片尺寸未知：2张图片无法读取（链接失效或不是图片）",
        fix: "product",
      },
    ]);
    // Unreadable pictures alone are not refused: Mercado Libre decides.
    expect(check([img(5)], sized([[5, null]])).ok).toBe(true);
    // The category's maximum counts the usable pictures only.
    const many = [1, 2, 3].map(img);
    const sizes = sized([
      [1, { width: 10, height: 10 }],
      [2, { width: 600, height: 600 }],
      [3, { width: 600, height: 600 }],
    ]);
    expect(check(many, sizes, 2).problems.map((p) => p.code)).toEqual(["pictures.small"]);
    expect(usablePictures(many, sizes)).toEqual([img(2), img(3)]);
    expect(usablePictures([img(1), img(1), img(2)])).toEqual([img(1), img(2)]);
    // Without sizes (the caller probed nothing) the rule is not applied.
    expect(codes(base)).toEqual([]);
  });

  it("needs weight and size, and on global selling 3 cm a side and 50 g", () => {
    expect(codes(withProduct({ weight: null }))).toEqual(["error:package.weight"]);
    expect(codes(withProduct({ size: null }))).toEqual(["error:package.size"]);
    expect(codes(withProduct({ size: "30x0x10" }))).toEqual(["error:package.size"]);
    const cbt = (p: Partial<PreflightPair["product"]>) => ({
      ...withProduct(p),
      site: 5 as const,
      product: { ...withProduct(p).product, title: { en: "Sneakers" } },
    });
    expect(codes(cbt({ size: "30x2x10" }))).toEqual(["error:package.size"]);
    expect(codes(cbt({ weight: 49 }))).toEqual(["error:package.weight"]);
    expect(codes(cbt({ size: "3x3x3", weight: 50 }))).toEqual([]);
    // local sites take small packages
    expect(codes(withProduct({ size: "2x2x2", weight: 10 }))).toEqual([]);
    // the request fills in, or replaces when forced
    expect(codes({ ...withProduct({ weight: null, size: null }), request: { ...base.request, weight: 300, size: "10x10x10" } })).toEqual(
      [],
    );
    expect(packageOf({ weight: 350, size: "30x20x10" }, { weight: 40, size: "1x1x1" })).toEqual({ weight: 350, sides: [30, 20, 10] });
    expect(packageOf({ weight: 350, size: "30x20x10" }, { weight: 40, size: "1x1x1", isForceReplaceWeightAndSize: true })).toEqual({
      weight: 40,
      sides: [1, 1, 1],
    });
  });

  it("takes one GTIN per variant without its own, and refuses when the pool is short", () => {
    const noCodes = withProduct({ variants: base.product.variants.map((v) => ({ ...v, gtin: null })) });
    const r = preflight(noCodes);
    expect(r.gtinNeeded).toBe(2);
    // The category takes EMPTY_GTIN_REASON: the problem names that field as the other fix.
    expect(r.problems).toEqual([
      {
        code: "gtin.shortage",
        severity: "error",
        field: "attributes.EMPTY_GTIN_REASON",
        message: "类目要求GTIN，需要2个，GTIN码池已空；商品没有条码时也可选择无条码原因",
        fix: "gtin",
      },
    ]);
    const noReason = { ...noCodes, attributes: attributes.filter((a) => a.id !== "EMPTY_GTIN_REASON") };
    expect(preflight({ ...noReason, gtinAvailable: 1 }).problems).toEqual([
      { code: "gtin.shortage", severity: "error", field: "gtin", message: "类目要求GTIN，需要2个，码池只剩1个", fix: "gtin" },
    ]);
    expect(preflight({ ...noCodes, gtinAvailable: 2 })).toMatchObject({ ok: true, gtinNeeded: 2 });
    // an exemption reason given: no code needed
    const exempt = { ...noCodes, request: { ...base.request, attrs: [{ id: "EMPTY_GTIN_REASON", valueId: "17055158" }] } };
    expect(preflight(exempt)).toMatchObject({ ok: true, gtinNeeded: 0 });
    // a GTIN tagged required takes no reason (Mercado Libre: always given)
    const always = attributes.map((a) => (a.id === "GTIN" ? { ...a, tags: ["variation_attribute", "required"] } : a));
    expect(preflight({ ...exempt, attributes: always })).toMatchObject({ ok: false, gtinNeeded: 2 });
    expect(preflight({ ...exempt, attributes: always }).problems.map((x) => x.field)).toEqual(["gtin"]);
    // a product without variants needs one, unless its attributes carry one
    expect(preflight(withProduct({ variants: [] })).gtinNeeded).toBe(1);
    expect(
      preflight(withProduct({ variants: [], attrs: [...base.product.attrs, { nameId: "GTIN", value: "7501234567890" }] })).gtinNeeded,
    ).toBe(0);
  });
});

describe("titles and languages", () => {
  it("cuts at the last word boundary within the limit", () => {
    expect(cutTitle("Tenis deportivos para mujer", 20)).toBe("Tenis deportivos");
    expect(cutTitle("Tenis deportivos para mujer", 16)).toBe("Tenis deportivos");
    expect(cutTitle("Tenis deportivos, rojos", 18)).toBe("Tenis deportivos");
    expect(cutTitle("Supercalifragilistic", 5)).toBe("Super");
    expect(cutTitle("Corto", 60)).toBe("Corto");
    expect(cutTitle("Camiseta niño 😀 azul", 15)).toBe("Camiseta niño 😀");
  });

  it("frames a title with the request's prefix and suffix", () => {
    expect(framedTitle("Tenis", " Oferta ", null)).toBe("Oferta Tenis");
    expect(framedTitle("Tenis", "", "Nuevo")).toBe("Tenis Nuevo");
  });

  it("names each site's language", () => {
    expect([1, 2, 3, 4, 5].map(siteLanguage)).toEqual(["es", "pt", "es", "es", "en"]);
  });
});
