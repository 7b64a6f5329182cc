// DeepL API v2: POST {url}/v2/translate, header `Authorization: DeepL-Auth-Key <key>`, JSON {text: [...] (≤ 50),
// target_lang, source_lang? (omitted: detected), tag_handling: "html"?} → {translations: [{detected_source_language,
// text}]}. A request is at most 128 KiB. Errors are {message}: 403 wrong key (or a Free key on the Pro host), 456
// quota exceeded, 429 (and the older 529) too many requests, 413 too large, 5xx temporary.
// Free keys end in ":fx" and live on api-free.deepl.com, Pro keys on api.deepl.com.
import { limitsFor, translateInBatches, type BatchLimits } from "./batch.ts";
import { httpSettings, requestJson, type Classification, type ErrorAnswer } from "./http.ts";
import { baseLanguage, normalizeLanguage, withRegion } from "./languages.ts";
import type { TranslateOptions, Translator, TranslatorOptions } from "./types.ts";

export type DeepLConfig = { apiKey: string; url?: string | null };

/** 50 texts per request (DeepL's limit); 128 KiB per request, kept below for the rest of the body. */
const providerLimits: BatchLimits = { maxTexts: 50, maxChars: 30_000, maxBytes: 120 * 1024 };

/** Target codes: DeepL wants a variant for English, Portuguese and Chinese. */
const targets: Record<string, string> = { zh: "ZH-HANS", "zh-tw": "ZH-HANT", en: "EN-US", pt: "PT-BR", es: "ES" };

export function deeplTarget(code: string): string {
  return targets[normalizeLanguage(code)] ?? withRegion(code).toUpperCase();
}

/** Source codes carry no variant. */
export function deeplSource(code: string): string {
  return baseLanguage(code).toUpperCase();
}

export function deeplDefaultUrl(apiKey: string): string {
  return apiKey.trim().endsWith(":fx") ? "https://api-free.deepl.com" : "https://api.deepl.com";
}

const errorText = (body: unknown) => {
  const b = body as { message?: unknown; detail?: unknown } | undefined;
  const parts = [b?.message, b?.detail].filter((p): p is string => typeof p === "string" && p !== "");
  return parts.length ? parts.join(": ") : undefined;
};

function classify({ status, body }: ErrorAnswer): Classification {
  if (status === 456) return { kind: "quota" };
  if (status === 529) return { kind: "rate-limited" };
  if (status === 403 && /wrong endpoint/i.test(errorText(body) ?? ""))
    return {
      kind: "misconfigured",
      message: "翻译服务地址与 API Key 不匹配（免费版 Key 用 api-free.deepl.com，专业版用 api.deepl.com），请联系管理员检查 Translate.Url",
    };
  if (status === 400 && /target_lang|source_lang/i.test(errorText(body) ?? ""))
    return { kind: "rejected", message: "翻译服务不支持该语言" };
  return undefined;
}

export function createDeepL(config: DeepLConfig, options: TranslatorOptions = {}): Translator {
  const base = (config.url?.trim() || deeplDefaultUrl(config.apiKey)).replace(/\/+$/, "").replace(/\/v2$/, "");
  const http = httpSettings(options);
  const limits = limitsFor(providerLimits, options);
  const headers = { authorization: `DeepL-Auth-Key ${config.apiKey.trim()}` };

  return {
    provider: "deepl",
    async translate(texts: string[], from: string | null, to: string, opts: TranslateOptions = {}) {
      const target = deeplTarget(to);
      const source = from === null ? undefined : deeplSource(from);
      return translateInBatches(
        "deepl",
        texts,
        limits,
        async (batch) => {
          const body = {
            text: batch,
            target_lang: target,
            ...(source ? { source_lang: source } : {}),
            ...(opts.html ? { tag_handling: "html" } : {}),
          };
          const answer = (await requestJson(
            { provider: "deepl", url: `${base}/v2/translate`, headers, body, signal: opts.signal, classify, errorText },
            http,
          )) as { translations?: { text?: unknown }[] };
          return Array.isArray(answer?.translations) ? answer.translations.map((t) => t?.text) : undefined;
        },
        opts.signal,
      );
    },
  };
}
