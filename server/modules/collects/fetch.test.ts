// The crawler's SSRF guard (RELIABILITY.md §13): the corpus of internal targets is refused before any connection is
// made (a loopback server counts the connections that reach it), a redirect to an internal address is refused, and
// the limits on ports, schemes, body size and time hold.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrawlError, checkUrl, crawlFetch, createHostQueues, isPublicAddress, type CrawlFetchOptions } from "./fetch.ts";

/** 50 MB of "a" in about 50 KB of gzip; made once, so the test server's own allocation is not counted as the client's. */
const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x61));

let target: Server;
let port: number;
let connections = 0;
let internal: Server;
let internalPort: number;
let internalConnections = 0;
const report: string[] = [];

beforeAll(async () => {
  target = createServer((req, res) => {
    if (req.url === "/big") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("x".repeat(300 * 1024));
    } else if (req.url === "/bomb") {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
      res.end(bomb);
    } else if (req.url === "/slow") {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<html>");
      setTimeout(() => res.end("</html>"), 5000).unref();
    } else if (req.url === "/to-internal") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      res.end();
    } else if (req.url === "/to-v6-loopback") {
      res.writeHead(301, { location: `http://[::1]:${port}/secret` });
      res.end();
    } else if (req.url === "/to-second-loopback") {
      res.writeHead(307, { location: `http://127.0.0.2:${internalPort}/admin` });
      res.end();
    } else if (req.url === "/to-file") {
      res.writeHead(302, { location: "file:///etc/passwd" });
      res.end();
    } else if (req.url === "/loop") {
      res.writeHead(302, { location: "/loop" });
      res.end();
    } else if (req.url === "/image") {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(Buffer.alloc(10));
    } else if (req.url === "/gbk") {
      res.writeHead(200, { "content-type": "text/html; charset=gbk" });
      res.end(Buffer.from([0xc4, 0xe3, 0xba, 0xc3])); // 你好
    } else {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<html><title>ok</title></html>");
    }
  });
  target.on("connection", () => connections++);
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  port = (target.address() as AddressInfo).port;
  internal = createServer((_req, res) => res.end("internal secret"));
  internal.on("connection", () => internalConnections++);
  await new Promise<void>((r) => internal.listen(0, "127.0.0.2", r));
  internalPort = (internal.address() as AddressInfo).port;
});
afterAll(async () => {
  console.log("[security] SSRF corpus\n  " + report.join("\n  "));
  await new Promise((r) => target.close(r));
  await new Promise((r) => internal.close(r));
});

const strict: CrawlFetchOptions = {
  allowPrivate: false,
  timeoutMs: 3000,
  maxBodyBytes: 256 * 1024,
  maxRedirects: 3,
  perHostConcurrency: 2,
};
const loose: CrawlFetchOptions = { ...strict, allowPrivate: true };
/** The per-host queues these fetches wait in (the crawler makes one per app). */
const hosts = createHostQueues();

async function refusal(url: string, opts = strict): Promise<CrawlError> {
  try {
    await crawlFetch(url, opts, hosts);
  } catch (e) {
    expect(e).toBeInstanceOf(CrawlError);
    return e as CrawlError;
  }
  throw new Error(`fetched ${url}`);
}

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.8",
    "172.16.5.4",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "192.0.2.10",
    "198.18.0.1",
    "::",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::ffff:10.1.2.3",
    "::127.0.0.1",
    "64:ff9b::10.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    "2001:db8::1",
    "2002:7f00:1::1",
    "2001:0:4136:e378::1",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["8.8.8.8", "47.246.0.1", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "2400:3200::1"])(
    "allows %s",
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe("checkUrl", () => {
  it.each([
    ["file:///etc/passwd", "scheme file"],
    ["gopher://127.0.0.1:70/_x", "scheme gopher"],
    ["ftp://example.com/a", "scheme ftp"],
    ["javascript:alert(1)", "scheme javascript"],
    ["http://user:pw@example.com/", "credentials"],
    ["http://example.com:8080/", "port 8080"],
    ["https://example.com:22/", "port 22"],
    ["not a url", "not a valid URL"],
  ])("refuses %s", (url, why) => {
    expect(() => checkUrl(url, { allowPrivate: false })).toThrow(why);
  });

  it("allows http and https on their own ports", () => {
    expect(checkUrl("http://example.com:80/a", { allowPrivate: false }).href).toBe("http://example.com/a");
    expect(checkUrl("https://example.com/a", { allowPrivate: false }).href).toBe("https://example.com/a");
  });
});

describe("crawlFetch refuses the SSRF corpus with 0 connections (scenario 13)", () => {
  it("refuses every internal target before connecting", async () => {
    const before = connections;
    const corpus = [
      `http://127.0.0.1/`,
      `http://127.0.0.1:${port}/`,
      `http://[::1]/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:169.254.169.254]/latest/meta-data/`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://2130706433/`, // 127.0.0.1 as one number
      `http://0x7f.0.0.1/`,
      `http://017700000001/`,
      `http://localhost/`, // a name resolving to a private address
      `http://localhost:${port}/`,
      `http://10.0.0.1/`,
      `http://0.0.0.0/`,
      `file:///etc/passwd`,
      `gopher://127.0.0.1:${port}/_GET`,
      `dict://127.0.0.1:${port}/`,
    ];
    let blocked = 0;
    for (const url of corpus) {
      const e = await refusal(url);
      expect(e.kind, `${url}: ${e.message}`).toBe("refused");
      expect(e.retry).toBe(false);
      blocked++;
    }
    expect(connections - before).toBe(0);
    report.push(`blocked / tried: ${blocked}/${corpus.length}, connections made: ${connections - before}`);
  });

  it("refuses a redirect to an internal address: every hop is checked again (the first hop plays a public site)", async () => {
    // 127.0.0.1 on the test port plays a public site; the internal server on 127.0.0.2 must never see a connection.
    const opts: CrawlFetchOptions = { ...strict, treatAsPublic: (a) => a === "127.0.0.1", allowPorts: [port, internalPort] };
    expect((await crawlFetch(`http://127.0.0.1:${port}/`, opts, hosts)).status).toBe(200); // control: the first hop is fetchable
    const before = internalConnections;
    for (const path of ["/to-internal", "/to-v6-loopback", "/to-second-loopback"]) {
      const e = await refusal(`http://127.0.0.1:${port}${path}`, opts);
      expect(e.kind, `${path}: ${e.message}`).toBe("refused");
    }
    expect((await refusal(`http://127.0.0.1:${port}/to-file`, opts)).message).toContain("scheme file");
    expect(internalConnections - before).toBe(0);
    report.push(`redirects to internal addresses refused: 4/4, connections to the internal server: ${internalConnections - before}`);
  });

  it("stops a redirect loop", async () => {
    expect((await refusal(`http://127.0.0.1:${port}/loop`, loose)).message).toContain("more than 3 redirects");
  });
});

describe("crawlFetch limits", () => {
  it("fetches a page and decodes its charset", async () => {
    const ok = await crawlFetch(`http://127.0.0.1:${port}/`, loose, hosts);
    expect(ok).toMatchObject({ status: 200, html: "<html><title>ok</title></html>" });
    expect((await crawlFetch(`http://127.0.0.1:${port}/gbk`, loose, hosts)).html).toBe("你好");
  });

  it("caps the body, after decompression too (a gzip bomb)", async () => {
    expect((await refusal(`http://127.0.0.1:${port}/big`, loose)).kind).toBe("too-large");
    const rss = process.memoryUsage().rss;
    expect((await refusal(`http://127.0.0.1:${port}/bomb`, loose)).kind).toBe("too-large");
    expect(process.memoryUsage().rss - rss).toBeLessThan(40 * 1024 * 1024);
  });

  it("gives up at the deadline and says a retry may help", async () => {
    const e = await refusal(`http://127.0.0.1:${port}/slow`, { ...loose, timeoutMs: 500 });
    expect(e.kind).toBe("timeout");
    expect(e.retry).toBe(true);
  });

  it("refuses what is not a web page", async () => {
    expect((await refusal(`http://127.0.0.1:${port}/image`, loose)).kind).toBe("not-html");
  });

  it("reports an unknown host as final", async () => {
    const e = await refusal("https://no-such-host.invalid/item/1", strict);
    expect(e.retry).toBe(false);
  });
});

describe("per-host queues", () => {
  /** Whether a promise has settled after the current turns of the event loop (no clock). */
  const settled = async (p: Promise<unknown>) => {
    let done = false;
    void p.then(() => (done = true));
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    return done;
  };

  it("lets a host's next request wait for a slot, passes the slot on release, and keeps hosts and queues apart", async () => {
    const q = createHostQueues();
    const first = await q.acquire("shop.example:443", 2);
    const second = await q.acquire("shop.example:443", 2);
    const third = q.acquire("shop.example:443", 2);
    expect(await settled(third)).toBe(false); // both slots taken
    // Another host, and the same host in another app's queues, do not wait.
    expect(await settled(q.acquire("other.example:443", 1))).toBe(true);
    expect(await settled(createHostQueues().acquire("shop.example:443", 1))).toBe(true);
    first();
    expect(await settled(third)).toBe(true); // the released slot went to the waiter
    const fourth = q.acquire("shop.example:443", 2);
    expect(await settled(fourth)).toBe(false); // still two at once: second and third
    second();
    expect(await settled(fourth)).toBe(true);
  });
});
