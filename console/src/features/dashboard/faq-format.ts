// The FAQ's stored format (setting Console.Faq, see docs/decisions.md): a JSON array of {q, a} written by the FAQ
// editor. Values typed by hand on the system configuration screen are read too: "Q:/A:" (or 问：/答：) blocks, or, with
// no markers at all, blocks separated by a blank line whose first line is the question.
import { MAX_SETTING_VALUE_LENGTH } from "#shared/contract/settings.ts";
import { SettingKeys } from "#shared/contract/setting-registry.ts";

export const FAQ_SETTING_KEY = SettingKeys.faq;
export const FAQ_QUESTION_MAX = 200;
export const FAQ_ANSWER_MAX = 5000;
export { MAX_SETTING_VALUE_LENGTH as FAQ_VALUE_MAX };

export type FaqItem = { q: string; a: string };

const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

function fromJson(entry: unknown): FaqItem[] {
  if (!entry || typeof entry !== "object") return [];
  const o = entry as Record<string, unknown>;
  const q = str(o.q ?? o.question ?? o.title).trim();
  const a = str(o.a ?? o.answer ?? o.content).trim();
  return q ? [{ q, a }] : [];
}

const QUESTION = /^\s*(?:Q|问)\s*[:：]\s*/i;
const ANSWER = /^\s*(?:A|答)\s*[:：]\s*/i;

function fromText(text: string): FaqItem[] {
  const lines = text.split(/\r?\n/);
  if (!lines.some((l) => QUESTION.test(l))) {
    return text
      .split(/\r?\n\s*\r?\n/)
      .map((block) => block.trim())
      .filter(Boolean)
      .map((block) => {
        const [first, ...rest] = block.split(/\r?\n/);
        return { q: first.trim(), a: rest.join("\n").trim() };
      });
  }
  const items: FaqItem[] = [];
  let current: FaqItem | null = null;
  let part: keyof FaqItem = "q";
  for (const line of lines) {
    if (QUESTION.test(line)) {
      current = { q: line.replace(QUESTION, ""), a: "" };
      items.push(current);
      part = "q";
    } else if (current && ANSWER.test(line)) {
      current.a = line.replace(ANSWER, "");
      part = "a";
    } else if (current) {
      current[part] += "\n" + line;
    }
  }
  return items.map((i) => ({ q: i.q.trim(), a: i.a.trim() })).filter((i) => i.q);
}

/** The FAQ entries of a stored value; blank or missing is none. */
export function parseFaq(value: string | null | undefined): FaqItem[] {
  const text = (value ?? "").trim();
  if (!text) return [];
  if (text.startsWith("[") || text.startsWith("{")) {
    try {
      const data: unknown = JSON.parse(text);
      const list = Array.isArray(data) ? data : (data as { items?: unknown })?.items;
      if (Array.isArray(list)) return list.flatMap(fromJson);
    } catch {
      // not JSON after all: read it as text
    }
  }
  return fromText(text);
}

/** The stored value of the entries (indented, so it stays readable on the system configuration screen). */
export function serializeFaq(items: FaqItem[]): string {
  return JSON.stringify(
    items.map((i) => ({ q: i.q.trim(), a: i.a.trim() })),
    null,
    2,
  );
}

/** The entries whose question or answer contains the search text (any case); all of them for a blank search. */
export function searchFaq(items: FaqItem[], search: string): { item: FaqItem; index: number }[] {
  const needle = search.trim().toLowerCase();
  const all = items.map((item, index) => ({ item, index }));
  if (!needle) return all;
  return all.filter(({ item }) => item.q.toLowerCase().includes(needle) || item.a.toLowerCase().includes(needle));
}

/** Splits text around the (case-insensitive) occurrences of the search text, for highlighting. */
export function splitMatches(text: string, search: string): { text: string; match: boolean }[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [{ text, match: false }];
  const out: { text: string; match: boolean }[] = [];
  const lower = text.toLowerCase();
  let at = 0;
  for (let i = lower.indexOf(needle); i !== -1; i = lower.indexOf(needle, at)) {
    if (i > at) out.push({ text: text.slice(at, i), match: false });
    out.push({ text: text.slice(i, i + needle.length), match: true });
    at = i + needle.length;
  }
  if (at < text.length) out.push({ text: text.slice(at), match: false });
  return out;
}
