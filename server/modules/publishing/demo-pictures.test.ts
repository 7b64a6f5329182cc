// The demo pictures the app serves itself (/demo-images/<n>.png under PUBLIC_URL) are sized without a fetch, so the
// pre-flight knows them although the probe's SSRF guard refuses private addresses such as localhost; a picture on
// any other private address is still refused, never fetched.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, ean13s, requestAttrs, syncCategories } from "../../testing/publish-kit.ts";
import { demoImageSize, demoImageUrl } from "../demo/demo-images.ts";

let s: TestServer;
let A: TestTenant;
let groupA: string;
let other: Server;
let otherBase: string;
/** Requests the other private server received. */
let otherHits = 0;
const publicUrl = "http://localhost:48123";

beforeAll(async () => {
  other = createServer((_req, res) => {
    otherHits++;
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  const crawl = { ...loadConfig({ TOKEN_SIGNING_KEY: "x".repeat(40), DATA_DIR: "/tmp/erp-demo-pictures-config" }).crawl };
  s = await startTestServer({ crawl: { ...crawl, allowPrivate: false }, publicUrl });
  A = await s.createTenant();
  await syncCategories(s, [1]);
  groupA = await connectPublishingShop(s, A, { nickname: "DEMOPICSELLER", site: "MLM", sites: [1] }, ean13s(2));
}, 180_000);
afterAll(async () => {
  await s?.close();
  other?.closeAllConnections();
  await new Promise((r) => other?.close(r));
});

describe("demo pictures in the pre-flight", () => {
  it("knows the size of the app's own demo pictures only", () => {
    expect(demoImageSize(demoImageUrl(publicUrl, 4), publicUrl)).toEqual({ width: 600, height: 600 });
    expect(demoImageSize(`${publicUrl}/demo-images/12.png`, publicUrl)).toBeUndefined();
    expect(demoImageSize(`${publicUrl}/demo-images/4.png?x=1`, publicUrl)).toBeUndefined();
    expect(demoImageSize(`${otherBase}/demo-images/4.png`, publicUrl)).toBeUndefined();
  });

  it("shows no 图片尺寸未知 for demo pictures, and still refuses another private address without fetching it", async () => {
    const leaf = plainLeaf(s.deps.sandbox!, "MLM");
    const create = async (title: string, images: string[]) => {
      const res = await s.api("POST", "/api/Product/CreateOrUpdateProduct", {
        token: A.token,
        body: { title: { es: title }, price: 100, currency: "CNY", stock: 3, weight: 300, size: "20x10x10", images },
      });
      expect(res.status, res.raw).toBe(200);
      return res.body.result.id as string;
    };
    const demo = await create("Bocina portátil de demostración", [demoImageUrl(publicUrl, 1), demoImageUrl(publicUrl, 2)]);
    const privateOne = await create("Taza de cerámica con tapa", [`${otherBase}/mug.png`]);
    const res = await s.api("POST", "/api/MeliStatNew/PreflightPublish", {
      token: A.token,
      body: {
        accountGroupId: groupA,
        sites: [1],
        productIds: [demo, privateOne],
        cateInfo: [{ site: 1, cateId: leaf.id, attrs: requestAttrs(leaf) }],
      },
    });
    expect(res.status, res.raw).toBe(200);
    const codesOf = (id: string) =>
      res.body.result.pairs.find((p: { productId: string }) => p.productId === id).problems.map((p: { code: string }) => p.code);
    expect(codesOf(demo)).not.toContain("pictures.unknownSize");
    expect(codesOf(demo)).not.toContain("pictures.small");
    expect(codesOf(privateOne)).toContain("pictures.unknownSize");
    expect(otherHits).toBe(0);
  });
});
