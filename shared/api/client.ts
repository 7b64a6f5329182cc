// The typed API client shared by the console (browser), the extension's background worker and Node (tests): the
// header rules of spec §7, the answer unwrapping, the time-out of §9 and the error mapping of §8. It needs only
// `fetch`, `AbortController`, `URL` and `URLSearchParams`, which all three have.
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
};

export type CallOptions = {
  signal?: AbortSignal;
  /** Overrides the stored tenant for this call (e.g. a password reset before login); null: none. */
  tenant?: string | null;
};

export type ApiClient = {
  readonly timeoutMs: number;
  /** Sends one call: 200 answers the body's `result` (the whole body when it has none), 204 answers undefined. */
  request<T>(spec: RequestSpec): Promise<T>;
  /** The URL a request would go to (for downloads and links). */
  url(path: string, query?: Record<string, QueryValue>): Promise<string>;
};

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

function fillPath(path: string, params: RequestSpec["params"]): string {
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

    try {
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
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  return { timeoutMs, request, url };
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
