// Display helpers of the collection screens (dates and prices: lib/format.ts): the title of a product in the first
// language it has, and the URL box's lines.
import { IMPORT_MAX_BYTES, MAX_URLS_PER_REQUEST, webUrl } from "#shared/contract/collect.ts";

/** The languages a title is looked for in, in order; then whatever language it has. */
export const TITLE_LANGUAGES = ["zh", "es", "en"] as const;

export const languageLabels: Record<string, string> = { zh: "中文", es: "西语", en: "英语", pt: "葡语" };

/** The title to show: zh, es, en, else the first non-empty language; with the language it came from. */
export function titleOf(title: Record<string, string> | null | undefined): { text: string; language: string | null } {
  const t = title ?? {};
  for (const lang of TITLE_LANGUAGES) if (t[lang]?.trim()) return { text: t[lang].trim(), language: lang };
  for (const [lang, text] of Object.entries(t)) if (text?.trim()) return { text: text.trim(), language: lang };
  return { text: "", language: null };
}

export type ParsedUrls = {
  /** Valid http(s) URLs, each once, in the order typed. */
  urls: string[];
  /** Lines that are not http(s) URLs, with their line numbers (1-based). */
  invalid: { line: number; text: string }[];
  /** How many lines repeated an earlier URL. */
  duplicates: number;
};

/** The URL box: one URL per line (blank lines skipped), checked with the contract's own URL rule. */
export function parseUrlLines(text: string): ParsedUrls {
  const urls: string[] = [];
  const seen = new Set<string>();
  const invalid: ParsedUrls["invalid"] = [];
  let duplicates = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const r = webUrl.safeParse(line);
    if (!r.success) {
      invalid.push({ line: i + 1, text: line });
      return;
    }
    if (seen.has(r.data)) {
      duplicates++;
      return;
    }
    seen.add(r.data);
    urls.push(r.data);
  });
  return { urls, invalid, duplicates };
}

/** Why the URL box cannot be sent, or null when it can. */
export function urlLinesProblem(p: ParsedUrls): string | null {
  if (p.invalid.length) {
    const first = p.invalid[0];
    const more = p.invalid.length > 1 ? ` 等 ${p.invalid.length} 行` : "";
    return `第 ${first.line} 行不是有效的 http/https 链接${more}`;
  }
  if (!p.urls.length) return "请输入商品链接";
  if (p.urls.length > MAX_URLS_PER_REQUEST) return `一次最多采集 ${MAX_URLS_PER_REQUEST} 个链接，当前 ${p.urls.length} 个`;
  return null;
}

/** Splits a list into slices of at most `size` (the batch calls take at most 1000 ids). */
export function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Why a chosen URL file cannot be sent, or null (the server reads it by content; the name only guards mistakes). */
export function fileProblem(file: { name: string; size: number }): string | null {
  if (!/\.(xlsx|csv|txt)$/i.test(file.name)) return "请选择 xlsx、csv 或 txt 文件";
  if (file.size === 0) return "文件是空的";
  if (file.size > IMPORT_MAX_BYTES) return `文件过大，最大 ${IMPORT_MAX_BYTES / 1024 / 1024} MB`;
  return null;
}

/** A URL as shown in a narrow cell: without the scheme (the link keeps the whole URL). */
export const displayUrl = (url: string) => url.replace(/^https?:\/\//i, "");
