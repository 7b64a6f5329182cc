// Extractor benchmark: time per page for every fixture of shared/extract/fixtures and for generated ~500 KB pages
// (the target is ≤ 10 ms per page). Pure CPU, no server.
//
//   npx tsx bench/extract.ts                 # default: 30 warm-up runs, then 200 timed runs per page
//   npx tsx bench/extract.ts --runs=500 --warmup=50
//
// Prints the machine and a markdown table (page, size, status, median / p95 / max ms).
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { extract } from "#shared/extract/extract.ts";
import { loadFixtures } from "#shared/extract/fixture-loader.ts";
import type { Snapshot } from "#shared/extract/snapshot.ts";

const { values: args } = parseArgs({ options: { runs: { type: "string", default: "200" }, warmup: { type: "string", default: "30" } } });
const runs = Number(args.runs);
const warmup = Number(args.warmup);

/** Filler a real product page carries around the data: header, recommendation grid, footer, unrelated scripts. */
function filler(kb: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < kb * 1024; i++) {
    const block =
      i % 3 === 0
        ? `<div class="rec-item" data-id="${1000 + i}"><a href="/item/${1005000000000000 + i}.html" class="rec-link"><img src="https://img.example.com/rec/${i}.jpg_220x220.jpg" alt="Recommended product ${i}" loading="lazy"></a><div class="rec-title">Recommended product number ${i} with a long marketing title</div><span class="rec-price">US $${(i % 90) + 0.99}</span></div>\n`
        : i % 3 === 1
          ? `<script>window.__trace_${i} = {"spm":"a2g0o.detail.${i}","ab":"bucket_${i % 7}","list":[${i},${i + 1},${i + 2}],"flag":true};</script>\n`
          : `<ul class="nav-list"><li><a href="/category/${i}">Category ${i}</a></li><li><a href="/category/${i + 1}">Category ${i + 1}</a></li><li><a href="/category/${i + 2}">Category ${i + 2}</a></li></ul>\n`;
    parts.push(block);
    size += block.length;
  }
  return parts.join("");
}

/** An AliExpress run-params page: 20 colours × 10 sizes = 200 skus (ids past 2^53), padded to ~500 KB. */
function bigAliExpressPage(): Snapshot {
  const colors = Array.from({ length: 20 }, (_, i) => ({
    propertyValueId: 100 + i,
    propertyValueIdLong: 100 + i,
    propertyValueName: `Color ${i}`,
    propertyValueDisplayName: `Colour ${i}`,
    skuPropertyImagePath: `https://ae01.alicdn.com/kf/Scolor${i}.jpg_640x640.jpg`,
  }));
  const sizes = Array.from({ length: 10 }, (_, i) => ({
    propertyValueId: 900 + i,
    propertyValueIdLong: 900 + i,
    propertyValueName: `S${i}`,
    propertyValueDisplayName: `Size ${i}`,
  }));
  const skuPriceList = colors.flatMap((c, ci) =>
    sizes.map((s, si) => ({
      skuId: `__BIG${ci * 10 + si}__`,
      skuPropIds: `${c.propertyValueId},${s.propertyValueId}`,
      skuAttr: `14:${c.propertyValueId}#${c.propertyValueDisplayName};5:${s.propertyValueId}#${s.propertyValueDisplayName}`,
      skuVal: {
        skuAmount: { currency: "USD", formatedAmount: `US $${20 + si}.99`, value: 20 + si + 0.99 },
        skuActivityAmount: { currency: "USD", formatedAmount: `US $${10 + si}.49`, value: 10 + si + 0.49 },
        availQuantity: 100 + ci,
        inventory: 100 + ci,
      },
    })),
  );
  const data = {
    productInfoComponent: { id: 1005006999999999, subject: "Benchmark product with many variants" },
    imageComponent: { imagePathList: Array.from({ length: 8 }, (_, i) => `https://ae01.alicdn.com/kf/Smain${i}.jpg`) },
    currencyComponent: { currencyCode: "USD" },
    skuComponent: {
      productSKUPropertyList: [
        { skuPropertyId: 14, skuPropertyName: "Color", skuPropertyValues: colors },
        { skuPropertyId: 5, skuPropertyName: "Size", skuPropertyValues: sizes },
      ],
    },
    priceComponent: { skuPriceList },
    productPropComponent: { props: Array.from({ length: 30 }, (_, i) => ({ attrName: `Attribute ${i}`, attrValue: `Value ${i}` })) },
    i18nComponent: {
      i18nMap: Object.fromEntries(
        Array.from({ length: 400 }, (_, i) => [`KEY_${i}`, `A translated interface string number ${i} with some words`]),
      ),
    },
    sellerComponent: { storeName: "Bench Store", storeNum: 1100000001, storeURL: "//www.aliexpress.com/store/1100000001" },
    packageComponent: { weight: 0.5, length: 20, width: 15, height: 10 },
  };
  // Sku ids past 2^53, written as bare numbers the way the page does.
  const json = JSON.stringify(data).replace(/"__BIG(\d+)__"/g, (_, n) => String(12000036653480000n + BigInt(n)));
  const script = `<script>\nwindow.runParams = {\n  data: ${json},\n  abVersion: '',\n};\n</script>\n`;
  const head = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Benchmark product - AliExpress</title><meta property="og:title" content="Benchmark product"></head><body>\n`;
  const body = filler(500 - Math.round((head.length + script.length) / 1024));
  return {
    url: "https://www.aliexpress.com/item/1005006999999999.html",
    capturedAt: "2025-01-15T00:00:00Z",
    html: head + body + script + "</body></html>",
  };
}

/** A shop no adapter knows: JSON-LD ProductGroup with 300 variants, OpenGraph, microdata-free markup, ~500 KB. */
function bigGenericPage(): Snapshot {
  const variants = Array.from({ length: 300 }, (_, i) => ({
    "@type": "Product",
    sku: `SKU-${i}`,
    name: `Variant ${i}`,
    color: `Color ${i % 30}`,
    size: `Size ${Math.floor(i / 30)}`,
    image: `https://cdn.example.com/v/${i}.jpg`,
    offers: { "@type": "Offer", price: (10 + (i % 17)).toFixed(2), priceCurrency: "EUR", availability: "https://schema.org/InStock" },
  }));
  const ld = {
    "@context": "https://schema.org",
    "@graph": [
      { "@type": "WebSite", name: "Example" },
      {
        "@type": "ProductGroup",
        name: "Benchmark group",
        productGroupID: "G-1",
        variesBy: ["https://schema.org/color", "https://schema.org/size"],
        hasVariant: variants,
      },
    ],
  };
  const head = `<!DOCTYPE html><html lang="de"><head><meta charset="utf-8"><title>Benchmark group</title><meta property="og:type" content="product"><meta property="og:title" content="Benchmark group"><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body><h1>Benchmark group</h1>\n`;
  const body = filler(500 - Math.round(head.length / 1024));
  return { url: "https://shop.example.com/p/benchmark-group", capturedAt: "2025-01-15T00:00:00Z", html: head + body + "</body></html>" };
}

function sizeOf(s: Snapshot): number {
  return (s.html?.length ?? 0) + JSON.stringify(s.globals ?? {}).length + (s.intercepted ?? []).reduce((n, r) => n + r.body.length, 0);
}

function time(s: Snapshot): { status: string; median: number; p95: number; max: number } {
  let status = "";
  for (let i = 0; i < warmup; i++) status = extract(s).status;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    extract(s);
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))];
  return { status, median: q(0.5), p95: q(0.95), max: samples[samples.length - 1] };
}

const pages: { name: string; snapshot: Snapshot }[] = [
  ...loadFixtures().map((f) => ({ name: f.name, snapshot: f.snapshot })),
  { name: "generated: aliexpress run-params, 200 skus", snapshot: bigAliExpressPage() },
  { name: "generated: generic json-ld, 300 variants", snapshot: bigGenericPage() },
];

const cpu = cpus();
console.log(
  `Machine: ${cpu[0]?.model ?? "unknown"}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
);
console.log(`Runs: ${warmup} warm-up + ${runs} timed per page\n`);
console.log("| page | size (KB) | status | median (ms) | p95 (ms) | max (ms) |");
console.log("|---|---:|---|---:|---:|---:|");
let worst = 0;
for (const { name, snapshot } of pages) {
  const r = time(snapshot);
  worst = Math.max(worst, r.p95);
  console.log(
    `| ${name} | ${(sizeOf(snapshot) / 1024).toFixed(1)} | ${r.status} | ${r.median.toFixed(3)} | ${r.p95.toFixed(3)} | ${r.max.toFixed(3)} |`,
  );
}
console.log(`\nWorst p95: ${worst.toFixed(3)} ms (target ≤ 10 ms per page)`);
