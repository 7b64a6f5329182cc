// Our language codes (zh, zh-cn, en, es, pt; others as BCP 47 tags) in one form, before each adapter maps them to its
// provider's codes.

/** Lower case, "-" separated; Simplified Chinese tags fold to "zh", Traditional ones to "zh-tw". */
export function normalizeLanguage(code: string): string {
  const c = code.trim().toLowerCase().replace(/_/g, "-");
  if (c === "zh" || c === "zh-cn" || c === "zh-sg" || c.startsWith("zh-hans")) return "zh";
  if (c === "zh-tw" || c === "zh-hk" || c === "zh-mo" || c.startsWith("zh-hant")) return "zh-tw";
  return c;
}

/** The language without its region or script: pt-br → pt. */
export function baseLanguage(code: string): string {
  return normalizeLanguage(code).split("-")[0];
}

/** A tag with its region upper-cased, as Google and DeepL write them: pt-pt → pt-PT. */
export function withRegion(code: string): string {
  const [lang, ...rest] = normalizeLanguage(code).split("-").filter(Boolean);
  return [lang, ...rest.map((r) => (r.length === 2 ? r.toUpperCase() : r[0].toUpperCase() + r.slice(1)))].join("-");
}
