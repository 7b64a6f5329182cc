// Golden tests: every fixture folder (fixtures/<platform>/<shape>) extracted and compared with its expected.json, which
// was written from what the page contains. Plus platform detection, adapter selection and the whole-pipeline rules.
import { describe, expect, it } from "vitest";
import { adapters } from "./adapters/index.ts";
import { detectPlatform, extract, pickAdapter } from "./extract.ts";
import { loadFixtures } from "./fixture-loader.ts";
import { extractedProduct, extractResult, platforms } from "./product.ts";
import type { Snapshot } from "./snapshot.ts";

const fixtures = loadFixtures();

describe("fixtures", () => {
  it("cover every platform, both AliExpress shapes, the generic sources and the block pages", () => {
    const names = fixtures.map((f) => f.name);
    for (const p of platforms)
      expect(
        names.some((n) => n.startsWith(`${p}/`)),
        p,
      ).toBe(true);
    for (const n of [
      "aliexpress/run-params",
      "aliexpress/pdp-query",
      "generic/json-ld-product-group",
      "generic/opengraph-only",
      "generic/microdata",
      "generic/json-ld-organization",
      "1688/captcha",
      "1688/context-data-json",
      "1688/partial",
      "taobao/login",
      "amazon/dp-de",
      "amazon/dp-fr",
      "aliexpress/run-params-es",
      "tmall/data-detail",
      "taobao/data-detail-partial",
      "taobao/ice-app-context-local",
      "amazon/dp-de-fba",
      "shein/geetest-stylesheet",
      "shein/challenge",
      "temu/login-wall",
      "amazon/dp-used",
      "amazon/kindle",
      "1688/final-price-2025",
      "jd/page-config-older",
    ])
      expect(names).toContain(n);
  });

  it.each(fixtures.map((f) => [f.name, f] as const))("%s matches expected.json", (_name, f) => {
    expect(f.expected, `${f.name}/expected.json`).toBeDefined();
    const result = extract(f.snapshot);
    expect(JSON.parse(JSON.stringify(result))).toEqual(f.expected);
    expect(extractResult.safeParse(result).success).toBe(true);
  });

  it("every ok fixture's product satisfies the shared schema and names its sources", () => {
    for (const f of fixtures.filter((x) => x.expected?.status === "ok")) {
      const r = extract(f.snapshot);
      expect(extractedProduct.safeParse(r.product).success, f.name).toBe(true);
      for (const field of ["title", "itemId"] as const) expect(r.sources[field], `${f.name} ${field}`).toBeTruthy();
    }
  });

  it("name a different item each (the demo content and the crawler store them by platform and item id)", () => {
    const keys = fixtures.flatMap((f) => (f.expected?.product ? [`${f.expected.platform}:${f.expected.product.itemId}`] : []));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it("is deterministic and does not modify the snapshot", () => {
    for (const f of fixtures) {
      const before = JSON.stringify(f.snapshot);
      expect(JSON.stringify(extract(f.snapshot))).toBe(JSON.stringify(extract(f.snapshot)));
      expect(JSON.stringify(f.snapshot)).toBe(before);
    }
  });
});

describe("detectPlatform", () => {
  it.each([
    ["https://detail.1688.com/offer/712345678901.html", "1688"],
    ["https://item.taobao.com/item.htm?id=712345678902", "taobao"],
    ["https://detail.tmall.com/item.htm?id=698765432103", "tmall"],
    ["https://detail.tmall.hk/hk/item.htm?id=698765432103", "tmall"],
    ["https://www.aliexpress.com/item/1005006123456789.html", "aliexpress"],
    ["https://es.aliexpress.com/item/1005006123456789.html", "aliexpress"],
    ["https://aliexpress.ru/item/1005006123456789.html", "aliexpress"],
    ["https://mobile.yangkeduo.com/goods.html?goods_id=612345678901", "pinduoduo"],
    ["https://www.temu.com/mx/audifonos-g-601099512345678.html", "temu"],
    ["https://us.shein.com/Tee-p-23456789-cat-1738.html", "shein"],
    ["https://www.shein.com.mx/Tee-p-23456789.html", "shein"],
    ["https://www.amazon.com/dp/B0C1234567", "amazon"],
    ["https://www.amazon.com.mx/gp/product/B0C1234567/ref=x", "amazon"],
    ["https://www.amazon.co.uk/Some-Name/dp/B0C1234567", "amazon"],
    ["https://item.jd.com/100012345678.html", "jd"],
    ["https://item.m.jd.com/product/100012345678.html", "jd"],
    // a platform's other pages still name the platform
    ["https://login.taobao.com/member/login.jhtml", "taobao"],
    ["https://shop1234567890.1688.com/page/offerlist.htm", "1688"],
    // unknown sites and look-alikes go to the generic extractor
    ["https://shop.example-store.com/products/linen-shirt", "generic"],
    ["https://aliexpress.com.evil.example/item/1.html", "generic"],
    ["https://notamazon.com/dp/B0C1234567", "generic"],
    ["not a url", "generic"],
  ])("%s → %s", (url, platform) => {
    expect(detectPlatform(url)).toBe(platform);
  });

  it("gives the item id from the URL", () => {
    expect(pickAdapter("https://item.taobao.com/item.htm?spm=x&id=712345678902")?.itemId).toBe("712345678902");
    expect(pickAdapter("https://www.aliexpress.com/item/Some-Title/1005006123456789.html")?.itemId).toBe("1005006123456789");
    expect(pickAdapter("https://www.amazon.com/gp/aw/d/B0C1234567?psc=1")?.itemId).toBe("B0C1234567");
    expect(pickAdapter("https://shop1234567890.1688.com/page/offerlist.htm")?.itemId).toBeNull();
  });

  it("every adapter lists the page variables the extension may copy, none of them a credential", () => {
    for (const a of adapters) {
      expect(Array.isArray(a.globals)).toBe(true);
      for (const g of a.globals) expect(g).not.toMatch(/token|cookie|csrf/i);
    }
  });
});

/** A minimal Amazon product page without a declared language. */
const amazonPage = (title: string) =>
  `<html><body><span id="productTitle">${title}</span><span class="priceToPay"><span class="a-offscreen">9,99 €</span></span></body></html>`;

const snap = (url: string, html?: string, extra: Partial<Snapshot> = {}): Snapshot => ({
  url,
  capturedAt: "2025-01-15T00:00:00Z",
  html,
  ...extra,
});

describe("extract", () => {
  it("falls back to the generic sources when a site adapter finds nothing, and says so", () => {
    const html = `<html lang="en"><head><meta property="og:type" content="product"><meta property="og:title" content="Moved page">
      <meta property="product:price:amount" content="9.50"><meta property="product:price:currency" content="USD"></head><body></body></html>`;
    const r = extract(snap("https://www.aliexpress.com/item/1005000000000001.html", html));
    expect(r.status).toBe("ok");
    expect(r.platform).toBe("aliexpress");
    expect(r.product?.itemId).toBe("1005000000000001");
    expect(r.product?.price).toBe(9.5);
    expect(r.sources.price).toBe("opengraph");
    expect(r.warnings).toContain("aliexpress: no product data found in the page (page shape changed?)");
  });

  it("uses the globals the extension copied when the HTML has no data", () => {
    const globals = {
      rawData: {
        store: {
          initDataObj: {
            goods: {
              goodsID: 612345678901,
              goodsName: "测试商品",
              skus: [{ skuID: "9223372036854775807", specs: [], groupPrice: 9.9, quantity: 3 }],
            },
          },
        },
      },
    };
    const r = extract(snap("https://mobile.yangkeduo.com/goods.html?goods_id=612345678901", "<html></html>", { globals }));
    expect(r.status).toBe("ok");
    expect(r.product?.variants).toEqual([{ sku: "9223372036854775807", optionValues: [], price: 9.9, stock: 3 }]);
    expect(r.product?.price).toBe(9.9);
  });

  it("warns when an id from the globals already lost precision in the page", () => {
    const globals = {
      rawData: { store: { initDataObj: { goods: { goodsName: "x", skus: [{ skuID: 12345678901234567890, specs: [], groupPrice: 1 }] } } } },
    };
    const r = extract(snap("https://mobile.yangkeduo.com/goods.html?goods_id=1", undefined, { globals }));
    expect(r.warnings.some((w) => /past 2\^53/.test(w))).toBe(true);
  });

  it("reports unreadable page data as a warning, not an exception", () => {
    const html = `<script>window.rawData = {"store": {"initDataObj": {"goods": {"goodsName": "x", "skus": [1, 2,, 3]}}}};</script>`;
    const r = extract(snap("https://mobile.yangkeduo.com/goods.html?goods_id=1", html));
    expect(r.status).toBe("not-product");
    expect(r.warnings.join("\n")).toMatch(/pinduoduo: page data unreadable/);
  });

  it("recognises a login redirect by its URL and a slider page by its markup", () => {
    expect(extract(snap("https://login.taobao.com/member/login.jhtml?redirectURL=x", "<html></html>"))).toMatchObject({
      status: "blocked",
      block: "login",
    });
    const slider = `<html><body><div id="nc_1_wrapper"><span id="nc_1_n1z" class="nc_iconfont btn_slide"></span></div></body></html>`;
    expect(extract(snap("https://item.taobao.com/item.htm?id=1", slider))).toMatchObject({
      status: "blocked",
      block: "captcha",
      platform: "taobao",
    });
    expect(extract(snap("https://www.aliexpress.com/item/1.html/_____tmd_____/punish?x5secdata=x", "<html></html>"))).toMatchObject({
      status: "blocked",
      block: "captcha",
    });
    expect(
      extract(
        snap("https://item.jd.com/1.html", `<script>location.href="https://cfe.m.jd.com/privatedomain/risk_handler/03101900/"</script>`),
      ),
    ).toMatchObject({
      block: "captcha",
    });
  });

  it("tells a block by what blocks, not by a word in a stylesheet", () => {
    const shein = "https://us.shein.com/Dress-p-34567890.html";
    const css = `<link rel="stylesheet" href="/css/geetest.css"><style>.geetest_holder{width:1px}</style><div style="--x: geetest">x</div>`;
    expect(extract(snap(shein, css)).status).toBe("not-product");
    expect(extract(snap(shein, `<script src="https://static.geetest.com/static/js/gt.0.4.9.js"></script>`)).block).toBe("captcha");
    expect(extract(snap(shein, `<script>initGeetest({gt: "x"}, cb)</script>`)).block).toBe("captcha");
    expect(extract(snap("https://us.shein.com/risk/challenge?redirect=x", "<html></html>")).block).toBe("captcha");
    const temu = "https://www.temu.com/lamp-g-601099654321098.html";
    expect(extract(snap(temu, `<p>Enter the verification code we sent you</p>`)).status).toBe("not-product");
    expect(extract(snap(temu, `<form class="login-form"><input id="user-account"></form><p>verification code</p>`)).block).toBe("login");
    expect(extract(snap("https://www.temu.com/bgn_verification.html?from=x", "<html></html>")).block).toBe("captcha");
  });

  it("recognises challenge and login pages on unknown sites", () => {
    expect(
      extract(snap("https://shop.example.com/p/1", `<form id="challenge-form" action="/cdn-cgi/challenge-platform/h/b"></form>`)),
    ).toMatchObject({
      status: "blocked",
      block: "captcha",
      platform: "generic",
    });
    expect(extract(snap("https://shop.example.com/p/1", `<style>.cf-chl-widget{} .g-recaptcha{}</style><p>Hello</p>`)).status).toBe(
      "not-product",
    );
    expect(extract(snap("https://shop.example.com/login", `<form><input name="u"><input type="password" name="p"></form>`))).toMatchObject({
      status: "blocked",
      block: "login",
    });
  });

  it("a page with only a <title> is not a product", () => {
    expect(extract(snap("https://example.com/about", "<html><head><title>About us</title></head></html>")).status).toBe("not-product");
  });

  it("gives a stable item id from the address when no source names the item", () => {
    const html = `<meta property="og:type" content="product"><meta property="og:title" content="Lamp">`;
    const a = extract(snap("https://shop.example.com/p/lamp?utm_source=x", html));
    const b = extract(snap("https://shop.example.com/p/lamp#top", html));
    expect(a.product?.itemId).toMatch(/^u[0-9a-f]{8}$/);
    expect(a.product?.itemId).toBe(b.product?.itemId);
    expect(a.sources.itemId).toBe("url");
  });

  it("tags a title whose script is ambiguous with the page's locale: the language subdomain, else <html lang>", () => {
    const f = fixtures.find((x) => x.name === "aliexpress/run-params")!;
    const html = f.snapshot.html!.replace(/Mini Portable Bluetooth Speaker[^"<]*/g, "Mini altavoz Bluetooth portátil impermeable");
    const es = extract({ ...f.snapshot, url: f.snapshot.url.replace("www.", "es."), html });
    expect(es.product).toMatchObject({ titleLanguage: "es", title: { es: "Mini altavoz Bluetooth portátil impermeable" } });
    expect(extract({ ...f.snapshot, html }).product?.titleLanguage).toBe("en"); // www with lang="en"
    const de = extract(snap("https://www.amazon.de/dp/B0C1234567", amazonPage("Edelstahl Trinkflasche")));
    expect(de.product?.titleLanguage).toBe("de");
  });

  it("tags the title with the description URL's locale when the host does not name the language", () => {
    const f = fixtures.find((x) => x.name === "aliexpress/run-params-es")!;
    expect(extract(f.snapshot).product?.titleLanguage).toBe("es"); // www, lang="en", description under es_ES
    const html = f.snapshot.html!.replace("/es_ES/desc.htm", "/desc.htm");
    expect(extract({ ...f.snapshot, html }).product?.titleLanguage).toBe("en");
  });

  it("reads the Amazon EU sites' seller line and brand byline in each language", () => {
    const page = (byline: string, seller: string) =>
      `<html><body><a id="bylineInfo">${byline}</a><span id="productTitle">Lampada</span><div id="merchant-info">${seller}</div></body></html>`;
    const read = (host: string, byline: string, seller: string) => {
      const p = extract(snap(`https://www.${host}/dp/B0C1234567`, page(byline, seller))).product;
      return [p?.brand, p?.shop?.name];
    };
    expect(read("amazon.it", "Visita la Store di Lumina", "Venduto e spedito da Lumina Srl.")).toEqual(["Lumina", "Lumina Srl"]);
    expect(read("amazon.es", "Visita la tienda de Lumina", "Vendido y enviado por Lumina Iberia.")).toEqual(["Lumina", "Lumina Iberia"]);
    expect(read("amazon.de", "Besuche den Lumina-Store", "Versand durch Amazon. Verkauf durch Lumina GmbH.")).toEqual([
      "Lumina",
      "Lumina GmbH",
    ]);
    expect(read("amazon.fr", "Marque&nbsp;: Lumina", "Expédié par Amazon. Vendu par Amazon.fr.")).toEqual(["Lumina", "Amazon.fr"]);
  });

  it.each([
    ["amazon.de", "Verkauf durch Lumina GmbH und Versand durch Amazon.", "Lumina GmbH"],
    ["amazon.de", "Verkauf und Versand durch Lumina GmbH. Für weitere Informationen klicken Sie auf den Verkäufernamen.", "Lumina GmbH"],
    ["amazon.com", "Ships from and sold by Acme Direct.", "Acme Direct"],
    ["amazon.com", "Sold by Acme Direct and Fulfilled by Amazon.", "Acme Direct"],
    ["amazon.co.uk", "Dispatched from and sold by Acme Trading Ltd.", "Acme Trading Ltd"],
    ["amazon.co.uk", "Sold by Acme Trading and Fulfilled by Amazon.", "Acme Trading"],
    ["amazon.es", "Vendido por Lumina Iberia y enviado por Amazon.", "Lumina Iberia"],
    ["amazon.fr", "Vendu par Maison Lumière SARL et expédié par Amazon.", "Maison Lumière SARL"],
    ["amazon.fr", "Expédié et vendu par Maison Lumière SARL.", "Maison Lumière SARL"],
    ["amazon.it", "Venduto da Lumina Italia e spedito da Amazon.", "Lumina Italia"],
    ["amazon.co.jp", "販売者 ルミナ株式会社", "ルミナ株式会社"],
    ["amazon.co.jp", "この商品は、ルミナ株式会社 が販売、発送します。", "ルミナ株式会社"],
    ["amazon.co.jp", "ルミナ株式会社 が販売し、Amazon.co.jp が発送します。", "ルミナ株式会社"],
    ["amazon.com.mx", "Vendido y enviado por Lumina México.", "Lumina México"],
    ["amazon.com.mx", "Vendido por Lumina México y enviado por Amazon.", "Lumina México"],
  ])("the %s seller line %j names the seller alone", (host, line, seller) => {
    const page = `<html><body><span id="productTitle">Lampada</span><div id="merchant-info">${line}</div></body></html>`;
    const r = extract(snap(`https://www.${host}/dp/B0C1234567`, page));
    expect(r.product?.shop).toEqual({ name: seller });
  });

  it("takes a used offer's price only when the page has no new offer, and a plain byline link as the brand", () => {
    const used = `<div id="usedAccordionRow"><span class="a-price"><span class="a-offscreen">$18.47</span></span></div>`;
    const page = (extra: string, byline = `<a id="bylineInfo" href="/s?field-brandtextbin=Lumina">Lumina</a>`) =>
      `<html><body>${byline}<span id="productTitle">Lamp</span>${extra}</body></html>`;
    const read = (html: string) => extract(snap("https://www.amazon.com/dp/B0C1234567", html));
    const withNew = read(page(`<span class="priceToPay"><span class="a-offscreen">$24.99</span></span>${used}`));
    expect(withNew.product).toMatchObject({ price: 24.99, brand: "Lumina" });
    expect(withNew.warnings).toEqual([]);
    expect(read(page(used)).product?.price).toBe(18.47);
    expect(read(page("", `<a id="bylineInfo" href="/stores/x">Visit the Lumina Store</a>`)).product?.brand).toBe("Lumina");
    expect(
      read(page("", `<div id="bylineInfo"><span class="author"><a>Anna Whitfield</a> (Author)</span></div>`)).product?.brand,
    ).toBeUndefined();
  });

  it("keys a generic page's own product id by its site: two shops' AUR-100 are two items", () => {
    const page = `<script type="application/ld+json">{"@type":"Product","name":"Box","sku":"AUR-100","offers":{"price":"5","priceCurrency":"EUR"}}</script>`;
    expect(extract(snap("https://www.shop-a.example/p/box", page)).product?.itemId).toBe("shop-a.example:AUR-100");
    expect(extract(snap("https://shop-b.example/box", page)).product?.itemId).toBe("shop-b.example:AUR-100");
  });

  it("drops an invalid field with a warning instead of failing the product", () => {
    const html = `<script type="application/ld+json">{"@type":"Product","name":"Cup","offers":{"price":"4.5","priceCurrency":"usd"},"image":"javascript:alert(1)","video":{"contentUrl":"data:video/mp4;base64,AAAA"}}</script>`;
    const r = extract(snap("https://shop.example.com/p/cup", html));
    expect(r.status).toBe("ok");
    expect(r.product?.currency).toBe("USD");
    expect(r.product?.images).toEqual([]);
    expect(r.product?.video).toBeUndefined();
    expect(r.missingFields).toContain("images");
  });

  it("never throws on hostile or broken input", () => {
    const inputs = [
      "",
      "<",
      "<script>window.runParams = {data: {a: [1, 2, 3</script>",
      '<script type=\'application/ld+json\'>{"@type":"Product",</script>',
      "<div itemscope itemtype='https://schema.org/Product'><span itemprop='name'>x",
      `<script>window.__INIT_DATA = ${"[".repeat(5000)}</script>`,
      "<meta property='og:price:amount' content='abc'>",
    ];
    for (const html of inputs) {
      for (const url of ["https://detail.1688.com/offer/1.html", "https://www.aliexpress.com/item/1.html", "https://shop.example.com/x"]) {
        expect(() => extract(snap(url, html))).not.toThrow();
      }
    }
  });

  it("is partial, naming what is missing, when the page shows variants or a price that did not come out", () => {
    const data = `<script>window.__INIT_DATA = {"globalData": {"tempModel": {"offerTitle": "收纳盒"}, "skuModel": {"skuProps": [{"prop": "颜色", "value": [{"name": "白"}]}], "skuInfoMap": {"x": {"skuId": 1}}}}};</script>`;
    const r = extract(snap("https://detail.1688.com/offer/1.html", `${data}<span class="price">¥ 12.00</span>`));
    expect(r).toMatchObject({ status: "partial", incompleteFields: ["price", "variants"] });
    expect(r.warnings).toContain("部分字段未采集: 价格、规格");
    expect(extractResult.safeParse(r).success).toBe(true);
    // An empty sku model and no price element: nothing was lost.
    const plain = `<script>window.__INIT_DATA = {"globalData": {"tempModel": {"offerTitle": "收纳盒"}, "skuModel": {"skuProps": [], "skuInfoMap": {}}}};</script>`;
    expect(extract(snap("https://detail.1688.com/offer/1.html", plain)).status).toBe("ok");
  });

  it("reads 1688 pack sizes in the unit the page gives: millimetres when the row's volume says so", () => {
    const page = (row: string) =>
      `<script>window.context = (function (b, a) { return a; })(window.context, {"result": {"data": {"productTitle": {"fields": {"title": "杯子"}}, "pack": {"fields": {"pieceWeightScale": {"pieceWeightScaleInfo": [${row}]}}}}, "global": {"globalData": {"skuModel": {"skuProps": [{"prop": "颜色", "value": [{"name": "白"}]}], "skuInfoMap": {"白": {"skuId": 7, "price": "3.00"}}}}}}});</script>`;
    const dims = (row: string) => extract(snap("https://detail.1688.com/offer/1.html", page(row))).product?.variants[0].dims;
    expect(dims(`{"skuId": 7, "weight": 90, "length": 80, "width": 80, "height": 220, "volume": 1408}`)).toEqual({
      lengthCm: 8,
      widthCm: 8,
      heightCm: 22,
    });
    expect(dims(`{"skuId": 7, "weight": 90, "length": 8, "width": 8, "height": 22, "volume": 1408}`)).toEqual({
      lengthCm: 8,
      widthCm: 8,
      heightCm: 22,
    });
  });

  it("reads the 2025-26 1688 price block: offerMinPrice up to offerMaxPrice without ranges, sku prices from skuMapOriginal", () => {
    const page = `<script>window.context = (function (b, a) { return a; })(window.context, {"result": {"data": {
      "productTitle": {"fields": {"title": "水杯", "shopInfo": {"authCompanyName": "晨光制品厂", "loginId": "cg"}}},
      "mainPrice": {"fields": {"finalPriceModel": {"tradeWithoutPromotion": {"offerMinPrice": "6.50", "offerMaxPrice": "8.80",
        "skuMapOriginal": [{"skuId": 7, "price": "8.80", "discountPrice": "6.50"}]}}}}},
      "global": {"globalData": {"skuModel": {"skuProps": [{"prop": "颜色", "value": [{"name": "白"}, {"name": "黑"}]}],
        "skuInfoMap": {"白": {"skuId": 7}, "黑": {"skuId": 8}}}}}}});</script>`;
    const p = extract(snap("https://detail.1688.com/offer/1.html", page)).product;
    expect(p).toMatchObject({ price: 6.5, priceRange: { min: 6.5, max: 8.8 }, shop: { name: "晨光制品厂" } });
    expect(p?.variants).toEqual([
      { sku: "7", optionValues: ["白"], price: 6.5, originalPrice: 8.8 },
      { sku: "8", optionValues: ["黑"], price: 6.5 },
    ]);
  });

  it("refuses a non-http snapshot URL", () => {
    expect(extract(snap("javascript:alert(1)", "<html></html>"))).toMatchObject({ status: "not-product", platform: "generic" });
  });
});
