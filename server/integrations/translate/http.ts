// One JSON request to a translation provider: global fetch with a time limit per attempt, retries of 429, 5xx and
// network failures with exponential back-off and jitter (Retry-After honoured), never a retry of an auth, quota or
// other 4xx answer. Each adapter reads its provider's error bodies (classify); the usual mapping by status is here.
import { TranslationError, type ProviderName, type TranslationErrorKind, type TranslatorOptions } from "./types.ts";

export type HttpSettings = { timeoutMs: number; maxAttempts: number; backoffBaseMs: number; maxRetryAfterSeconds: number };

export function httpSettings(o: TranslatorOptions = {}): HttpSettings {
  return {
    timeoutMs: o.timeoutMs ?? 30_000,
    maxAttempts: Math.max(1, o.maxAttempts ?? 3),
    backoffBaseMs: o.backoffBaseMs ?? 500,
    maxRetryAfterSeconds: o.maxRetryAfterSeconds ?? 60,
  };
}

/** An error answer as the adapter sees it: the status, the body parsed when it is JSON, and the raw text. */
export type ErrorAnswer = { status: number; body: unknown; text: string };

/** An adapter's reading of an error answer; undefined leaves it to the mapping by status. */
export type Classification = { kind: TranslationErrorKind; message?: string } | undefined;

export type JsonRequest = {
  provider: ProviderName;
  method?: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
  classify?: (answer: ErrorAnswer) => Classification;
  /** The provider's own error text in a body (logged, never shown unless the request was refused). */
  errorText?: (body: unknown) => string | undefined;
};

const misconfiguredUrl = (status: number) => `翻译服务地址配置有误（HTTP ${status}），请联系管理员检查系统设置中的 Translate.Url`;

function byStatus(status: number): NonNullable<Classification> {
  if (status === 401 || status === 403) return { kind: "auth" };
  if (status === 404 || status === 405) return { kind: "misconfigured", message: misconfiguredUrl(status) };
  if (status === 408) return { kind: "unavailable" };
  if (status === 413) return { kind: "rejected", message: "待翻译的文本过长，请缩短后重试" };
  if (status === 429) return { kind: "rate-limited" };
  if (status >= 500) return { kind: "unavailable" };
  return { kind: "rejected" };
}

/** Retry-After in seconds (a number or an HTTP date), or undefined. */
function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  const n = Number(value);
  if (value.trim() !== "" && Number.isFinite(n)) return Math.max(0, n);
  const t = Date.parse(value);
  return Number.isFinite(t) ? Math.max(0, (t - Date.now()) / 1000) : undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sends the request until it succeeds or fails for good; answers the parsed JSON body of the success. */
export async function requestJson(req: JsonRequest, http: HttpSettings): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    if (req.signal?.aborted) throw req.signal.reason;
    let error: TranslationError;
    let waitSeconds: number | undefined;
    try {
      const timeout = AbortSignal.timeout(http.timeoutMs);
      const res = await fetch(req.url, {
        method: req.method ?? "POST",
        headers: { accept: "application/json", ...(req.body === undefined ? {} : { "content-type": "application/json" }), ...req.headers },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal: req.signal ? AbortSignal.any([req.signal, timeout]) : timeout,
      });
      const text = await res.text();
      const body = parseJson(text);
      if (res.ok) {
        if (body === undefined)
          throw new TranslationError("bad-response", req.provider, res.status, { providerMessage: text.slice(0, 200) });
        return body;
      }
      const c = req.classify?.({ status: res.status, body, text }) ?? byStatus(res.status);
      const providerMessage = req.errorText?.(body) ?? (body === undefined ? text.slice(0, 200) : undefined);
      waitSeconds = retryAfterSeconds(res.headers.get("retry-after"));
      error = new TranslationError(c.kind, req.provider, res.status, {
        message: c.message,
        providerMessage,
        retryAfterSeconds: waitSeconds,
      });
    } catch (e) {
      if (e instanceof TranslationError) throw e;
      if (req.signal?.aborted) throw req.signal.reason;
      const timedOut = e instanceof Error && e.name === "TimeoutError";
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      error = new TranslationError("unavailable", req.provider, null, {
        message: timedOut ? `翻译服务响应超时（超过 ${Math.round(http.timeoutMs / 1000)} 秒），请稍后重试` : undefined,
        providerMessage: timedOut ? "timeout" : (cause?.code ?? cause?.message ?? (e as Error).message),
      });
    }
    if (!error.retryable || attempt >= http.maxAttempts) throw error;
    if (waitSeconds !== undefined && waitSeconds > http.maxRetryAfterSeconds) throw error;
    const backoff = http.backoffBaseMs * 2 ** (attempt - 1);
    const delay = waitSeconds !== undefined ? waitSeconds * 1000 : backoff / 2 + Math.random() * (backoff / 2);
    await sleep(delay, req.signal);
  }
}
