// What every translation provider adapter offers, and the one error they all throw. The adapters speak each provider's
// own wire format (libretranslate.ts, deepl.ts, google.ts, openai.ts); index.ts picks one by the host's settings.
import { AppError } from "../../http/errors.ts";

export const providerNames = ["libretranslate", "deepl", "google", "openai"] as const;
export type ProviderName = (typeof providerNames)[number];

export type TranslateOptions = {
  /** The texts are HTML: tags are kept and only the text between them is translated. */
  html?: boolean;
  /** Cancels the remaining requests (the abort reason is thrown as is). */
  signal?: AbortSignal;
};

export interface Translator {
  readonly provider: ProviderName;
  /**
   * Translates texts into `to` (our codes: zh, zh-cn, en, es, pt; another code is passed on in the provider's form)
   * from `from` (null: the provider detects it). Answers the translations in the order and number of `texts`; blank
   * texts come back unchanged without a call, and a text given twice is translated once. Batches by the provider's
   * limits; one batch at a time.
   */
  translate(texts: string[], from: string | null, to: "es" | "pt" | "en" | string, opts?: TranslateOptions): Promise<string[]>;
}

/** Tuning shared by the adapters; the defaults fit production, tests shorten the waits. */
export type TranslatorOptions = {
  /** Time limit of one HTTP request (default 30 s). */
  timeoutMs?: number;
  /** Attempts of one request when the provider answers 429 or 5xx or the network fails (default 3). */
  maxAttempts?: number;
  /** First back-off delay; doubled on each retry, with jitter (default 500 ms). */
  backoffBaseMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown, retryable, for a later job (default 60). */
  maxRetryAfterSeconds?: number;
  /** Texts per request (capped at the provider's own limit). */
  maxTexts?: number;
  /** Characters per request (a longer single text goes alone). */
  maxChars?: number;
};

export type TranslationErrorKind =
  "not-configured" | "misconfigured" | "auth" | "quota" | "rate-limited" | "unavailable" | "rejected" | "bad-response";

const messages: Record<TranslationErrorKind, string> = {
  "not-configured": "翻译服务未配置，请联系管理员在系统设置中配置翻译服务",
  misconfigured: "翻译服务配置有误，请联系管理员检查系统设置中的翻译服务配置",
  auth: "翻译服务认证失败（API Key 无效），请联系管理员检查系统设置中的翻译服务配置",
  quota: "翻译服务额度已用尽，请联系管理员充值或提高额度后重试",
  "rate-limited": "翻译服务请求过于频繁，请稍后重试",
  unavailable: "翻译服务暂时不可用，请稍后重试",
  rejected: "翻译服务拒绝了此次翻译请求，请检查语言或文本内容",
  "bad-response": "翻译服务返回了无法识别的结果，请稍后重试",
};

const codes: Record<TranslationErrorKind, string> = {
  "not-configured": "Translate.NotConfigured",
  misconfigured: "Translate.Misconfigured",
  auth: "Translate.AuthFailed",
  quota: "Translate.QuotaExceeded",
  "rate-limited": "Translate.RateLimited",
  unavailable: "Translate.Unavailable",
  rejected: "Translate.Rejected",
  "bad-response": "Translate.BadResponse",
};

/**
 * A translation failed. The message is for the seller (Chinese, says what to do); `kind` and `code` for code;
 * `provider`, `httpStatus` and `providerMessage` (the provider's own words, never the key) for the log. It is an
 * AppError (403, a refusal whose message says why), so a call that lets it through answers the seller clearly.
 * `retryable`: trying again later may help (429, 5xx, network, timeout).
 */
export class TranslationError extends AppError {
  readonly retryable: boolean;
  readonly providerMessage: string | null;
  /** The provider's Retry-After when it asked for a longer wait than the adapter makes. */
  readonly retryAfterSeconds: number | null;

  constructor(
    readonly kind: TranslationErrorKind,
    readonly provider: ProviderName | null,
    readonly httpStatus: number | null = null,
    opts: { message?: string; providerMessage?: string; retryAfterSeconds?: number } = {},
  ) {
    const providerMessage = opts.providerMessage ? opts.providerMessage.slice(0, 500) : null;
    // The provider's words help the seller only when the request itself was refused (an unsupported language, …).
    super(403, opts.message ?? messages[kind], codes[kind], kind === "rejected" ? providerMessage : null);
    this.name = "TranslationError";
    this.retryable = kind === "rate-limited" || kind === "unavailable";
    this.providerMessage = providerMessage;
    this.retryAfterSeconds = opts.retryAfterSeconds ?? null;
  }
}
