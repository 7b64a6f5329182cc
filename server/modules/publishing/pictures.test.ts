// Picture sizes (issue 15): the probe reads real image bytes from a local HTTP server (CRAWL_ALLOW_PRIVATE on for this
// server, as the crawler's tests do), asks for the first 64 KiB only and stops once the header gave the size, keeps
// what it learnt in image_sizes (failures tried again after an hour), keeps to its time budget and refuses private
// addresses without the setting. Then publishing: a picture under 500 px is left out of the item with a warning, and
// a product with only such pictures is skipped with the Chinese reason, whether PreflightPublish or the job probed it.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { imageSizes } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, ean13s, requestAttrs, syncCategories, until } from "../../testing/publish-kit.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import { gifImage, jpegImage, pngImage } from "#shared/images/test-images.ts";
import { imageSizesOf, PROBE_BYTES, probeImageSizes, urlHash } from "./pictures.ts";

let s: TestServer;
let A: TestTenant;
let groupA: string;
let images: Server;
let base: string;
/** Requests the image server received, by path (query included). */
const seen: { path: string; range: string | undefined }[] = [];
/** Responses the client closed before the server wrote them whole. */
const cutShort: string[] = [];
/** Requests the server began to answer, by path (query included), in order. */
const answered: string[] = [];

const files: Record<string, { type: string; body: Uint8Array; ignoreRange?: boolean; delayMs?: number }> = {
  "/big.png": { type: "image/png", body: pngImage(800, 600) },
  "/small.png": { type: "image/png", body: pngImage(300, 300) },
  "/tiny.jpg": { type: "image/jpeg", body: jpegImage(120, 80) },
  "/tall.jpg": { type: "image/jpeg", body: jpegImage(40, 1000, { exifBytes: 20_000 }) },
  "/huge-exif.jpg": { type: "image/jpeg", body: jpegImage(900, 900, { exifBytes: 70_000 }) },
  "/whole.gif": { type: "image/gif", body: gifImage(1000, 1000), ignoreRange: true },
  "/page.html": { type: "text/html", body: new TextEncoder().encode("<html><body>no picture here</body></html>") },
  "/slow.png": { type: "image/png", body: pngImage(700, 700), delayMs: 3000 },
};

function serve(req: IncomingMessage, res: import("node:http").ServerResponse) {
  const url = new URL(req.url ?? "/", "http://x");
  seen.push({ path: url.pathname + url.search, range: req.headers.range });
  if (url.pathname === "/moved") {
    res.writeHead(302, { location: "/big.png" });
    return res.end();
  }
  const file = files[url.pathname];
  if (!file) {
    res.writeHead(404, { "content-type": "text/plain" });
    return res.end("not found");
  }
  const send = () => {
    answered.push(url.pathname + url.search);
    res.on("close", () => {
      if (!res.writableFinished) cutShort.push(url.pathname);
    });
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
    if (range && !file.ignoreRange) {
      const part = file.body.subarray(Number(range[1]), Number(range[2]) + 1);
      res.writeHead(206, {
        "content-type": file.type,
        "content-range": `bytes ${range[1]}-${Number(range[1]) + part.length - 1}/${file.body.length}`,
        "content-length": part.length,
      });
      return res.end(part);
    }
    res.writeHead(200, { "content-type": file.type, "content-length": file.body.length });
    // In pieces, as a large file arrives over a network.
    let at = 0;
    const next = () => {
      if (res.destroyed) return;
      if (at >= file.body.length) return res.end();
      res.write(file.body.subarray(at, (at += 16 * 1024)), () => setTimeout(next, 10));
    };
    next();
  };
  if (file.delayMs) setTimeout(send, file.delayMs);
  else send();
}

const u = (path: string) => `${base}${path}`;
const allow = { allowPrivate: true };

beforeAll(async () => {
  images = createServer(serve);
  await new Promise<void>((r) => images.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  const crawl = { ...loadConfig({ TOKEN_SIGNING_KEY: "x".repeat(40), DATA_DIR: "/tmp/erp-pictures-config" }).crawl };
  s = await startTestServer({ crawl: { ...crawl, allowPrivate: true } });
}, 180_000);
afterAll(async () => {
  await s?.close();
  images?.closeAllConnections();
  await new Promise((r) => images?.close(r));
});

describe("probeImageSizes", () => {
  it("reads each picture's size from its first bytes and keeps it, failures with their error", async () => {
    const urls = ["/big.png", "/small.png", "/tall.jpg", "/moved", "/whole.gif", "/huge-exif.jpg", "/page.html", "/gone.png"].map(u);
    const stored = await probeImageSizes(s.database.db, [...urls, urls[0], "not a url", ""], { budgetMs: 5000, fetch: allow });
    expect(stored).toBe(urls.length);
    const sizes = await imageSizesOf(s.database.db, urls);
    expect(Object.fromEntries([...sizes].map(([k, v]) => [k.slice(base.length), v]))).toEqual({
      "/big.png": { width: 800, height: 600 },
      "/small.png": { width: 300, height: 300 },
      "/tall.jpg": { width: 40, height: 1000 },
      "/moved": { width: 800, height: 600 }, // the redirect's target, kept under the URL the product names
      "/whole.gif": { width: 1000, height: 1000 },
      "/huge-exif.jpg": null, // the frame header lies past the first 64 KiB
      "/page.html": null,
      "/gone.png": null,
    });
    const errors = await inScope(s.database.db, hostAllScope, (tx) =>
      tx.select({ url: imageSizes.url, error: imageSizes.error }).from(imageSizes).where(inArray(imageSizes.url, urls)),
    );
    const errorOf = (path: string) => errors.find((e) => e.url === u(path))?.error;
    expect(errorOf("/gone.png")).toBe("HTTP 404");
    expect(errorOf("/page.html")).toBe("not a readable image");
    expect(errorOf("/big.png")).toBeNull();
    // Only the first 64 KiB is asked for; a server that ignores Range is cut off once the header gave the size.
    expect(seen.find((r) => r.path === "/big.png")?.range).toBe(`bytes=0-${PROBE_BYTES - 1}`);
    expect(files["/whole.gif"].body.length).toBeGreaterThan(4 * PROBE_BYTES);
    await until(
      async () => cutShort,
      (c) => c.includes("/whole.gif"),
      "whole.gif cut short",
    );
    // The row is keyed by the URL's sha256.
    const [row] = await inScope(s.database.db, hostAllScope, (tx) =>
      tx
        .select()
        .from(imageSizes)
        .where(eq(imageSizes.urlHash, urlHash(u("/big.png")))),
    );
    expect(row).toMatchObject({ url: u("/big.png"), width: 800, height: 600 });
  });

  it("answers from the cache: a size is kept, a failure is tried again after an hour", async () => {
    const urls = ["/big.png", "/gone.png", "/page.html"].map(u);
    await probeImageSizes(s.database.db, urls, { budgetMs: 5000, fetch: allow });
    const before = seen.length;
    expect(await probeImageSizes(s.database.db, urls, { budgetMs: 5000, fetch: allow })).toBe(0);
    expect(seen.length).toBe(before);
    await inScope(s.database.db, hostAllScope, (tx) =>
      tx
        .update(imageSizes)
        .set({ checkedAt: sql`now() - interval '61 minutes'` })
        .where(inArray(imageSizes.url, urls)),
    );
    expect(await probeImageSizes(s.database.db, urls, { budgetMs: 5000, fetch: allow })).toBe(2);
    expect(
      seen
        .slice(before)
        .map((r) => r.path)
        .sort(),
    ).toEqual(["/gone.png", "/page.html"]);
  });

  it("keeps to its budget: what it did not finish stays unknown; a URL past its own timeout is kept as failed", async () => {
    expect(await probeImageSizes(s.database.db, [u("/slow.png?budget")], { budgetMs: 400, fetch: allow })).toBe(0);
    expect(seen.map((r) => r.path)).toContain("/slow.png?budget");
    expect(answered).not.toContain("/slow.png?budget"); // it gave up before the picture's answer began
    expect((await imageSizesOf(s.database.db, [u("/slow.png?budget")])).has(u("/slow.png?budget"))).toBe(false);

    expect(
      await probeImageSizes(s.database.db, [u("/slow.png?own"), u("/small.png?own")], { budgetMs: 2500, timeoutMs: 300, fetch: allow }),
    ).toBe(2);
    const sizes = await imageSizesOf(s.database.db, [u("/slow.png?own"), u("/small.png?own")]);
    expect(sizes.get(u("/slow.png?own"))).toBeNull();
    expect(sizes.get(u("/small.png?own"))).toEqual({ width: 300, height: 300 });
  });

  it("leaves a host it could not reach alone: its other pictures stay unknown, a slow picture does not count", async () => {
    // A name that resolves (counted) to a port nothing listens on: the connection is refused before it is made.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    let lookups = 0;
    const resolveHost = (h: string) => (h === "down.pictures.test" ? (lookups++, "127.0.0.1") : undefined);
    const down = ["a", "b", "c"].map((n) => `http://down.pictures.test:${port}/${n}.png`);
    // The app's down hosts (deps.ts gives each app one): the second probe remembers what the first met.
    const opts = { budgetMs: 5000, concurrency: 1, fetch: { ...allow, resolveHost, downHosts: new Map() } };
    expect(await probeImageSizes(s.database.db, [...down, u("/big.png?down")], opts)).toBe(2);
    expect(lookups).toBe(1);
    const sizes = await imageSizesOf(s.database.db, [...down, u("/big.png?down")]);
    expect(sizes.get(down[0])).toBeNull(); // the one tried is kept as failed
    expect(sizes.has(down[1]) || sizes.has(down[2])).toBe(false); // the others unknown, not failed
    expect(sizes.get(u("/big.png?down"))).toEqual({ width: 800, height: 600 }); // other hosts go on
    expect(await probeImageSizes(s.database.db, down, opts)).toBe(0);
    expect(lookups).toBe(1);
    // Another app's down hosts do not know this one: its probe tries the host (and finds it down too).
    expect(await probeImageSizes(s.database.db, down.slice(1), { ...opts, fetch: { ...opts.fetch, downHosts: new Map() } })).toBe(1);
    expect(lookups).toBe(2);

    // A picture that connects but answers late fails alone: the next one of its host is still fetched.
    const slowFirst = [u("/slow.png?alone"), u("/small.png?alone")];
    expect(await probeImageSizes(s.database.db, slowFirst, { budgetMs: 2500, timeoutMs: 300, concurrency: 1, fetch: allow })).toBe(2);
    expect((await imageSizesOf(s.database.db, slowFirst)).get(slowFirst[1])).toEqual({ width: 300, height: 300 });
  });

  it("refuses private addresses unless CRAWL_ALLOW_PRIVATE allows them", async () => {
    const port = Number(new URL(base).port);
    const before = seen.length;
    const urls = [`${base}/big.png?guard`, `http://localhost:${port}/big.png?guard`];
    await probeImageSizes(s.database.db, urls, { budgetMs: 3000, fetch: { allowPrivate: false, allowPorts: [port] } });
    expect(seen.length).toBe(before);
    const rows = await inScope(s.database.db, hostAllScope, (tx) =>
      tx.select({ error: imageSizes.error, width: imageSizes.width }).from(imageSizes).where(inArray(imageSizes.url, urls)),
    );
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.width).toBeNull();
      expect(r.error).toMatch(/^refused: /);
    }
  });

  it("is written by host-side work only: a tenant's transaction reads the cache and cannot change it", async () => {
    const t = await s.createTenant();
    const read = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) => imageSizesOf(tx, [u("/big.png")]));
    expect(read.get(u("/big.png"))).toEqual({ width: 800, height: 600 });
    await expect(
      inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
        tx.insert(imageSizes).values({ urlHash: urlHash("https://x.example/a.jpg"), url: "https://x.example/a.jpg", width: 9, height: 9 }),
      ),
    ).rejects.toThrow();
    const changed = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx
        .update(imageSizes)
        .set({ width: 1 })
        .where(eq(imageSizes.url, u("/big.png")))
        .returning(),
    );
    expect(changed).toEqual([]);
  });
});

describe("publishing with picture sizes", () => {
  const leaf = () => plainLeaf(s.deps.sandbox!, "MLM");
  const attrsOf = () => requestAttrs(leaf());
  const request = (ids: string[]) => ({
    accountGroupId: groupA,
    sites: [1],
    productIds: ids,
    cateInfo: [{ site: 1, cateId: leaf().id, attrs: attrsOf() }],
  });
  async function product(title: string, pictures: string[]): Promise<string> {
    const res = await s.api("POST", "/api/Product/CreateOrUpdateProduct", {
      token: A.token,
      body: { title: { es: title }, price: 100, currency: "CNY", stock: 3, weight: 300, size: "20x10x10", images: pictures },
    });
    expect(res.status, res.raw).toBe(200);
    return res.body.result.id;
  }
  async function publishAndWait(ids: string[]) {
    const res = await s.api("POST", "/api/MeliStatNew/Publish", { token: A.token, body: request(ids) });
    expect(res.status, res.raw).toBe(200);
    const batchId = res.body.result.id;
    await until(
      async () =>
        (await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: A.token, body: {} })).body.result.items.find(
          (b: { id: string }) => b.id === batchId,
        ),
      (b) => b.status !== PublishBatchStatus.Queued && b.status !== PublishBatchStatus.Running,
      "publish batch",
    );
    return (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId } })).body.result.items;
  }
  /** The source URLs of an item's pictures, as the sandbox downloaded them. */
  const sourcesOf = (itemId: string) =>
    s.deps.sandbox!.store.state.items.get(itemId)!.pictures.map((p: { id: string }) => s.deps.sandbox!.store.state.pictures.get(p.id)!.url);

  beforeAll(async () => {
    A = await s.createTenant();
    await syncCategories(s, [1]);
    groupA = await connectPublishingShop(s, A, { nickname: "PICTURESELLER", site: "MLM", sites: [1] }, ean13s(6));
  }, 180_000);

  it("PreflightPublish probes the pictures: a small one is left out with a warning, only small ones refuse the pair", async () => {
    const mixed = await product("Lámpara de mesa con pantalla", [u("/small.png?p1"), u("/big.png?p1"), u("/gone.png?p1")]);
    const onlySmall = await product("Taza pequeña de cerámica", [u("/small.png?p2"), u("/tiny.jpg?p2")]);
    const res = await s.api("POST", "/api/MeliStatNew/PreflightPublish", { token: A.token, body: request([mixed, onlySmall]) });
    expect(res.status, res.raw).toBe(200);
    const pairOf = (id: string) => res.body.result.pairs.find((p: { productId: string }) => p.productId === id);
    const problemOf = (id: string, code: string) => pairOf(id).problems.find((p: { code: string }) => p.code === code);
    expect(problemOf(mixed, "pictures.small")).toMatchObject({ severity: "warning", message: "图片尺寸小于500像素，已跳过1张" });
    expect(problemOf(mixed, "pictures.unknownSize")).toMatchObject({ severity: "warning" });
    expect(problemOf(mixed, "pictures.unknownSize").message).toContain("图片尺寸未知");
    expect(pairOf(onlySmall).ok).toBe(false);
    expect(problemOf(onlySmall, "pictures.tooSmall")).toMatchObject({
      severity: "error",
      message: "图片尺寸均小于500像素，没有可发布的图片",
      fix: "product",
    });

    const listings = await publishAndWait([mixed, onlySmall]);
    const live = listings.find((l: { productId: string }) => l.productId === mixed);
    const skipped = listings.find((l: { productId: string }) => l.productId === onlySmall);
    expect(live.status, live.reason).toBe(ListingStatus.Active);
    // The small picture is not sent; the one the probe could not read is (Mercado Libre decides).
    expect(sourcesOf(live.itemId)).toEqual([u("/big.png?p1"), u("/gone.png?p1")]);
    expect(live.image).toBe(u("/big.png?p1"));
    expect(skipped).toMatchObject({ status: ListingStatus.Skipped, itemId: null });
    expect(skipped.reason).toContain("图片尺寸均小于500像素");
  });

  it("the publish job probes pictures not seen before it plans", async () => {
    const mixed = await product("Soporte de metal para celular", [u("/tiny.jpg?j1"), u("/tall.jpg?j1")]);
    const onlySmall = await product("Llavero de acrílico", [u("/tiny.jpg?j2")]);
    const before = s.deps.sandbox!.control.creations().length;
    const listings = await publishAndWait([mixed, onlySmall]);
    const live = listings.find((l: { productId: string }) => l.productId === mixed);
    const skipped = listings.find((l: { productId: string }) => l.productId === onlySmall);
    expect(live.status, live.reason).toBe(ListingStatus.Active);
    expect(sourcesOf(live.itemId)).toEqual([u("/tall.jpg?j1")]);
    expect(skipped).toMatchObject({ status: ListingStatus.Skipped, itemId: null });
    expect(skipped.reason).toContain("图片尺寸均小于500像素");
    expect(s.deps.sandbox!.control.creations().length).toBe(before + 1);
  });
});
