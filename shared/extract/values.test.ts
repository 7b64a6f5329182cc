// Price, unit and language readers; the HTML scanner.
import { describe, expect, it } from "vitest";
import {
  decodeEntities,
  elementById,
  elementText,
  findTagsWithAttr,
  innerHtml,
  metaTags,
  parseTagAt,
  sanitizeHtml,
  scripts,
  tagsContaining,
  textOf,
} from "./html.ts";
import { microdataItems } from "./generic/microdata.ts";
import {
  currencyOf,
  idOf,
  originalAlicdnImage,
  parseDimsText,
  parsePrice,
  parsePriceRange,
  parseWeightText,
  titleLanguage,
  toGrams,
} from "./values.ts";

describe("parsePrice", () => {
  it.each([
    ["¥12.50", 12.5],
    ["￥ 1,012.22", 1012.22],
    ["US $1,234.56", 1234.56],
    ["R$ 1.234,56", 1234.56],
    ["MXN$58,46", 58.46],
    ["45,90 €", 45.9],
    ["1,234", 1234],
    ["1.234.567", 1234567],
    ["12.5", 12.5],
    ["12.345678", 12.35],
    ["59-69", 59],
    ["free", undefined],
  ])("%s → %s", (text, value) => {
    expect(parsePrice(text)).toBe(value);
  });

  it("numbers are rounded to 2 decimals; negatives refused", () => {
    expect(parsePrice(0.1 + 0.2)).toBe(0.3);
    expect(parsePrice(-1)).toBeUndefined();
  });

  it("ranges", () => {
    expect(parsePriceRange("¥12.50 - ¥20")).toEqual({ min: 12.5, max: 20 });
    expect(parsePriceRange("59~69")).toEqual({ min: 59, max: 69 });
    expect(parsePriceRange("9.9")).toEqual({ min: 9.9, max: 9.9 });
  });

  it("currencies by symbol, with a bare $ left undecided", () => {
    expect(currencyOf("US $3")).toBe("USD");
    expect(currencyOf("¥3")).toBe("CNY");
    expect(currencyOf("R$ 3")).toBe("BRL");
    expect(currencyOf("MX$3")).toBe("MXN");
    expect(currencyOf("€3")).toBe("EUR");
    expect(currencyOf("$3")).toBeUndefined();
  });
});

describe("units, ids, images, language", () => {
  it("weights and dimensions", () => {
    expect(toGrams(0.42, "kg")).toBe(420);
    expect(toGrams(1.1, "LBR")).toBe(498.95);
    expect(parseDimsText("10 x 5 x 2 inches; 8 ounces")).toEqual({
      dims: { lengthCm: 25.4, widthCm: 12.7, heightCm: 5.08 },
      weightG: 226.8,
    });
    expect(parseDimsText("商品毛重：0.43kg").weightG).toBe(430);
  });

  it("weights and dimensions as the EU sites write them: decimal commas, units spelled out", () => {
    expect(parseWeightText("5,6 Kilogramm")).toBe(5600);
    expect(parseWeightText("500 Gramm")).toBe(500);
    expect(parseWeightText("1,2 kilogrammes")).toBe(1200);
    expect(parseWeightText("350 grammi")).toBe(350);
    expect(parseWeightText("120 gramos")).toBe(120);
    expect(parseDimsText("34 x 27,5 x 16 cm; 5,6 Kilogramm")).toEqual({
      dims: { lengthCm: 34, widthCm: 27.5, heightCm: 16 },
      weightG: 5600,
    });
    expect(parseDimsText("150 x 150 x 320 mm").dims).toEqual({ lengthCm: 15, widthCm: 15, heightCm: 32 });
    expect(parseDimsText("300 x 200 x 100 Millimeter").dims).toEqual({ lengthCm: 30, widthCm: 20, heightCm: 10 });
    expect(parseDimsText("25 x 12 x 8 centimètres").dims).toEqual({ lengthCm: 25, widthCm: 12, heightCm: 8 });
  });

  it("ids are strings; an already-rounded number is reported", () => {
    const warnings: string[] = [];
    expect(idOf(5012345678901)).toBe("5012345678901");
    expect(idOf(" 42 ")).toBe("42");
    expect(idOf(2 ** 60, (m) => warnings.push(m))).toBe("1152921504606846976");
    expect(warnings).toHaveLength(1);
  });

  it("Alibaba CDN thumbnails back to the original", () => {
    expect(originalAlicdnImage("https://ae01.alicdn.com/kf/S1.jpg_640x640.jpg")).toBe("https://ae01.alicdn.com/kf/S1.jpg");
    expect(originalAlicdnImage("https://img.alicdn.com/a/O1CN01x.jpg_.webp")).toBe("https://img.alicdn.com/a/O1CN01x.jpg");
    expect(originalAlicdnImage("https://img.alicdn.com/a/x.jpg_60x60q90.jpg")).toBe("https://img.alicdn.com/a/x.jpg");
  });

  it("title language from the script first, then the page's language", () => {
    expect(titleLanguage("纯棉T恤", "en")).toBe("zh");
    expect(titleLanguage("Camisa", "es-MX")).toBe("es");
    expect(titleLanguage("Shirt", undefined, "en")).toBe("en");
    expect(titleLanguage("ワンピース")).toBe("ja");
  });
});

describe("HTML scanner", () => {
  const html = `<!DOCTYPE html><html lang="en"><head><!-- <meta name="commented" content="x"> -->
    <meta property="og:title" content="A &amp; B"><meta name=description content=plain>
    <script type="application/ld+json">{"a": "</div>"}</script><script>var x = "<div id='fake'>";</script></head>
    <body><div id="main" class="box big" data-x='{"k":">"}'><div>inner <b>bold</b></div><span>&#20013;&#x6587;</span></div><p id="fake2">x</p></body></html>`;

  it("tags with quoted attributes that contain > and entities", () => {
    const tag = parseTagAt(html, html.indexOf('<div id="main"'))!;
    expect(tag.attrs).toEqual({ id: "main", class: "box big", "data-x": '{"k":">"}' });
  });

  it("metas (commented ones ignored), scripts, elements by id and class", () => {
    expect(metaTags(html)).toEqual([
      { property: "og:title", content: "A & B" },
      { name: "description", content: "plain" },
    ]);
    expect(scripts(html).map((s) => s.text)).toEqual(['{"a": "</div>"}', `var x = "<div id='fake'>";`]);
    const main = elementById(html, "main")!;
    expect(innerHtml(html, main)).toBe(`<div>inner <b>bold</b></div><span>&#20013;&#x6587;</span>`);
    expect(elementText(html, main)).toBe("inner bold 中文");
    expect(findTagsWithAttr(html, "class", "big").map((t) => t.attrs.id)).toEqual(["main"]);
    expect(elementById(html, "nope")).toBeNull();
  });

  it("entities, text and sanitizing", () => {
    expect(decodeEntities("&lt;a&gt; &amp;amp; &#39;x&#39; &unknown;")).toBe("<a> &amp; 'x' &unknown;");
    // The whole named table: German and French accents, ligatures, typography.
    expect(
      decodeEntities(
        "Stra&szlig;e &auml;&ouml;&uuml; &Auml;&Ouml;&Uuml; caf&eacute; &agrave; l&rsquo;&oelig;uvre &egrave;&ecirc;&euml; &ccedil;&icirc;",
      ),
    ).toBe("Straße äöü ÄÖÜ café à l’œuvre èêë çî");
    expect(decodeEntities("&hearts; &frac12; &#x1F600; &#8364;")).toBe("♥ ½ 😀 €");
    // Only with the semicolon: page data is not markup.
    expect(decodeEntities("Tom&Jerry ?a=1&not=2 &auml")).toBe("Tom&Jerry ?a=1&not=2 &auml");
    expect(textOf("<p>a</p><script>evil()</script><p>b&nbsp;c</p>")).toBe("a b c");
    expect(
      sanitizeHtml(
        `<p onclick="x()">a</p><script>evil()</script><a href="javascript:alert(1)">l</a><img src=x onerror=alert(1)><iframe src="y"></iframe>`,
      ),
    ).toBe("<p>a</p><a>l</a><img src=x>");
  });

  it("microdata items nest", () => {
    const items = microdataItems(`<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Cup</span>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="3.50"><span itemprop="priceCurrency">USD</span></div>
      <a itemprop="url" href="/cup">link</a></div>`);
    expect(items).toEqual([
      { "@type": "Product", name: "Cup", offers: { "@type": "Offer", price: "3.50", priceCurrency: "USD" }, url: "/cup" },
    ]);
  });
});

describe("snapshot helpers", () => {
  it("snapshotSchema accepts what the extension sends and refuses other schemes", async () => {
    const { snapshotSchema } = await import("./snapshot.ts");
    const ok = {
      url: "https://item.taobao.com/item.htm?id=1",
      capturedAt: "2025-01-15T09:00:00Z",
      html: "<html></html>",
      globals: { a: 1 },
    };
    expect(snapshotSchema.safeParse(ok).success).toBe(true);
    expect(snapshotSchema.safeParse({ ...ok, url: "file:///etc/passwd" }).success).toBe(false);
    expect(snapshotSchema.safeParse({ ...ok, capturedAt: "yesterday" }).success).toBe(false);
  });

  it("scrubSecrets drops credential-looking keys at any depth", async () => {
    const { scrubSecrets, readGlobal } = await import("./snapshot.ts");
    expect(scrubSecrets({ data: { a: 1, _tb_token_: "t", list: [{ csrfToken: "x", b: 2 }] }, csrfToken: "y", cookie: "c" })).toEqual({
      data: { a: 1, list: [{ b: 2 }] },
    });
    const s = { url: "https://x/", capturedAt: "", globals: { runParams: { data: { a: 1 } }, "pageConfig.product": { skuid: 2 } } };
    expect(readGlobal(s, "runParams.data")).toEqual({ a: 1 });
    expect(readGlobal(s, "pageConfig.product")).toEqual({ skuid: 2 });
  });

  it("tagsContaining finds the tag around a match, once", () => {
    const html = `<p>mall.jd.com/index-1 in text</p><a href="//mall.jd.com/index-1.html" title="mall.jd.com/index-1">Shop</a>`;
    expect([...tagsContaining(html, "mall.jd.com/index-")].map((t) => t.name)).toEqual(["a"]);
  });
});
