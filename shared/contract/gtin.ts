// The GTIN pool (spec §7 MeliCode): codes the seller bought, each given to at most one variant when publishing.
import { z } from "zod";

/** The most codes one SetCodes call takes (a pasted list of a few thousand is the usual purchase). */
export const MAX_CODES_PER_CALL = 10_000;

/**
 * Whether a text is a GTIN: 8 (EAN-8), 12 (UPC-A), 13 (EAN-13) or 14 (GTIN-14) digits whose last digit is the GS1
 * check digit (from the right, digits weighted 3, 1, 3, ... ; the check digit brings the sum to a multiple of 10).
 */
export function isGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12,14})$/.test(code)) return false;
  let sum = 0;
  for (let i = code.length - 2, w = 3; i >= 0; i--, w = 4 - w) sum += Number(code[i]) * w;
  return (10 - (sum % 10)) % 10 === Number(code[code.length - 1]);
}

/** The largest code file the console reads (a .txt or .csv of codes; 10,000 codes take about 150 KB). */
export const GTIN_FILE_MAX_BYTES = 1024 * 1024;

/** The codes of a pasted text or a code file: one per line, or separated by commas, semicolons, spaces or quotes. */
export const splitCodes = (text: string) => text.split(/[\s,;，；"']+/).filter(Boolean);

/** A pasted text or file checked before sending: the valid codes (each once, in order), the invalid ones (each once). */
export type CodeCheck = { valid: string[]; invalid: string[]; repeated: number };

export function checkCodes(text: string): CodeCheck {
  const valid = new Set<string>();
  const invalid = new Set<string>();
  let repeated = 0;
  for (const code of splitCodes(text)) {
    const into = isGtin(code) ? valid : invalid;
    if (into.has(code)) repeated++;
    else into.add(code);
  }
  return { valid: [...valid], invalid: [...invalid], repeated };
}

/** SetCodes: the codes to add (the console splits a pasted text on lines, commas and spaces); each is trimmed. */
export const setCodesInput = z.object({
  codes: z.array(z.string().trim().max(64)).min(1).max(MAX_CODES_PER_CALL),
});
/** added: new in the pool; ignored: repeated in the list or already in the pool (used or not). */
export const setCodesResult = z.object({ added: z.number().int(), ignored: z.number().int() });

/** GetCodeCnt: the tenant's pool. */
export const codeCount = z.object({ unused: z.number().int(), used: z.number().int(), total: z.number().int() });
export type CodeCount = z.infer<typeof codeCount>;

/** ClearCode: how many unused codes were removed (used ones stay, as the history of what each listing got). */
export const clearCodesResult = z.object({ deleted: z.number().int() });
