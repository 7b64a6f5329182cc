// The crawler's fetch with its SSRF guard (COLLECTION.md "Crawler safety", RELIABILITY.md §13). Users type these URLs,
// so: only http and https on their usual ports; the host is resolved here and every address it resolves to must be a
// public unicast address (no private, loopback, link-local, multicast or reserved ranges, IPv4-mapped and other
// IPv6 forms of them included), and the socket connects to the address that was checked (no second lookup to rebind);
// redirects are followed by hand and each one is checked again; the body is capped after decompression, the whole
// fetch has a deadline, and the crawler makes only a few requests to one host at a time. `allowPrivate`
// (CRAWL_ALLOW_PRIVATE=1) lifts the address and port checks, for tests and local fixtures only.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import zlib from "node:zlib";

export type CrawlFetchOptions = {
  allowPrivate: boolean;
  timeoutMs: number;
  maxBodyBytes: number;
  maxRedirects: number;
  perHostConcurrency: number;
  /** Tests only: an address this returns true for counts as public (a loopback server playing a public site). */
  treatAsPublic?: (address: string) => boolean;
  /** Tests only: ports allowed besides 80 and 443 (the test server's). */
  allowPorts?: number[];
  /** Tests only: the address of a host name instead of DNS (as Chromium's --host-resolver-rules); still checked. */
  resolveHost?: (hostname: string) => string | undefined;
};

export type CrawlResponse = { url: string; status: number; contentType: string; html: string; redirects: string[] };

/** Why a fetch failed: `retry` says whether trying again later may help (network trouble, 429, 5xx). */
export class CrawlError extends Error {
  constructor(
    message: string,
    readonly kind: "refused" | "network" | "http" | "too-large" | "timeout" | "not-html",
    readonly retry: boolean,
    readonly status?: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

const refused = (why: string) => new CrawlError(`refused: ${why}`, "refused", false);

// ---------------------------------------------------------------------------------------------------------------
// Addresses.

const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata 169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blockedV4.addSubnet(net, prefix, "ipv4");
}

const blockedV6 = new BlockList();
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4 (embeds an IPv4 address that is not checked here)
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  blockedV6.addSubnet(net, prefix, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address (any textual form, embedded IPv4 included), or null. */
function ipv6Groups(address: string): number[] | null {
  let a = address.toLowerCase().replace(/^\[|\]$/g, "");
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (v4) {
    const parts = v4[1].split(".").map(Number);
    if (parts.some((p) => p > 255)) return null;
    a = a.slice(0, -v4[1].length) + `${((parts[0] << 8) | parts[1]).toString(16)}:${((parts[2] << 8) | parts[3]).toString(16)}`;
  }
  const halves = a.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null;
  const groups = [...head, ...Array(fill).fill("0"), ...tail].map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return groups.length === 8 && groups.every((g) => Number.isFinite(g)) ? groups : null;
}

/**
 * Whether an address may be fetched: a public IPv4 address, or a global IPv6 unicast address (2000::/3) outside the
 * special ranges. IPv4 inside IPv6 (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96) is judged as the
 * IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address.replace(/^\[|\]$/g, "").split("%")[0]);
  if (family === 4) return !blockedV4.check(address, "ipv4");
  if (family !== 6) return false;
  const g = ipv6Groups(address);
  if (!g) return false;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return isPublicAddress(v4(g[6], g[7])); // ::ffff:a.b.c.d
  if (zeros(6)) return g[6] === 0 && g[7] <= 1 ? false : isPublicAddress(v4(g[6], g[7])); // ::a.b.c.d, ::, ::1
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isPublicAddress(v4(g[6], g[7])); // NAT64
  if ((g[0] & 0xe000) !== 0x2000) return false; // not global unicast
  const text = g.map((x) => x.toString(16)).join(":");
  return !blockedV6.check(text, "ipv6");
}

// ---------------------------------------------------------------------------------------------------------------
// URLs.

/** Parses and checks a URL's form: http(s), no credentials, the usual port unless private fetching is allowed. */
export function checkUrl(raw: string, opts: Pick<CrawlFetchOptions, "allowPrivate" | "allowPorts">): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw refused("not a valid URL");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw refused(`scheme ${u.protocol.replace(/:$/, "")} is not allowed`);
  if (u.username || u.password) throw refused("credentials in the URL are not allowed");
  if (!u.hostname) throw refused("no host");
  if (u.port && !opts.allowPrivate && !opts.allowPorts?.includes(Number(u.port)))
    throw refused(`port ${u.port} is not allowed (only 80 for http and 443 for https)`);
  return u;
}

export function allowed(address: string, opts: CrawlFetchOptions): boolean {
  return opts.allowPrivate || isPublicAddress(address) || !!opts.treatAsPublic?.(address);
}

/**
 * A lookup for the socket that resolves the name once, refuses the host when any of its addresses is not public, and
 * hands the checked addresses to the connection (so it cannot be pointed elsewhere between check and connect).
 */
export function guardedLookup(opts: CrawlFetchOptions): LookupFunction {
  return (hostname, options, callback) => {
    const mapped = opts.resolveHost?.(hostname);
    const resolve = mapped
      ? (_h: string, _o: object, cb: (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) =>
          cb(null, [{ address: mapped, family: isIP(mapped) }])
      : dnsLookup;
    resolve(hostname, { all: true, verbatim: true }, (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      if (!addresses.length) return callback(Object.assign(new Error("no address"), { code: "ENOTFOUND" }), "", 0);
      const bad = addresses.find((a) => !allowed(a.address, opts));
      if (bad) return callback(refused(`${hostname} resolves to a non-public address (${bad.address})`), "", 0);
      const family = typeof options === "object" ? options.family : undefined;
      const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      const first = usable[0] ?? addresses[0];
      callback(null, first.address, first.family);
    });
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Per-host concurrency: the crawler's own queues (one per app, made by createCrawler), so its jobs make only a few
// requests to one host at a time; nothing of them lives in the module, so two apps in one process (tests) share none.

/** Who is fetching from which host right now, and who waits for a slot. */
export type HostQueues = { acquire(host: string, limit: number): Promise<() => void> };

export function createHostQueues(): HostQueues {
  const active = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();
  return {
    async acquire(host, limit) {
      if ((active.get(host) ?? 0) >= limit) {
        await new Promise<void>((resolve) => waiting.set(host, [...(waiting.get(host) ?? []), resolve]));
      } else {
        active.set(host, (active.get(host) ?? 0) + 1);
      }
      return () => {
        const next = waiting.get(host)?.shift();
        if (next)
          next(); // the slot passes to the next waiter
        else {
          const n = (active.get(host) ?? 1) - 1;
          if (n <= 0) active.delete(host);
          else active.set(host, n);
        }
        if (waiting.get(host)?.length === 0) waiting.delete(host);
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Fetching.

const userAgent =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 MeliErpCrawler/1";

type OneResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer | null };

function requestOnce(u: URL, opts: CrawlFetchOptions, deadline: number): Promise<OneResponse> {
  return new Promise((resolveOnce, rejectOnce) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const resolve = (v: OneResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolveOnce(v);
    };
    const reject = (e: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      rejectOnce(e);
    };
    const host = u.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && !allowed(host, opts)) return reject(refused(`address ${host} is not public`));
    const mod = u.protocol === "https:" ? https : http;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new CrawlError("timeout", "timeout", true));
    const req = mod.request(
      u,
      {
        method: "GET",
        lookup: guardedLookup(opts),
        agent: false,
        headers: {
          "user-agent": userAgent,
          accept: "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8",
          "accept-language": "zh-CN,zh;q=0.9,en;q=0.8",
          "accept-encoding": "gzip, deflate, br",
        },
        timeout: remaining,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ status, headers: res.headers, body: null });
        }
        const encoding = String(res.headers["content-encoding"] ?? "").toLowerCase();
        const declared = Number(res.headers["content-length"] ?? 0);
        if (!encoding && declared > opts.maxBodyBytes) {
          res.destroy();
          return reject(new CrawlError(`response larger than ${opts.maxBodyBytes} bytes`, "too-large", false));
        }
        let stream: NodeJS.ReadableStream = res;
        if (encoding === "gzip" || encoding === "x-gzip") stream = res.pipe(zlib.createGunzip());
        else if (encoding === "deflate") stream = res.pipe(zlib.createInflate());
        else if (encoding === "br") stream = res.pipe(zlib.createBrotliDecompress());
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBodyBytes) {
            res.destroy();
            (stream as unknown as { destroy?: () => void }).destroy?.();
            reject(new CrawlError(`response larger than ${opts.maxBodyBytes} bytes`, "too-large", false));
            return;
          }
          chunks.push(chunk);
        });
        stream.on("end", () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks) }));
        stream.on("error", (e: Error) => reject(new CrawlError(`bad response body: ${e.message}`, "network", true)));
        res.on("error", (e: Error) => reject(new CrawlError(`connection error: ${e.message}`, "network", true)));
      },
    );
    // The deadline covers the whole fetch (a slow trickle of bytes too), not only an idle socket.
    timer = setTimeout(() => {
      const e = new CrawlError(`no complete answer within ${opts.timeoutMs} ms`, "timeout", true);
      req.destroy(e);
      reject(e);
    }, remaining);
    req.on("timeout", () => req.destroy(new CrawlError("timeout", "timeout", true)));
    req.on("error", (e: Error & { code?: string }) => {
      if (e instanceof CrawlError) return reject(e);
      if (e.code === "ENOTFOUND") return reject(new CrawlError(`host ${u.hostname} not found`, "network", false));
      reject(new CrawlError(`network error: ${e.code ?? e.message}`, "network", true));
    });
    req.end();
  });
}

/** The charset of a response: the Content-Type header's, else a <meta> in the first bytes, else UTF-8. */
function decode(body: Buffer, contentType: string): string {
  const fromHeader = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  const head = body.subarray(0, 4096).toString("latin1");
  const fromMeta = /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1];
  const charset = (fromHeader ?? fromMeta ?? "utf-8").toLowerCase();
  try {
    return new TextDecoder(charset === "gb2312" ? "gbk" : charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

function retryAfter(headers: http.IncomingHttpHeaders): number | undefined {
  const v = headers["retry-after"];
  if (!v) return undefined;
  const n = Number(v);
  if (Number.isFinite(n)) return Math.min(3600, Math.max(0, n));
  const t = Date.parse(String(v));
  return Number.isFinite(t) ? Math.min(3600, Math.max(0, (t - Date.now()) / 1000)) : undefined;
}

/**
 * Fetches a page through the guard, following up to maxRedirects redirects, each checked like the first URL; each
 * request waits for a slot of its host in `hosts` (at most perHostConcurrency at once).
 */
export async function crawlFetch(raw: string, opts: CrawlFetchOptions, hosts: HostQueues): Promise<CrawlResponse> {
  const deadline = Date.now() + opts.timeoutMs;
  let u = checkUrl(raw, opts);
  const redirects: string[] = [];
  for (;;) {
    const release = await hosts.acquire(u.host.toLowerCase(), opts.perHostConcurrency);
    let res: OneResponse;
    try {
      res = await requestOnce(u, opts, deadline);
    } finally {
      release();
    }
    if (res.body === null) {
      if (redirects.length >= opts.maxRedirects) throw new CrawlError(`more than ${opts.maxRedirects} redirects`, "http", false);
      let next: URL;
      try {
        next = new URL(String(res.headers.location), u);
      } catch {
        throw new CrawlError("redirect to an invalid URL", "http", false);
      }
      u = checkUrl(next.href, opts);
      redirects.push(u.href);
      continue;
    }
    const contentType = String(res.headers["content-type"] ?? "");
    if (res.status === 429 || res.status >= 500) {
      throw new CrawlError(`HTTP ${res.status}`, "http", true, res.status, retryAfter(res.headers));
    }
    if (res.status >= 400) throw new CrawlError(`HTTP ${res.status}`, "http", false, res.status);
    if (contentType && !/html|xml|json|text\/plain/i.test(contentType)) {
      throw new CrawlError(`not a web page (${contentType.split(";")[0]})`, "not-html", false);
    }
    return { url: u.href, status: res.status, contentType, html: decode(res.body, contentType), redirects };
  }
}
