// The demo pictures are real PNGs drawn by the server (no image host needed offline), served publicly by number.
import { inflateSync } from "node:zlib";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { DEMO_IMAGE_COUNT, demoImageUrl, drawDemoImage, registerDemoImages } from "./demo-images.ts";

/** The PNG's chunks by type, read from its bytes. */
function chunks(png: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    out.set(png.toString("ascii", at + 4, at + 8), png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return out;
}

describe("demo pictures", () => {
  it("draws a 600×600 RGB PNG whose pixels are a product on a background", () => {
    const png = drawDemoImage(0);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const parts = chunks(png);
    const header = parts.get("IHDR")!;
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([600, 600, 8, 2]);
    const raw = inflateSync(parts.get("IDAT")!);
    expect(raw.length).toBe(600 * (600 * 3 + 1));
    const pixel = (x: number, y: number) => [...raw.subarray(y * 1801 + 1 + x * 3, y * 1801 + 4 + x * 3)];
    expect(pixel(300, 250)).not.toEqual(pixel(5, 5));
    expect(parts.has("IEND")).toBe(true);
  });

  it("gives different products different pictures", () => {
    expect(drawDemoImage(1).equals(drawDemoImage(2))).toBe(false);
    expect(demoImageUrl("http://localhost:3000/", DEMO_IMAGE_COUNT + 1)).toBe("http://localhost:3000/demo-images/1.png");
  });

  it("serves them without a login and answers 404 for any other name", async () => {
    const app = Fastify();
    registerDemoImages(app);
    const ok = await app.inject({ method: "GET", url: "/demo-images/3.png" });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["content-type"]).toBe("image/png");
    expect(ok.rawPayload.equals(drawDemoImage(3))).toBe(true);
    for (const name of [`${DEMO_IMAGE_COUNT}.png`, "1.jpg", "..%2Fsecret"]) {
      expect((await app.inject({ method: "GET", url: `/demo-images/${name}` })).statusCode).toBe(404);
    }
    await app.close();
  });
});
