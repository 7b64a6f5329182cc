// The typed API client shared by the console (browser), the extension's background worker and Node (tests): the
// header rules of spec §7, the answer unwrapping, the time-out of §9 and the error mapping of §8. It needs only
// `fetch`, `AbortController`, `URL` and `URLSearchParams`, which all three have.
// A call that is not naturally idempotent (a bulk edit, a creation) travels with an Idempotency-Key: the client retries
// it with the same key when the answer was lost, and the server answers the first result instead of doing it twice.
import { ApiError, ClientErrorCode, errorFromBody, messages, parameterNullMessage } from "./errors.ts";

/** Spec §9: request time-out. */
export const REQUEST_TIMEOUT_MS = 1_500_000;
/** Spec §7/§9: the stored tenant value that means "no tenant"; never sent. */
export const TENANT_PLACEHOLDER = "11111111";
export const CLIENT_ID = "Erp_App";
export const SCOPE = "Erp";

type MaybePromise<T> = T | Promise<T>;
type Getter<T> = () => MaybePromise<T>;

export type ApiClientOptions = {
  /** The server's origin (e.g. "https://erp.example.com"); "" for same-origin in a browser page. */
  baseUrl: string | Getter<string>;
  /** The stored access token, if any. */
  getToken: Getter<string | null | undefined>;
  /** The stored tenant (id or name), if any; the placeholder 11111111 counts as none. */
  getTenant: Getter<string | null | undefined>;
  /** Called on every 401 answer (spec §8: the user is logged out), before the error is thrown. */
  onUnauthorized?: (error: ApiError) => void | Promise<void>;
  fetch?: typeof fetch;
  /** Defaults to spec §9's 1,500,000 ms. */
  timeoutMs?: number;
  /** The waits before each retry of a call with an Idempotency-Key whose answer was lost (default 0.5 s, then 2 s). */
  retryDelaysMs?: readonly number[];
};

export type QueryValue = string | number | boolean | Date | null | undefined | readonly (string | number | boolean | Date)[];

export type RequestSpec = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Under baseUrl, e.g. "/api/User/GetSubUsers". `:name` segments are filled from `params`. */
  path: string;
  params?: Record<string, string | number | null | undefined>;
  query?: Record<string, QueryValue>;
  /** Sent as JSON unless it is URLSearchParams (form) or FormData (multipart). */
  body?: unknown;
  /** Names of the required query/path parameters (checked before sending). */
  required?: readonly string[];
  /** Skip the bearer header (the token endpoint). */
  anonymous?: boolean;
  /** Overrides the stored tenant for this request ("" or the placeholder: none). */
  tenant?: string | null;
  signal?: AbortSignal;
  /** Sent as the Idempotency-Key header; with it, a request whose answer was lost is retried with the same key. */
  idempotencyKey?: string;
};

export type CallOptions = {
  signal?: AbortSignal;
  /** Overrides the stored tenant for this call (e.g. a password reset before login); null: none. */
  tenant?: string | null;
  /**
   * For a call that takes one (a bulk edit, a creation): the caller's key, so that submitting the same thing again
   * (a dialog sent twice after a lost answer) is answered by the first result. Without it the client makes one per call.
   */
  idempotencyKey?: string;
};

export type ApiClient = {
  readonly timeoutMs: number;
  /** Sends one call: 200 answers the body's `result` (the whole body when it has none), 204 answers undefined. */
  request<T>(spec: RequestSpec): Promise<T>;
  /** The URL a request would go to (for downloads and links). */
  url(path: string, query?: Record<string, QueryValue>): Promise<string>;
};

/** The default waits before the retries of a keyed call whose answer was lost. */
const IDEMPOTENT_RETRY_DELAYS_MS: readonly number[] = [500, 2000];

/** A new Idempotency-Key: 128 random bits as hex (getRandomValues works in every context, randomUUID only in secure ones). */
export function newIdempotencyKey(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Failures after which the call may or may not have run: safe to send again only with its Idempotency-Key. */
function answerLost(e: ApiError): boolean {
  if (e.status === 0) return e.code === ClientErrorCode.Network;
  return e.status === 502 || e.status === 503 || e.status === 504 || (e.status === 409 && e.code === "Idempotency.InProgress");
}

const resolve = <T>(v: T | Getter<T>): MaybePromise<T> => (typeof v === "function" ? (v as Getter<T>)() : v);

/** The tenant header value to send, or null (spec §7: only a stored, non-placeholder tenant). */
export function tenantHeader(tenant: string | null | undefined): string | null {
  const t = tenant?.trim();
  return t && t !== TENANT_PLACEHOLDER ? t : null;
}

/** Throws the spec's "The parameter X cannot be null." when a required value is missing or null. */
export function checkRequired(values: Record<string, unknown> | undefined, required: readonly string[] | undefined): void {
  for (const name of required ?? []) {
    const v = values?.[name];
    if (v === undefined || v === null) {
      throw new ApiError({ status: 0, code: ClientErrorCode.ParameterNull, message: parameterNullMessage(name) });
    }
  }
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const qs = new URLSearchParams();
  const put = (k: string, v: string | number | boolean | Date) => qs.append(k, v instanceof Date ? v.toISOString() : String(v));
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v as (string | number | boolean | Date)[]) put(k, item);
    else put(k, v as string | number | boolean | Date);
  }
  const s = qs.toString();
  return s ? `?${s}` : "";
}

export function fillPath(path: string, params: RequestSpec["params"]): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null)
      throw new ApiError({ status: 0, code: ClientErrorCode.ParameterNull, message: parameterNullMessage(name) });
    return encodeURIComponent(String(v));
  });
}

const joinUrl = (base: string, path: string) => base.replace(/\/+$/, "") + path;

export function createApiClient(options: ApiClientOptions): ApiClient {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const retryDelaysMs = options.retryDelaysMs ?? IDEMPOTENT_RETRY_DELAYS_MS;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));

  async function url(path: string, query?: Record<string, QueryValue>) {
    return joinUrl(await resolve(options.baseUrl), path) + queryString(query);
  }

  async function request<T>(spec: RequestSpec): Promise<T> {
    // Everything that can be refused without the server is refused before a request is made.
    const params = spec.params;
    const query = spec.query;
    checkRequired({ ...params, ...query }, spec.required);
    const target = (await url(fillPath(spec.path, params))) + queryString(query);

    const headers: Record<string, string> = { accept: "application/json" };
    if (!spec.anonymous) {
      const token = await options.getToken();
      if (token) headers.authorization = `Bearer ${token}`;
    }
    const tenant = tenantHeader(spec.tenant !== undefined ? spec.tenant : await options.getTenant());
    if (tenant) headers.__tenant = tenant;
    if (spec.idempotencyKey) headers["idempotency-key"] = spec.idempotencyKey;

    let body: BodyInit | undefined;
    if (spec.body instanceof URLSearchParams) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = spec.body.toString();
    } else if (typeof FormData !== "undefined" && spec.body instanceof FormData) {
      body = spec.body;
    } else if (spec.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(spec.body);
    }

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = () => controller.abort();
    if (spec.signal?.aborted) controller.abort();
    spec.signal?.addEventListener("abort", onCallerAbort, { once: true });

    const sendOnce = async (): Promise<T> => {
      let res: Response;
      try {
        res = await doFetch(target, { method: spec.method, headers, body, signal: controller.signal });
      } catch (cause) {
        if (timedOut) throw new ApiError({ status: 0, code: ClientErrorCode.Timeout, message: messages.timeout, cause });
        if (controller.signal.aborted) throw new ApiError({ status: 0, code: ClientErrorCode.Aborted, message: messages.aborted, cause });
        throw new ApiError({ status: 0, code: ClientErrorCode.Network, message: messages.network, cause });
      }
      const text = await readText(res, () => timedOut);
      if (res.status === 204) return undefined as T;
      const parsed = parseJson(text);
      if (res.status === 200) {
        return (parsed && typeof parsed === "object" && "result" in parsed ? (parsed as { result: unknown }).result : parsed) as T;
      }
      const error = errorFromBody(res.status, parsed);
      if (res.status === 401) await options.onUnauthorized?.(error);
      throw error;
    };

    try {
      // Only a keyed call is sent again: the server answers a repeated key with the first result, never a second run.
      for (let attempt = 0; ; attempt++) {
        try {
          return await sendOnce();
        } catch (error) {
          const delay = retryDelaysMs[attempt];
          if (!spec.idempotencyKey || delay === undefined || !(error instanceof ApiError) || !answerLost(error)) throw error;
          if (!(await wait(delay, controller.signal))) throw error;
        }
      }
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  return { timeoutMs, request, url };
}

/** Resolves true after ms, or false as soon as the signal aborts. */
function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((done) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      done(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      done(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

async function readText(res: Response, timedOut: () => boolean): Promise<string> {
  try {
    return await res.text();
  } catch (cause) {
    if (timedOut()) throw new ApiError({ status: 0, code: ClientErrorCode.Timeout, message: messages.timeout, cause });
    throw new ApiError({ status: 0, code: ClientErrorCode.Network, message: messages.network, cause });
  }
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
