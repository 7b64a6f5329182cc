// The frame every adapter translates in: blank texts pass through, a text given twice is sent once, the rest goes in
// batches within the provider's limits (texts per request, characters, bytes), one batch at a time, and every batch's
// answer is checked for its length and types before it is put back in place, so a result is never misaligned.
import { TranslationError, type ProviderName } from "./types.ts";

export type BatchLimits = {
  maxTexts: number;
  /** Characters (code points) per request; a longer text goes alone. */
  maxChars: number;
  /** UTF-8 bytes of the texts as JSON strings per request (DeepL limits the request size), when the provider has one. */
  maxBytes?: number;
};

const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};
const jsonBytes = (s: string) => Buffer.byteLength(JSON.stringify(s), "utf8");

/** Splits texts into consecutive batches within the limits (order kept). */
export function planBatches(texts: string[], limits: BatchLimits): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  let bytes = 0;
  for (const text of texts) {
    const c = codePoints(text);
    const b = limits.maxBytes ? jsonBytes(text) : 0;
    const full =
      current.length >= limits.maxTexts || chars + c > limits.maxChars || (limits.maxBytes !== undefined && bytes + b > limits.maxBytes);
    if (current.length > 0 && full) {
      batches.push(current);
      current = [];
      chars = 0;
      bytes = 0;
    }
    current.push(text);
    chars += c;
    bytes += b;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** The limits an adapter uses: its provider's hard limits, lowered (never raised) by the options. */
export function limitsFor(provider: BatchLimits, options: { maxTexts?: number; maxChars?: number }): BatchLimits {
  return {
    ...provider,
    maxTexts: Math.max(1, Math.min(provider.maxTexts, options.maxTexts ?? provider.maxTexts)),
    maxChars: Math.max(1, Math.min(provider.maxChars, options.maxChars ?? provider.maxChars)),
  };
}

/** Whether an answer is exactly `n` strings. */
export function isStrings(value: unknown, n: number): value is string[] {
  return Array.isArray(value) && value.length === n && value.every((v) => typeof v === "string");
}

/**
 * Translates through `run` (one request per batch) and answers in the input's order and number. `run` must answer
 * its batch's translations in order; an answer of another length or with a non-string is a bad-response error.
 */
export async function translateInBatches(
  provider: ProviderName,
  texts: string[],
  limits: BatchLimits,
  run: (batch: string[]) => Promise<unknown>,
  signal?: AbortSignal,
): Promise<string[]> {
  const unique = [...new Set(texts.filter((t) => typeof t === "string" && t.trim() !== ""))];
  const translated = new Map<string, string>();
  for (const batch of planBatches(unique, limits)) {
    if (signal?.aborted) throw signal.reason;
    const answer = await run(batch);
    if (!isStrings(answer, batch.length)) {
      throw new TranslationError("bad-response", provider, null, {
        providerMessage: `expected ${batch.length} translations, got ${Array.isArray(answer) ? `${answer.length} items` : typeof answer}`,
      });
    }
    batch.forEach((text, i) => translated.set(text, answer[i]));
  }
  return texts.map((t) => translated.get(t) ?? t);
}
