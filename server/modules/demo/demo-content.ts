// The demo tenant's content, made the way a seller makes it: a sandbox shop connected through the consent flow,
// products collected from the extractor's fixture pages (run through the extractor, sent as the extension's collect
// call sends them), some moved into the product list, labelled, and one flagged by an infringement word. Each step
// finds what an interrupted earlier run left and only adds what is missing, so the job may run again.
import type { FastifyBaseLogger } from "fastify";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import type { Api } from "#shared/api/index.ts";
import type { CollectedProductInput } from "#shared/contract/collect.ts";
import { extract } from "#shared/extract/extract.ts";
import { loadFixtures } from "#shared/extract/fixture-loader.ts";
import { normalizeWord } from "#shared/text/aho-corasick.ts";
import { htmlText } from "../infringement/index.ts";
import { DEMO_IMAGES_PER_PRODUCT, demoImageUrl } from "./demo-images.ts";

/** How many collections the demo tenant gets: the fixture products, taken again as further listings to reach it. */
export const DEMO_COLLECTS = 48;
/** How many of them are moved into the product list. */
export const DEMO_PRODUCTS = 16;
export const DEMO_SHOP = "DEMO_SHOP";
export const DEMO_LABELS = ["热销", "新品", "待定价"] as const;

/** The fixture pages that give a product, extracted as the extension's content script does. */
function fixtureProducts(): CollectedProductInput[] {
  const out: CollectedProductInput[] = [];
  for (const fixture of loadFixtures()) {
    const result = extract(fixture.snapshot);
    if ((result.status !== "ok" && result.status !== "partial") || !result.product) continue;
    const { product, sources, missingFields, warnings, incompleteFields } = result;
    out.push({ ...product, sources, missingFields, warnings, incompleteFields } as CollectedProductInput);
  }
  return out;
}

/**
 * The product with the server's own pictures (demo-images.ts) instead of the marketplace's: its images, its option
 * values' and variants' images and the pictures in its description. Product i takes pictures in turn.
 */
function withDemoPictures(p: CollectedProductInput, i: number, imageBase: string): CollectedProductInput {
  let next = i * DEMO_IMAGES_PER_PRODUCT;
  const images = Array.from({ length: DEMO_IMAGES_PER_PRODUCT }, (_, j) => demoImageUrl(imageBase, next + j));
  const picture = () => demoImageUrl(imageBase, next++);
  return {
    ...p,
    images,
    options: p.options.map((o) => ({ ...o, values: o.values.map((v) => (v.image ? { ...v, image: picture() } : v)) })),
    variants: p.variants.map((v) => (v.image ? { ...v, image: picture() } : v)),
    descriptionHtml: p.descriptionHtml?.replace(
      /(<img\b[^>]*?\bsrc\s*=\s*)(["'])[^"']*\2/gi,
      (_m, head: string, q: string) => `${head}${q}${picture()}${q}`,
    ),
    video: undefined,
  };
}

/**
 * DEMO_COLLECTS listings: every fixture product once, then again under another item id (another seller's listing),
 * each with pictures served by this server at imageBase.
 */
function demoCollects(imageBase: string): CollectedProductInput[] {
  const base = fixtureProducts();
  if (!base.length) return [];
  return Array.from({ length: DEMO_COLLECTS }, (_, i) => {
    const p = withDemoPictures(base[i % base.length], i, imageBase);
    const round = Math.floor(i / base.length);
    if (round === 0) return p;
    const url = new URL(p.sourceUrl);
    url.searchParams.set("demo", String(round + 1));
    return { ...p, itemId: `${p.itemId}-${round + 1}`, sourceUrl: url.toString() };
  });
}

async function connectShop(api: Api, fetchPage: typeof fetch, sandbox: Sandbox): Promise<void> {
  const shops = await api.meliAccount.getAccounts({ MaxResultCount: 1 });
  if (shops.totalCount > 0) return;
  const authUrl = new URL(await api.meli.getAuthUrl({ sites: [1] }));
  const q = authUrl.searchParams;
  // The seller's consent, given in the sandbox as its consent page would.
  const { code } = sandbox.control.grant({
    nickname: DEMO_SHOP,
    site: "MLM",
    redirectUri: q.get("redirect_uri")!,
    codeChallenge: q.get("code_challenge")!,
    codeChallengeMethod: "S256",
  });
  // AuthBack answers the page the authorization window shows, not JSON.
  const back = await fetchPage(await api.client.url("/api/Meli/AuthBack", { code, state: q.get("state")! }));
  const page = await back.text();
  if (!/auth=success/.test(page)) throw new Error(`demo shop not connected: ${page.slice(0, 300)}`);
}

/**
 * The first word of a title found nowhere else: not inside another product's title (the screening matches parts of
 * words) nor in any demo description (it screens those too). It flags exactly one product.
 */
function uniqueWord(titles: string[], descriptions: string[]): { word: string; index: number } | null {
  const texts = titles.map(normalizeWord);
  // Both the raw HTML and its visible text as the screening reads it (entities decoded: "cami&#243;n" is "camión").
  const described = descriptions.map((d) => normalizeWord(`${d}\n${htmlText(d)}`)).join("\n");
  for (const [index, text] of texts.entries()) {
    for (const word of text.match(/[a-zà-ÿ]{4,}/g) ?? []) {
      if (!described.includes(word) && texts.every((other, j) => j === index || !other.includes(word))) return { word, index };
    }
  }
  return null;
}

export type DemoDeps = {
  api: Api;
  fetch: typeof fetch;
  sandbox: Sandbox | null;
  log: FastifyBaseLogger;
  /** Where browsers reach this server (config.publicUrl): the demo pictures' base. */
  imageBase: string;
};

/**
 * Fills the demo tenant; answers the bulk edits it made (labelling), which are the product's doing, not the seller's:
 * the caller takes them off the seller's undo (forgetProductEdits).
 */
export async function fillDemoTenant({ api, fetch, sandbox, log, imageBase }: DemoDeps): Promise<{ editIds: string[] }> {
  if (sandbox) await connectShop(api, fetch, sandbox);

  const collects = demoCollects(imageBase);
  const collected: string[] = [];
  for (const product of collects) collected.push((await api.collect.crawlProductByPlugin(product)).id);
  log.info({ count: collected.length }, "demo: products collected");

  const moving = collected.slice(0, DEMO_PRODUCTS);
  await api.collect.migrateToProduct({ ids: moving });
  const products = (await api.product.getProductsByPage({ maxResultCount: DEMO_PRODUCTS })).items;

  const existing = await api.productLabel.getProductLabels();
  const labelIds = [];
  for (const name of DEMO_LABELS) {
    const found = existing.labels.find((l) => l.name === name);
    labelIds.push(found ? found.id : (await api.productLabel.createOrUpdateProductLabel({ name })).id);
  }
  const editIds: string[] = [];
  for (const [i, labelId] of labelIds.entries()) {
    const tagged = products.slice(i * 4, i * 4 + 4).map((p) => p.id);
    if (!tagged.length) continue;
    const { editId } = await api.product.linkProductLabel({ productIds: tagged, labelId });
    if (editId) editIds.push(editId);
  }

  const flag = uniqueWord(
    products.map((p) => Object.values(p.title ?? {}).join(" ")),
    collects.map((c) => c.descriptionHtml ?? ""),
  );
  if (flag) {
    await api.infringementWord.createIfringementWord({ words: [flag.word] });
    await api.product.screeningforInfringement({ productIds: products.map((p) => p.id) });
  }
  log.info({ products: products.length, flaggedBy: flag?.word ?? null }, "demo: products moved, labelled and screened");
  return { editIds };
}
