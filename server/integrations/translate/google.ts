// Google Cloud Translation v2 (Basic): POST {url}/language/translate/v2?key=KEY with JSON {q: [...] (≤ 128), target,
// source? (omitted: detected), format: "text"|"html"} → {data: {translations: [{translatedText, detectedSourceLanguage?}]}}.
// The format is always sent: Google's default is html, which answers plain text with HTML entities (&#39;, &amp;);
// with "text" the answer is plain text, with "html" it is HTML whose entities are meant (kept as they are).
// Errors are {error: {code, message, errors: [{reason}], status, details}}: 400 API_KEY_INVALID / keyInvalid, 403
// dailyLimitExceeded or quotaExceeded (quota), 403 userRateLimitExceeded / rateLimitExceeded and 429 (rate), 403
// accessNotConfigured and other permission errors (the key may not use the API).
import { limitsFor, translateInBatches, type BatchLimits } from "./batch.ts";
import { httpSettings, requestJson, type Classification, type ErrorAnswer } from "./http.ts";
import { normalizeLanguage, withRegion } from "./languages.ts";
import type { TranslateOptions, Translator, TranslatorOptions } from "./types.ts";

export type GoogleConfig = { apiKey: string; url?: string | null };

/** 128 segments per request (Google's limit); Google recommends at most 5,000 characters per request. */
const providerLimits: BatchLimits = { maxTexts: 128, maxChars: 5_000 };

const codes: Record<string, string> = { zh: "zh-CN", "zh-tw": "zh-TW" };

export function googleLanguage(code: string): string {
  return codes[normalizeLanguage(code)] ?? withRegion(code);
}

type GoogleError = {
  error?: { code?: number; message?: string; status?: string; errors?: { reason?: string }[]; details?: { reason?: string }[] };
};

const errorText = (body: unknown) => {
  const e = (body as GoogleError | undefined)?.error;
  if (!e) return undefined;
  const reasons = [...(e.errors ?? []), ...(e.details ?? [])].map((r) => r?.reason).filter(Boolean);
  return [e.message, reasons.length ? `(${reasons.join(", ")})` : ""].filter(Boolean).join(" ") || undefined;
};

function classify({ status, body }: ErrorAnswer): Classification {
  const e = (body as GoogleError | undefined)?.error;
  const reasons = new Set([...(e?.errors ?? []), ...(e?.details ?? [])].map((r) => r?.reason ?? ""));
  const message = e?.message ?? "";
  if (reasons.has("keyInvalid") || reasons.has("API_KEY_INVALID") || /api key not valid|api key expired/i.test(message))
    return { kind: "auth" };
  if (reasons.has("dailyLimitExceeded") || reasons.has("quotaExceeded") || reasons.has("dailyLimitExceededUnreg")) return { kind: "quota" };
  if (reasons.has("userRateLimitExceeded") || reasons.has("rateLimitExceeded")) return { kind: "rate-limited" };
  // A per-day quota metric answers 429 RESOURCE_EXHAUSTED too: waiting minutes does not help.
  if (status === 429 && /per day/i.test(message)) return { kind: "quota" };
  if (status === 400 && /invalid value|target language|source language/i.test(message))
    return { kind: "rejected", message: "翻译服务不支持该语言" };
  return undefined;
}

export function createGoogle(config: GoogleConfig, options: TranslatorOptions = {}): Translator {
  const base = (config.url?.trim() || "https://translation.googleapis.com").replace(/\/+$/, "").replace(/\/language\/translate\/v2$/, "");
  const http = httpSettings(options);
  const limits = limitsFor(providerLimits, options);
  const url = `${base}/language/translate/v2?key=${encodeURIComponent(config.apiKey.trim())}`;

  return {
    provider: "google",
    async translate(texts: string[], from: string | null, to: string, opts: TranslateOptions = {}) {
      const target = googleLanguage(to);
      const source = from === null ? undefined : googleLanguage(from);
      return translateInBatches(
        "google",
        texts,
        limits,
        async (batch) => {
          const body = { q: batch, target, ...(source ? { source } : {}), format: opts.html ? "html" : "text" };
          const answer = (await requestJson({ provider: "google", url, body, signal: opts.signal, classify, errorText }, http)) as {
            data?: { translations?: { translatedText?: unknown }[] };
          };
          const list = answer?.data?.translations;
          return Array.isArray(list) ? list.map((t) => t?.translatedText) : undefined;
        },
        opts.signal,
      );
    },
  };
}
