// Picture sizes for the pre-flight check (issue 15; MERCADO-LIBRE.md "Pictures": ≥ 500 px on a side). Products keep
// picture URLs only, so the size is probed: a ranged GET of the first 64 KiB at most (stopped as soon as the header
// gave the size), read by shared/images/dimensions.ts, and kept in the global image_sizes cache (the same URL is the
// same picture for every tenant). The fetch goes through the crawler's SSRF guard (collects/fetch.ts): http(s) on the
// usual ports, every resolved address public unless CRAWL_ALLOW_PRIVATE, each redirect checked again. A probe has a
// time budget: what it does not reach stays unknown (the pre-flight does not refuse an unknown size) and is probed
// by the next one. A failed probe is kept with its error and tried again after an hour. A host that could not be
// reached (its name not resolved, no connection within the time) is left alone for a minute by this app: its
// other pictures stay unknown instead of each costing a publish job the whole timeout (a dead picture host, or a
// resolver that stops answering, would otherwise hold every job of a batch for seconds).
import { createHash } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { imageSizes, products } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { imageDimensions } from "#shared/images/dimensions.ts";
import { demoImageSize } from "../demo/index.ts";
import { allowed, checkUrl, CrawlError, guardedLookup, type CrawlFetchOptions } from "../collects/index.ts";

/** What a picture's size is known as: its pixels, or null when the probe failed (not an image, 404, timeout…). */
export type ImageSize = { width: number; height: number } | null;

/**
 * The crawler guard's settings the probe takes (CRAWL_ALLOW_PRIVATE and the tests' loopback hooks), and the app's own
 * address (PUBLIC_URL): the demo pictures it serves there are sized without a fetch, the guard being kept for the rest.
 */
export type PictureFetchOptions = Pick<CrawlFetchOptions, "allowPrivate" | "treatAsPublic" | "allowPorts" | "resolveHost"> & {
  publicUrl?: string;
  /** The hosts the app could not reach (deps.ts makes one per app); a probe given none remembers them for itself only. */
  downHosts?: DownHosts;
};

/** Hosts that could not be reached, with the time (ms) until which their pictures are not fetched. */
type DownHosts = Map<string, number>;

export type ProbeOptions = {
  /** The whole probe's time: URLs not finished by then stay unknown (not cached). */
  budgetMs: number;
  /** One URL's time, redirects included. */
  timeoutMs?: number;
  /** URLs fetched at once. */
  concurrency?: number;
  fetch?: PictureFetchOptions;
};

/** Bytes asked for (Range) and read at most: enough for any header but a JPEG with a huge EXIF block. */
export const PROBE_BYTES = 64 * 1024;
/** A failed probe is tried again after this long. */
const PROBE_RETRY_MS = 60 * 60 * 1000;
const MAX_REDIRECTS = 3;
/** How long the app leaves a host alone after failing to reach it. */
const HOST_DOWN_MS = 60_000;

const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
/** Whether the host is still left alone; an entry whose minute is over is dropped, so the map stays small. */
function isDown(downHosts: DownHosts, host: string): boolean {
  const until = downHosts.get(host);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  downHosts.delete(host);
  return false;
}

export const urlHash = (url: string) => createHash("sha256").update(url).digest("hex");

/** The picture URLs worth probing: http(s), each once. */
const probeable = (urls: Iterable<string>) => [...new Set([...urls].filter((u) => typeof u === "string" && /^https?:\/\//i.test(u)))];

/**
 * The cached size of each URL in one query: a size, null for a failed probe; a URL never probed (or not http) is
 * absent from the map.
 */
export async function imageSizesOf(tx: Tx | Db, urls: Iterable<string>): Promise<Map<string, ImageSize>> {
  const wanted = probeable(urls);
  const out = new Map<string, ImageSize>();
  if (!wanted.length) return out;
  const rows = await tx
    .select({ url: imageSizes.url, width: imageSizes.width, height: imageSizes.height })
    .from(imageSizes)
    .where(inArray(imageSizes.urlHash, wanted.map(urlHash)));
  for (const r of rows) out.set(r.url, r.width !== null && r.height !== null ? { width: r.width, height: r.height } : null);
  return out;
}

/** The URLs among these the cache cannot answer: never probed, or failed more than an hour ago. */
async function unprobed(tx: Tx | Db, urls: string[]): Promise<string[]> {
  if (!urls.length) return [];
  const rows = await tx
    .select({ url: imageSizes.url })
    .from(imageSizes)
    .where(
      and(
        inArray(imageSizes.urlHash, urls.map(urlHash)),
        sql`(${imageSizes.width} is not null or ${imageSizes.checkedAt} > now() - make_interval(secs => ${PROBE_RETRY_MS / 1000}))`,
      ),
    );
  const known = new Set(rows.map((r) => r.url));
  return urls.filter((u) => !known.has(u));
}

type Probed = { url: string; width: number | null; height: number | null; error: string | null };

/**
 * Probes the URLs the cache cannot answer (at most `concurrency` at once, each within `timeoutMs`, all within
 * `budgetMs`) and stores what it learnt in a host transaction of its own. Answers how many URLs it stored. Call it with
 * no transaction open: on PGlite a transaction holds the one connection.
 */
export async function probeImageSizes(db: Db, urls: Iterable<string>, opts: ProbeOptions): Promise<number> {
  const started = Date.now();
  const end = started + opts.budgetMs;
  const unsized = await inScope(db, hostAllScope, (tx) => unprobed(tx, probeable(urls)));
  if (!unsized.length) return 0;
  const fetchOpts: PictureFetchOptions = opts.fetch ?? { allowPrivate: false };
  const downHosts = fetchOpts.downHosts ?? new Map();
  const timeoutMs = opts.timeoutMs ?? 3000;
  const results: Probed[] = [];
  const toFetch: string[] = [];
  for (const url of unsized) {
    const own = fetchOpts.publicUrl ? demoImageSize(url, fetchOpts.publicUrl) : undefined;
    if (own) results.push({ url, ...own, error: null });
    else toFetch.push(url);
  }
  let next = 0;
  const worker = async () => {
    while (next < toFetch.length && Date.now() < end) {
      const url = toFetch[next++];
      if (isDown(downHosts, hostOf(url))) continue; // unknown, tried again once the host's minute is over
      const deadline = Math.min(Date.now() + timeoutMs, end);
      try {
        const size = await fetchSize(url, fetchOpts, downHosts, deadline);
        results.push(size ? { url, ...size, error: null } : { url, width: null, height: null, error: "not a readable image" });
      } catch (e) {
        // Cut short by the budget rather than by its own timeout: unknown, probed again next time.
        if (e instanceof CrawlError && e.kind === "timeout" && deadline === end) continue;
        const message = e instanceof Error ? e.message : String(e);
        results.push({ url, width: null, height: null, error: message.slice(0, 300) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 8, toFetch.length) }, worker));
  if (!results.length) return 0;
  await inScope(db, hostAllScope, async (tx) => {
    for (let i = 0; i < results.length; i += 500) {
      await tx
        .insert(imageSizes)
        .values(
          results.slice(i, i + 500).map((r) => ({ urlHash: urlHash(r.url), url: r.url, width: r.width, height: r.height, error: r.error })),
        )
        .onConflictDoUpdate({
          target: imageSizes.urlHash,
          set: {
            width: sql`excluded.width`,
            height: sql`excluded.height`,
            error: sql`excluded.error`,
            checkedAt: sql`now()`,
          },
        });
    }
  });
  return results.length;
}

/** The pictures of some of a tenant's products (products.image and products.images), read in the given transaction. */
export async function productPictures(tx: Tx, tenantId: string, productIds: string[]): Promise<string[]> {
  if (!productIds.length) return [];
  const rows = await tx
    .select({ image: products.image, images: products.images })
    .from(products)
    .where(and(eq(products.tenantId, tenantId), inArray(products.id, productIds)));
  return rows.flatMap((r) => [...(Array.isArray(r.images) ? (r.images as string[]) : []), ...(r.image ? [r.image] : [])]);
}

/** Probes the pictures of a tenant's products (the publish job, before it plans): a short read, then the probe. */
export async function probeProductPictures(db: Db, tenantId: string, productIds: string[], opts: ProbeOptions): Promise<number> {
  const urls = await inScope(db, { tenantId }, (tx) => productPictures(tx, tenantId, productIds));
  return probeImageSizes(db, urls, opts);
}

// ---------------------------------------------------------------------------------------------------------------
// The ranged fetch.

const userAgent = "Mozilla/5.0 (compatible; MeliErpPictureProbe/1)";

/** The size from the first bytes of the picture at `raw`, following redirects (each checked by the guard). */
async function fetchSize(
  raw: string,
  opts: PictureFetchOptions,
  downHosts: DownHosts,
  deadline: number,
): Promise<{ width: number; height: number } | null> {
  const guard: CrawlFetchOptions = { timeoutMs: 0, maxBodyBytes: PROBE_BYTES, maxRedirects: MAX_REDIRECTS, perHostConcurrency: 8, ...opts };
  let u = checkUrl(raw, guard);
  for (let redirects = 0; ; redirects++) {
    const answer = await rangedGet(u, guard, downHosts, deadline);
    if (answer.kind === "size") return answer.size;
    if (redirects >= MAX_REDIRECTS) throw new CrawlError(`more than ${MAX_REDIRECTS} redirects`, "http", false);
    u = checkUrl(new URL(answer.location, u).href, guard);
  }
}

type RangedAnswer = { kind: "size"; size: { width: number; height: number } | null } | { kind: "redirect"; location: string };

function rangedGet(u: URL, opts: CrawlFetchOptions, downHosts: DownHosts, deadline: number): Promise<RangedAnswer> {
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new CrawlError("timeout", "timeout", true));
    const host = u.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && !allowed(host, opts)) return reject(new CrawlError(`refused: address ${host} is not public`, "refused", false));
    let settled = false;
    let connected = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    /** The request failed before a connection was made: the host is unreachable, not this picture. */
    const unreachable = () => {
      if (!connected) downHosts.set(host.toLowerCase(), Date.now() + HOST_DOWN_MS);
    };
    const mod = u.protocol === "https:" ? https : http;
    const req = mod.request(
      u,
      {
        method: "GET",
        lookup: guardedLookup(opts),
        agent: false,
        headers: {
          "user-agent": userAgent,
          accept: "image/*,*/*;q=0.5",
          range: `bytes=0-${PROBE_BYTES - 1}`,
          "accept-encoding": "identity",
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.destroy();
          return settle(() => resolve({ kind: "redirect", location: String(res.headers.location) }));
        }
        if (status !== 200 && status !== 206) {
          res.destroy();
          return settle(() => reject(new CrawlError(`HTTP ${status}`, "http", status === 429 || status >= 500, status)));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const bytes = Buffer.concat(chunks).subarray(0, PROBE_BYTES);
          const dims = imageDimensions(bytes);
          settle(() => resolve({ kind: "size", size: dims ? { width: dims.width, height: dims.height } : null }));
        };
        res.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // Stop as soon as the header told the size, or at 64 KiB (a server that ignores Range sends it all).
          if (size >= PROBE_BYTES || imageDimensions(Buffer.concat(chunks))) {
            res.destroy();
            done();
          }
        });
        res.on("end", done);
        res.on("error", (e) => settle(() => reject(new CrawlError(`connection error: ${e.message}`, "network", true))));
      },
    );
    req.on("socket", (socket) => socket.once("connect", () => (connected = true)));
    const timer = setTimeout(() => {
      unreachable();
      const e = new CrawlError("timeout", "timeout", true);
      req.destroy(e);
      settle(() => reject(e));
    }, remaining);
    req.on("error", (e: Error & { code?: string }) => {
      if (!(e instanceof CrawlError)) unreachable();
      settle(() =>
        reject(
          e instanceof CrawlError
            ? e
            : e.code === "ENOTFOUND"
              ? new CrawlError(`host ${u.hostname} not found`, "network", false)
              : new CrawlError(`network error: ${e.code ?? e.message}`, "network", true),
        ),
      );
    });
    req.end();
  });
}
