// An OpenAI-compatible chat completions endpoint (OpenAI itself, or a local server: vLLM, llama.cpp, Ollama, …):
// POST {url}/v1/chat/completions, `Authorization: Bearer <key>` (optional for a local server), {model, messages,
// temperature: 0, response_format: {type: "json_object"}}. A batch goes as a JSON array of strings and the model is
// asked for {"translations": [...]} of the same length (JSON mode only allows an object; a bare array is accepted
// too). An answer that is no such list (wrong length, a non-string, cut off, not JSON) is not trusted: the batch is
// sent again one text at a time, once; a text that still gets no usable answer ends the call with a clear error, so
// results are never misaligned. A server that refuses response_format is asked again without it.
// Errors are {error: {message, type, code}}: 401 bad key, 429 insufficient_quota (quota) or rate limits, 404
// model_not_found.
import { isStrings, limitsFor, translateInBatches, type BatchLimits } from "./batch.ts";
import { httpSettings, requestJson, type Classification, type ErrorAnswer } from "./http.ts";
import { normalizeLanguage } from "./languages.ts";
import { TranslationError, type TranslateOptions, type Translator, type TranslatorOptions } from "./types.ts";

export type OpenAIConfig = { url?: string | null; apiKey?: string | null; model?: string | null };

export const openaiDefaultUrl = "https://api.openai.com";
const openaiDefaultModel = "gpt-4o-mini";

/** Small batches: the answer must come back whole within the time limit and the model's output budget. */
const providerLimits: BatchLimits = { maxTexts: 20, maxChars: 3_000 };

const names: Record<string, string> = {
  zh: "Simplified Chinese",
  "zh-tw": "Traditional Chinese",
  en: "English",
  es: "Spanish (Latin America)",
  pt: "Brazilian Portuguese",
};

function openaiLanguageName(code: string): string {
  const c = normalizeLanguage(code);
  return names[c] ?? `the language with code "${c}"`;
}

function systemPrompt(from: string | null, to: string, count: number, html: boolean): string {
  return [
    "You translate e-commerce product listings.",
    `Translate each string of the JSON array the user sends ${from === null ? "" : `from ${openaiLanguageName(from)} `}into ${openaiLanguageName(to)}.`,
    `Answer with JSON only: an object {"translations": [...]} whose array holds exactly ${count} strings, the translation of each input string at the same position.`,
    "Do not merge, split, skip, reorder or explain. Keep numbers, units, model numbers and brand names as they are.",
    html
      ? "The strings are HTML: keep every tag and attribute exactly as it is and translate only the text between the tags."
      : "The strings are plain text.",
  ].join(" ");
}

/** The translations in a model's answer, or undefined when it is not exactly `n` strings. */
export function parseAnswer(content: unknown, n: number): string[] | undefined {
  if (typeof content !== "string") return undefined;
  let s = content.replace(/<think>[\s\S]*?<\/think>/g, "").trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(s);
  if (fenced) s = fenced[1];
  let value: unknown;
  try {
    value = JSON.parse(s);
  } catch {
    return undefined;
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    const arrays = Object.values(o).filter(Array.isArray);
    value = Array.isArray(o.translations) ? o.translations : arrays.length === 1 ? arrays[0] : undefined;
  }
  return isStrings(value, n) ? value : undefined;
}

type OpenAIError = { error?: { message?: string; type?: string; code?: string | null } | string };

const errorText = (body: unknown) => {
  const e = (body as OpenAIError | undefined)?.error;
  if (typeof e === "string") return e;
  return e?.message ? [e.message, e.code ? `(${e.code})` : ""].filter(Boolean).join(" ") : undefined;
};

function classify({ status, body }: ErrorAnswer): Classification {
  const e = (body as OpenAIError | undefined)?.error;
  const code = typeof e === "object" ? (e?.code ?? e?.type ?? "") : "";
  const text = errorText(body) ?? "";
  if (code === "insufficient_quota" || /insufficient_quota|exceeded your current quota/i.test(text)) return { kind: "quota" };
  if (status === 404 && (code === "model_not_found" || /model/i.test(text)))
    return { kind: "misconfigured", message: "翻译模型不存在，请联系管理员检查系统设置中的 Translate.Model" };
  if (status === 400 && (code === "context_length_exceeded" || /context length|maximum context/i.test(text)))
    return { kind: "rejected", message: "待翻译的文本过长，请缩短后重试" };
  return undefined;
}

export function createOpenAI(config: OpenAIConfig, options: TranslatorOptions = {}): Translator {
  const base = (config.url?.trim() || openaiDefaultUrl)
    .replace(/\/+$/, "")
    .replace(/\/chat\/completions$/, "")
    .replace(/\/v1$/, "");
  const model = config.model?.trim() || openaiDefaultModel;
  const http = httpSettings(options);
  const limits = limitsFor(providerLimits, options);
  const headers: Record<string, string> = config.apiKey?.trim() ? { authorization: `Bearer ${config.apiKey.trim()}` } : {};
  let jsonMode = true;

  async function ask(batch: string[], from: string | null, to: string, opts: TranslateOptions): Promise<string[] | undefined> {
    const body = {
      model,
      temperature: 0,
      messages: [
        { role: "system", content: systemPrompt(from, to, batch.length, !!opts.html) },
        { role: "user", content: JSON.stringify(batch) },
      ],
      ...(jsonMode ? { response_format: { type: "json_object" } } : {}),
    };
    let answer: { choices?: { finish_reason?: string; message?: { content?: unknown } }[] };
    try {
      answer = (await requestJson(
        { provider: "openai", url: `${base}/v1/chat/completions`, headers, body, signal: opts.signal, classify, errorText },
        http,
      )) as typeof answer;
    } catch (e) {
      if (
        jsonMode &&
        e instanceof TranslationError &&
        e.kind === "rejected" &&
        /response_format|json_object/i.test(e.providerMessage ?? "")
      ) {
        jsonMode = false;
        return ask(batch, from, to, opts);
      }
      throw e;
    }
    const choice = answer?.choices?.[0];
    if (choice?.finish_reason === "length") return undefined; // cut off: not a whole answer
    return parseAnswer(choice?.message?.content, batch.length);
  }

  const malformed = (what: string) =>
    new TranslationError("bad-response", "openai", null, { providerMessage: `the model gave no usable translation for ${what}` });

  return {
    provider: "openai",
    async translate(texts: string[], from: string | null, to: string, opts: TranslateOptions = {}) {
      return translateInBatches(
        "openai",
        texts,
        limits,
        async (batch) => {
          const whole = await ask(batch, from, to, opts);
          if (whole) return whole;
          // Not trusted as a whole: once more, one text at a time.
          const out: string[] = [];
          for (const [i, text] of batch.entries()) {
            const one = await ask([text], from, to, opts);
            if (!one) throw malformed(`text ${i + 1} of a batch of ${batch.length}`);
            out.push(one[0]);
          }
          return out;
        },
        opts.signal,
      );
    },
  };
}
