// The Mercado Libre adapter: the one HTTP client for every call to Mercado Libre (or its sandbox). Every request takes
// a place in the seller's and the app's shared buckets first, carries the shop's token (refreshed single-flight when
// expired; a 401 invalid_token refreshes once and retries once), backs off on 429 (Retry-After honoured and shared
// with every process through the bucket; exponential with jitter otherwise; a bounded number of attempts) and turns
// Mercado Libre's error body into a MeliApiError. Answers are checked against the schemas in types.ts.
//
// Never call it inside a database transaction: it opens its own short ones (buckets, tokens), and on PGlite a request
// made while the caller holds the only connection would wait for itself. Network work first, then store (as the
// crawler does).
//
//   const meli = deps.meli;
//   await getCategory(meli.public, "MLM1055");                    // public reads: the app's bucket only
//   const shop = meli.shop({ tenantId, groupId });                // a connected shop: its stored tokens
//   await getMe(shop);                                            // endpoints/: one typed function per endpoint
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { kindOf, MeliApiError, meliWords } from "./errors.ts";
import { createRateBuckets, sleep, type Bucket, type RateBuckets } from "./rate-limit.ts";
import { createTokenStore, type ShopRef, type ShopToken, type TokenStore } from "./tokens.ts";
import type { MeliFetch } from "./transport.ts";
import { tokenAnswer, type TokenAnswer } from "./types.ts";
import { userIsWaiting } from "../../user-waiting.ts";

export type { ShopRef } from "./tokens.ts";

/** Limits and waits; the defaults fit production, tests shorten them. */
export type MeliTuning = {
  /** One request's time limit. */
  timeoutMs: number;
  /** Attempts of one call when Mercado Libre answers 429 (any call) or 5xx / fails on the network (reads only). */
  maxAttempts: number;
  /** First back-off without Retry-After; doubles per attempt, with jitter, up to backoffMaxMs. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** A longer Retry-After is not waited for: the call fails as retryable (a job tries again later). */
  maxRetryAfterSeconds: number;
  /**
   * Per seller and per app. The bucket lets `burst` calls go at once on top of its steady rate, so a seller's rate is
   * set `burst` under the limit it must keep: 1,180 + 20 never puts more than 1,200 calls in any minute (Mercado Libre
   * allows about 1,500; bench/RESULTS.md "Publishing to a rate-limited seller").
   */
  sellerPerMinute: number;
  sellerBurst: number;
  appPerMinute: number;
  appBurst: number;
  /** The longest a call a user waits on at the screen queues for its rate buckets (then: 美客多繁忙，请稍后重试). */
  userMaxWaitMs: number;
  /** Refresh a token that expires within this many seconds. */
  refreshMarginSeconds: number;
  refreshLeaseSeconds: number;
};

const defaultTuning: MeliTuning = {
  timeoutMs: 30_000,
  maxAttempts: 5,
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
  maxRetryAfterSeconds: 60,
  sellerPerMinute: 1180,
  sellerBurst: 20,
  appPerMinute: 20_000,
  appBurst: 100,
  userMaxWaitMs: 10_000,
  refreshMarginSeconds: 300,
  refreshLeaseSeconds: 30,
};

export type MeliClientOptions = {
  apiUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  fetch: MeliFetch;
  database: Database;
  secrets: SecretBox;
  log?: FastifyBaseLogger;
  tuning?: Partial<MeliTuning>;
};

type Query = Record<string, string | number | boolean | undefined>;

export type SendOptions<T = unknown> = {
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /** Checks the answer; without it the parsed JSON is answered as is. */
  schema?: z.ZodType<T>;
  /** Whether a 5xx or a network failure may be retried (reads and idempotent writes). Default: GET only. */
  retryUnsure?: boolean;
  /** More request headers (e.g. x-idempotency-key on a creation). */
  headers?: Record<string, string>;
  /** Told of every exchange of the call (each attempt), for the marketplace call log; tokens are not in it. */
  observe?: (exchange: MeliExchange) => void;
  /** The answer is a file (a label PDF): answered as a Buffer, not parsed (the call log notes only its size). */
  binary?: boolean;
  /** A file sent as multipart/form-data in one field (a picture upload); the call log notes only its size. */
  multipart?: MultipartFile;
};

type MultipartFile = { field: string; filename: string; contentType: string; data: Buffer };

/** One file as a multipart/form-data body. */
function multipartBody(f: MultipartFile): { contentType: string; body: Buffer } {
  const boundary = `----meli${randomUUID().replace(/-/g, "")}`;
  const name = (s: string) => s.replace(/["\r\n]/g, "_");
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${name(f.field)}"; filename="${name(f.filename)}"\r\nContent-Type: ${f.contentType}\r\n\r\n`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([Buffer.from(head), f.data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}

/** One request and its answer, as the call log keeps it (no Authorization header; the body as sent). */
export type MeliExchange = {
  method: string;
  path: string;
  requestBody: string | null;
  status: number | null;
  responseBody: string | null;
  durationMs: number;
};

/** Calls made with one seller's token. */
export type MeliSession = {
  get<T = unknown>(path: string, query?: Query, schema?: z.ZodType<T>): Promise<T>;
  send<T = unknown>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, opts?: SendOptions<T>): Promise<T>;
};

export type MeliClient = ReturnType<typeof createMeliClient>;

/** Where a session's token comes from: a stored shop (refreshable) or a token just obtained (AuthBack). */
type TokenSource = { current(): Promise<ShopToken>; renew: ((version: number) => Promise<ShopToken>) | null };

type Request = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  query?: Query;
  body?: unknown;
  form?: Record<string, string>;
  source?: TokenSource;
  retryUnsure: boolean;
  context: "api" | "exchange" | "refresh";
  headers?: Record<string, string>;
  observe?: (exchange: MeliExchange) => void;
  binary?: boolean;
  multipart?: MultipartFile;
};

/** What a caller may add to one endpoint call (the endpoint functions in endpoints/ take these). */
export type CallOptions = Pick<SendOptions, "observe" | "headers">;

/**
 * An answer checked against its endpoint's schema. One that does not parse is a logged MeliApiError ("bad-response")
 * naming the endpoint and the field, never a cast: a drift between Mercado Libre (or the sandbox) and the documented
 * shape shows up here first.
 */
export function checkAnswer<T>(value: unknown, schema: z.ZodType<T> | undefined, what: string, log?: FastifyBaseLogger): T {
  if (!schema) return value as T;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : "(answer)";
  log?.warn({ what, issues: r.error.issues.slice(0, 5) }, "unexpected Mercado Libre answer");
  throw new MeliApiError("bad-response", { message: `${what}: ${field}: ${issue?.message ?? "invalid"}` });
}

/** Retry-After in seconds (a number or an HTTP date), or null. */
function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (!value || !value.trim()) return null;
  const n = Number(value);
  if (Number.isFinite(n)) return Math.max(0, n);
  const t = Date.parse(value);
  return Number.isFinite(t) ? Math.max(0, (t - now) / 1000) : null;
}

export function createMeliClient(o: MeliClientOptions) {
  const tuning: MeliTuning = { ...defaultTuning, ...o.tuning };
  const apiUrl = o.apiUrl.replace(/\/+$/, "");
  const buckets: RateBuckets = createRateBuckets(o.database.db);
  const appBucket: Bucket = { key: `app:${o.clientId}`, perMinute: tuning.appPerMinute, burst: tuning.appBurst };
  const sellerBucket = (sellerId: string): Bucket => ({
    key: `seller:${sellerId}`,
    perMinute: tuning.sellerPerMinute,
    burst: tuning.sellerBurst,
  });

  const backoff = (attempt: number) => {
    const ceiling = Math.min(tuning.backoffMaxMs, tuning.backoffBaseMs * 2 ** (attempt - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  };

  function urlOf(path: string, query?: Query): string {
    const u = new URL(apiUrl + (path.startsWith("/") ? path : `/${path}`));
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  async function request(r: Request): Promise<unknown> {
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      const auth = r.source ? await r.source.current() : null;
      const sellerKey = auth ? sellerBucket(auth.sellerId) : null;
      const keys = sellerKey ? [appBucket, sellerKey] : [appBucket];
      await buckets.take(keys, { maxWaitMs: userIsWaiting() ? tuning.userMaxWaitMs : undefined });

      const headers: Record<string, string> = { ...r.headers, accept: "application/json" };
      if (auth) headers.authorization = `Bearer ${auth.token}`;
      let payload: string | Buffer | undefined;
      if (r.multipart) {
        const m = multipartBody(r.multipart);
        headers["content-type"] = m.contentType;
        payload = m.body;
      } else if (r.form) {
        headers["content-type"] = "application/x-www-form-urlencoded";
        payload = new URLSearchParams(r.form).toString();
      } else if (r.body !== undefined) {
        headers["content-type"] = "application/json";
        payload = JSON.stringify(r.body);
      }

      // A 429 may have come back for another call of this seller while this one waited: not before its Retry-After.
      await buckets.hold(keys.map((b) => b.key));
      let res: Response;
      let text: string;
      const started = performance.now();
      const observe = (status: number | null, responseBody: string | null) =>
        r.observe?.({
          method: r.method,
          path: r.path,
          requestBody: r.form
            ? null
            : r.multipart
              ? `[${r.multipart.data.length} bytes: ${r.multipart.filename}]`
              : ((payload as string | undefined) ?? null),
          status,
          responseBody,
          durationMs: Math.round(performance.now() - started),
        });
      try {
        res = await o.fetch(urlOf(r.path, r.query), {
          method: r.method,
          headers,
          body: payload,
          signal: AbortSignal.timeout(tuning.timeoutMs),
        });
        const bytes = r.binary && res.ok ? Buffer.from(await res.arrayBuffer()) : null;
        text = bytes ? "" : await res.text();
        observe(res.status, bytes ? `[${bytes.length} bytes]` : text);
        if (bytes) return bytes;
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
        observe(null, (err as Error).message ?? null);
        o.log?.warn({ err, path: r.path, attempt }, "Mercado Libre request failed");
        if (r.retryUnsure && attempt < tuning.maxAttempts) {
          await sleep(backoff(attempt));
          continue;
        }
        throw new MeliApiError(
          "unavailable",
          { message: timedOut ? "timeout" : (err as Error).message },
          {
            message: timedOut ? `美客多响应超时（超过 ${Math.round(tuning.timeoutMs / 1000)} 秒），请稍后重试` : undefined,
          },
        );
      }

      if (res.ok) {
        if (!text) return undefined;
        try {
          return JSON.parse(text);
        } catch {
          throw new MeliApiError("bad-response", { status: res.status, message: text.slice(0, 200) });
        }
      }

      const words = meliWords(res.status, text);
      if (res.status === 401 && r.source?.renew && auth && !renewed) {
        // invalid_token (expired early, or revoked and granted again): one refresh, one more try.
        renewed = true;
        await r.source.renew(auth.version);
        attempt--;
        continue;
      }
      if (res.status === 429) {
        const after = retryAfterSeconds(res.headers.get("retry-after"));
        if ((after !== null && after > tuning.maxRetryAfterSeconds) || attempt >= tuning.maxAttempts) {
          throw new MeliApiError("rate-limited", words, { retryAfterSeconds: after ?? Math.ceil(backoff(attempt) / 1000) });
        }
        const waitSeconds = after ?? backoff(attempt) / 1000;
        o.log?.info({ path: r.path, attempt, waitSeconds }, "Mercado Libre answered 429");
        // Shared: no process calls this seller (or the app, for calls without a seller) before then.
        await buckets.block((sellerKey ?? appBucket).key, waitSeconds);
        continue;
      }
      if (res.status >= 500 && r.retryUnsure && attempt < tuning.maxAttempts) {
        await sleep(backoff(attempt));
        continue;
      }
      throw new MeliApiError(kindOf(res.status, words, r.context), words);
    }
  }

  const parsed = <T>(value: unknown, schema: z.ZodType<T> | undefined, what: string): T => checkAnswer(value, schema, what, o.log);

  async function token(form: Record<string, string>, context: "exchange" | "refresh"): Promise<TokenAnswer> {
    const body = await request({
      method: "POST",
      path: "/oauth/token",
      form: { client_id: o.clientId, client_secret: o.clientSecret, ...form },
      // A code or refresh token may already be spent by a request whose answer was lost: never send it twice.
      retryUnsure: false,
      context,
    });
    return parsed(body, tokenAnswer, "oauth/token");
  }

  const tokens: TokenStore = createTokenStore({
    database: o.database,
    secrets: o.secrets,
    refresh: (refreshToken) => token({ grant_type: "refresh_token", refresh_token: refreshToken }, "refresh"),
    marginSeconds: tuning.refreshMarginSeconds,
    leaseSeconds: tuning.refreshLeaseSeconds,
  });

  function session(source: TokenSource | null): MeliSession {
    const send = async <T>(method: Request["method"], path: string, opts: SendOptions<T> = {}): Promise<T> => {
      const body = await request({
        method,
        path,
        query: opts.query,
        body: opts.body,
        source: source ?? undefined,
        retryUnsure: opts.retryUnsure ?? method === "GET",
        context: "api",
        headers: opts.headers,
        observe: opts.observe,
        binary: opts.binary,
        multipart: opts.multipart,
      });
      return parsed(body, opts.schema, `${method} ${path}`);
    };
    return {
      send,
      get: (path, query, schema) => send("GET", path, { query, schema }),
    };
  }

  return {
    tuning,
    buckets,
    /** The shops' token pairs: AuthBack stores a granted pair through it. */
    tokens,

    /** The page where the seller grants access; Mercado Libre sends the seller back to redirectUri with code and state. */
    authorizationUrl(p: { redirectUri: string; state: string; codeChallenge: string; extra?: Record<string, string> }): string {
      const u = new URL(`${o.authUrl.replace(/\/+$/, "")}/authorization`);
      u.searchParams.set("response_type", "code");
      u.searchParams.set("client_id", o.clientId);
      u.searchParams.set("redirect_uri", p.redirectUri);
      u.searchParams.set("state", p.state);
      u.searchParams.set("code_challenge", p.codeChallenge);
      u.searchParams.set("code_challenge_method", "S256");
      for (const [k, v] of Object.entries(p.extra ?? {})) u.searchParams.set(k, v);
      return u.toString();
    },

    /** The authorization code for a token pair (single use: a second exchange is refused as invalid-code). */
    exchangeCode(p: { code: string; redirectUri: string; codeVerifier: string }): Promise<TokenAnswer> {
      return token(
        { grant_type: "authorization_code", code: p.code, redirect_uri: p.redirectUri, code_verifier: p.codeVerifier },
        "exchange",
      );
    },

    /**
     * A refresh token for a new pair, outside any stored shop (the read-only live check). The refresh token is spent:
     * only the answer's new one works from now on.
     */
    refreshGrant(refreshToken: string): Promise<TokenAnswer> {
      return token({ grant_type: "refresh_token", refresh_token: refreshToken }, "refresh");
    },

    /** Calls with a token not stored yet (the authorization's first reads); no refresh. */
    withToken(accessToken: string, sellerId: string): MeliSession {
      return session({ current: async () => ({ token: accessToken, version: 0, sellerId }), renew: null });
    },

    /** Calls as a connected shop (its account group's tokens). */
    shop(ref: ShopRef): MeliSession {
      return session({ current: () => tokens.current(ref), renew: (version) => tokens.renew(ref, version) });
    },

    /** Calls without a token (public reads: categories, anyone's items, profiles): the app's bucket only. */
    public: session(null),
  };
}
