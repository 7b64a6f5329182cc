// Answers are compressed as the client accepts (issue 29): brotli or gzip above 1 KB, plain below it or when the client
// accepts neither, and never the live progress stream (a compressor would hold its events back).
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENTS_PATH } from "#shared/contract/events.ts";
import { startTestServer, type TestServer, type TestTenant } from "../testing/harness.ts";

let s: TestServer;
let a: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
});
afterAll(() => s?.close());

const get = (url: string, encoding?: string) =>
  s.app.inject({ method: "GET", url, headers: encoding ? { "accept-encoding": encoding } : {} });

describe("compressed answers", () => {
  it("sends a large answer in brotli or gzip as accepted, the same JSON once decoded", async () => {
    const plain = await get("/swagger/json");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const doc = JSON.parse(plain.body);

    const br = await get("/swagger/json", "br, gzip");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString("utf8"))).toEqual(doc);

    const gz = await get("/swagger/json", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString("utf8"))).toEqual(doc);
  });

  it("leaves a small answer plain", async () => {
    const res = await get("/health", "br, gzip");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.json()).toMatchObject({ status: "ok" });
  });

  it("leaves the live progress stream plain", async () => {
    const address = await s.app.listen({ port: 0, host: "127.0.0.1" });
    const abort = new AbortController();
    try {
      const res = await fetch(`${address}${EVENTS_PATH}`, {
        headers: { authorization: `Bearer ${a.token}`, "accept-encoding": "br, gzip" },
        signal: abort.signal,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(res.headers.get("content-encoding")).toBeNull();
    } finally {
      abort.abort();
    }
  });
});
