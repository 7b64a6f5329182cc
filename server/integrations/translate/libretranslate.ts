// LibreTranslate (self-hosted or libretranslate.com): POST {url}/translate with JSON {q: [...], source ("auto" to
// detect), target, format: "text"|"html", api_key?} → {translatedText: [...]} (a string for a single q). Errors are
// {error: "..."}: 400 bad request (also "exceeds text limit" when the server's --batch-limit or --char-limit is lower
// than ours: the batch is then halved), 403 invalid API key or an IP banned for flooding, 429 slow down, 500 failed.
// Language codes changed over versions (zh → zh-Hans, Brazilian pt → pb): the server's GET /languages decides.
import { limitsFor, translateInBatches, type BatchLimits } from "./batch.ts";
import { httpSettings, requestJson, type ErrorAnswer, type Classification } from "./http.ts";
import { normalizeLanguage } from "./languages.ts";
import { TranslationError, type TranslateOptions, type Translator, type TranslatorOptions } from "./types.ts";

export type LibreTranslateConfig = { url: string; apiKey?: string | null };

/** LibreTranslate's own defaults are unlimited; these keep one request (one model run) short. */
const providerLimits: BatchLimits = { maxTexts: 50, maxChars: 5_000 };

/** Our code → the server's candidates, newest naming first. */
const aliases: Record<string, string[]> = {
  zh: ["zh-Hans", "zh"],
  "zh-tw": ["zh-Hant", "zt"],
  pt: ["pb", "pt"],
};

const errorText = (body: unknown) => {
  const e = (body as { error?: unknown } | undefined)?.error;
  return typeof e === "string" ? e : undefined;
};

function classify({ status, body }: ErrorAnswer): Classification {
  const text = errorText(body) ?? "";
  if (/invalid api key|api key/i.test(text) && (status === 400 || status === 403)) return { kind: "auth" };
  if (status === 403 && /too many request/i.test(text)) return { kind: "rate-limited" };
  if (status === 400 && /is not supported|not available as a target/i.test(text))
    return { kind: "rejected", message: "翻译服务不支持该语言，请联系管理员检查翻译服务安装的语言" };
  return undefined;
}

export function createLibreTranslate(config: LibreTranslateConfig, options: TranslatorOptions = {}): Translator {
  const base = config.url.replace(/\/+$/, "");
  const http = httpSettings(options);
  const limits = limitsFor(providerLimits, options);
  let known: Promise<Set<string>> | undefined;

  async function serverCode(code: string, signal?: AbortSignal): Promise<string> {
    const ours = normalizeLanguage(code);
    const candidates = aliases[ours];
    if (!candidates) return ours;
    known ??= requestJson({ provider: "libretranslate", method: "GET", url: `${base}/languages`, signal, errorText }, http).then(
      (list) => new Set(Array.isArray(list) ? list.map((l: { code?: unknown }) => String(l?.code)) : []),
    );
    try {
      const codes = await known;
      return candidates.find((c) => codes.has(c)) ?? candidates[0];
    } catch (e) {
      known = undefined;
      if (signal?.aborted) throw e;
      return candidates[0];
    }
  }

  async function send(batch: string[], source: string, target: string, html: boolean, signal?: AbortSignal): Promise<unknown> {
    const body = { q: batch, source, target, format: html ? "html" : "text", ...(config.apiKey ? { api_key: config.apiKey } : {}) };
    try {
      const answer = (await requestJson(
        { provider: "libretranslate", url: `${base}/translate`, body, signal, classify, errorText },
        http,
      )) as {
        translatedText?: unknown;
      };
      const t = answer?.translatedText;
      return typeof t === "string" && batch.length === 1 ? [t] : t;
    } catch (e) {
      // The server's own batch or character limit is lower than ours: halve the batch and try the halves.
      if (
        e instanceof TranslationError &&
        e.kind === "rejected" &&
        /exceeds text limit/i.test(e.providerMessage ?? "") &&
        batch.length > 1
      ) {
        const half = Math.ceil(batch.length / 2);
        const parts = [batch.slice(0, half), batch.slice(half)];
        const out: unknown[] = [];
        for (const part of parts) {
          const r = await send(part, source, target, html, signal);
          if (!Array.isArray(r) || r.length !== part.length) return r;
          out.push(...r);
        }
        return out;
      }
      throw e;
    }
  }

  return {
    provider: "libretranslate",
    async translate(texts: string[], from: string | null, to: string, opts: TranslateOptions = {}) {
      if (!texts.some((t) => t.trim() !== "")) return texts.slice();
      const source = from === null ? "auto" : await serverCode(from, opts.signal);
      const target = await serverCode(to, opts.signal);
      return translateInBatches(
        "libretranslate",
        texts,
        limits,
        (batch) => send(batch, source, target, !!opts.html, opts.signal),
        opts.signal,
      );
    },
  };
}
