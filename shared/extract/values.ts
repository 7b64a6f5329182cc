// Small readers that turn loosely typed page data into the product's types: ids, prices, stock, URLs, units, language.
import { escapeHtml } from "./html.ts";
import { parseJsonExact } from "./literal.ts";
import type { Warn } from "./snapshot.ts";

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
export function obj(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
/** Objects of a list, skipping anything else. */
export function objs(v: unknown): Obj[] {
  return arr(v).filter(isObj);
}

/** Value at a dotted path ("a.b.0.c"). */
export function at(v: unknown, path: string): unknown {
  let cur = v;
  for (const key of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Obj)[key];
  }
  return cur;
}

/** First object found depth-first (bounded) that satisfies `test`. Page data moves around between releases. */
export function findDeep(v: unknown, test: (o: Obj) => boolean, maxDepth = 8): Obj | undefined {
  if (maxDepth < 0 || v === null || typeof v !== "object") return undefined;
  if (isObj(v) && test(v)) return v;
  for (const child of Array.isArray(v) ? v : Object.values(v)) {
    if (child !== null && typeof child === "object") {
      const hit = findDeep(child, test, maxDepth - 1);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** The first object stored under `key` (depth-first, bounded) that passes `test`: page data moves, its keys stay. */
export function findByKey(v: unknown, key: string, test: (o: Obj) => boolean = () => true, maxDepth = 10): Obj | undefined {
  const holder = findDeep(v, (o) => isObj(o[key]) && test(o[key]), maxDepth);
  return holder ? (holder[key] as Obj) : undefined;
}

const MAX_EMBEDDED_JSON = 5 * 1024 * 1024;

/**
 * A copy of page data whose JSON-text values (`"dataJson": "{…}"`, as 1688 keeps part of its page data) are parsed in
 * place, so a search by key sees through them. Text that is not JSON stays text.
 */
export function expandJsonText(v: unknown, maxDepth = 16): unknown {
  if (maxDepth < 0) return v;
  if (typeof v === "string") {
    const t = v.trim();
    if (t.length < 2 || t.length > MAX_EMBEDDED_JSON || t[0] !== "{" || t[t.length - 1] !== "}") return v;
    try {
      return expandJsonText(parseJsonExact(t), maxDepth - 1);
    } catch {
      return v;
    }
  }
  if (Array.isArray(v)) return v.map((x) => expandJsonText(x, maxDepth - 1));
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expandJsonText(x, maxDepth - 1)]));
  return v;
}

/** A non-empty trimmed string from a string or number. */
export function str(v: unknown): string | undefined {
  if (typeof v === "string") {
    const t = v.trim();
    return t ? t : undefined;
  }
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return undefined;
}

/** An id as a string. A number past 2^53 was already rounded by whoever parsed it: say so. */
export function idOf(v: unknown, warn?: Warn): string | undefined {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return undefined;
    if (!Number.isSafeInteger(v)) warn?.(`id ${v} is past 2^53 and may have lost digits`);
    return Number.isInteger(v) ? v.toFixed(0) : String(v);
  }
  return str(v);
}

export function round2(n: number): number {
  return Math.round((n + Number.EPSILON) * 100) / 100;
}

/**
 * A price from a number or from text such as "¥12.50", "US $1,234.56", "R$ 1.234,56", "MXN$58,46", "12.50-20.00"
 * (the first number). Separator rule: with both "," and ".", the last one is the decimal point; with one kind only, it is
 * a decimal point when followed by 1-2 digits at the end, else a thousands separator.
 */
export function parsePrice(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) && v >= 0 ? round2(v) : undefined;
  if (typeof v !== "string") return undefined;
  const m = /\d[\d.,'\s\u00a0]*/.exec(v);
  if (!m) return undefined;
  let t = m[0].replace(/[\s\u00a0']+$/, "").replace(/[.,]+$/, "");
  t = t.replace(/[\s\u00a0']/g, "");
  const lastDot = t.lastIndexOf(".");
  const lastComma = t.lastIndexOf(",");
  let normalized: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = lastDot > lastComma ? "." : ",";
    const thousands = dec === "." ? "," : ".";
    normalized = t.split(thousands).join("").replace(dec, ".");
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? "." : ",";
    const parts = t.split(sep);
    const tail = parts[parts.length - 1];
    // "1,234" and "1.234.567" group thousands; "12,5" and "12.50" have decimals.
    normalized = parts.length === 2 && tail.length !== 3 ? parts.join(".") : parts.join("");
  } else normalized = t;
  const n = Number(normalized);
  return Number.isFinite(n) ? round2(n) : undefined;
}

/** Both ends of "12.50 - 20.00" / "¥12.5~¥20" / "59-69"; a single price gives min = max. */
export function parsePriceRange(v: unknown): { min: number; max: number } | undefined {
  if (typeof v === "number") {
    const p = parsePrice(v);
    return p === undefined ? undefined : { min: p, max: p };
  }
  if (typeof v !== "string") return undefined;
  const parts = v.split(/\s*(?:-|–|—|~|～|至)\s*/).filter((p) => /\d/.test(p));
  const prices = parts.map(parsePrice).filter((p): p is number => p !== undefined);
  if (!prices.length) return undefined;
  return { min: Math.min(...prices), max: Math.max(...prices) };
}

const SYMBOLS: [RegExp, string][] = [
  [/US\s?\$|USD/i, "USD"],
  [/MX\$|MXN/i, "MXN"],
  [/R\$|BRL/i, "BRL"],
  [/CA\$|C\$|CAD/, "CAD"],
  [/AU\$|A\$|AUD/, "AUD"],
  [/CLP/, "CLP"],
  [/COP/, "COP"],
  [/ARS/, "ARS"],
  [/JP¥|JPY|円/, "JPY"],
  [/CN¥|CN￥|RMB|CNY|[¥￥]|元/, "CNY"],
  [/€|EUR/, "EUR"],
  [/£|GBP/, "GBP"],
];

/** Currency named by a price text's symbol or code; undefined for a bare "$" (many currencies use it). */
export function currencyOf(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  for (const [re, code] of SYMBOLS) if (re.test(text)) return code;
  const iso = /\b([A-Z]{3})\b/.exec(text);
  return iso?.[1];
}

export function currencyCode(v: unknown): string | undefined {
  const s = str(v)?.toUpperCase();
  return s && /^[A-Z]{3}$/.test(s) ? s : undefined;
}

/** Stock as a non-negative integer from a number or text ("300", "库存300件"). */
export function stockOf(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
  if (typeof v === "string") {
    const m = /\d+/.exec(v.replace(/,/g, ""));
    return m ? Number(m[0]) : undefined;
  }
  return undefined;
}

export function numberOf(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

/** An absolute http(s) URL: protocol-relative and relative forms resolved against `base`; anything else dropped. */
export function absUrl(v: unknown, base?: string): string | undefined {
  const s = str(v);
  if (!s) return undefined;
  try {
    const u = s.startsWith("//") ? new URL("https:" + s) : new URL(s, base);
    if (u.protocol !== "http:" && u.protocol !== "https:") return undefined;
    return u.href;
  } catch {
    return undefined;
  }
}

/** Alibaba CDN thumbnails ("x.jpg_640x640.jpg", "x.jpg_.webp", "x_60x60q90.jpg") back to the original image. */
export function originalAlicdnImage(url: string): string {
  // Sized and quality-reduced renditions: "x.jpg_60x60q90.jpg", "x.jpg_q50.jpg" (mobile pages), "x.jpg_.webp".
  return url.replace(/(\.(?:jpe?g|png|webp|gif))_(?:\d+x\d+[^/]*|q\d+[^/]*|\.webp)$/i, "$1").replace(/_\d+x\d+q\d+\.(?:jpe?g|webp)$/i, "");
}

export function uniq<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/** Image URLs, absolute, de-duplicated, in order. */
export function imageList(items: unknown[], base?: string, clean: (u: string) => string = (u) => u): string[] {
  const out: string[] = [];
  for (const it of items) {
    const raw = isObj(it) ? (it.url ?? it.contentUrl ?? it.src ?? it.imageUrl ?? it.fullPathImageURI) : it;
    const u = absUrl(raw, base);
    if (u) out.push(clean(u));
  }
  return uniq(out);
}

const KG = ["kg", "kgs", "kilogram", "kilograms", "kgm", "公斤", "千克"];
const LB = ["lb", "lbs", "pound", "pounds", "lbr"];
const OZ = ["oz", "ounce", "ounces", "onz"];

/** Grams from a value and unit (g, kg, lb, oz and the UN/CEFACT codes GRM/KGM/LBR/ONZ); grams by default. */
export function toGrams(value: unknown, unit?: string): number | undefined {
  const n = numberOf(value) ?? (typeof value === "string" ? numberOf(/\d+(?:\.\d+)?/.exec(value)?.[0]) : undefined);
  if (n === undefined || n <= 0) return undefined;
  const u = (unit ?? "g").trim().toLowerCase();
  const factor = KG.includes(u) ? 1000 : LB.includes(u) ? 453.59237 : OZ.includes(u) ? 28.349523125 : u === "mg" ? 0.001 : 1;
  return round2(n * factor);
}

/** Centimetres from a value and unit (mm, cm, m, in and MMT/CMT/MTR/INH). */
export function toCm(value: unknown, unit?: string): number | undefined {
  const n = numberOf(value);
  if (n === undefined || n <= 0) return undefined;
  const u = (unit ?? "cm").trim().toLowerCase();
  const factor =
    u === "mm" || u === "mmt" || u.startsWith("millim")
      ? 0.1
      : u === "m" || u === "mtr"
        ? 100
        : ["in", "inch", "inches", "inh", "pulgadas", "zoll"].includes(u)
          ? 2.54
          : 1;
  return round2(n * factor);
}

/** "10 x 5 x 2 inches; 1.1 Pounds" style text: dimensions and weight. */
export function parseDimsText(text: string): { dims?: { lengthCm: number; widthCm: number; heightCm: number }; weightG?: number } {
  const out: { dims?: { lengthCm: number; widthCm: number; heightCm: number }; weightG?: number } = {};
  // European pages write decimal commas ("30 x 20,5 x 10 cm") and spell units out ("Zentimeter", "millimètres").
  const n = "(\\d+(?:[.,]\\d+)?)";
  const d = new RegExp(
    `${n}\\s*[x×*]\\s*${n}\\s*[x×*]\\s*${n}\\s*(mm|cm|m|inches|inch|in|pulgadas|zoll|millim[eè]t\\w*|zentimeter|centim[eè]t\\w*)(?![a-z])`,
    "i",
  ).exec(text);
  if (d) {
    const num = (v: string) => v.replace(",", ".");
    const [l, w, h] = [toCm(num(d[1]), d[4]), toCm(num(d[2]), d[4]), toCm(num(d[3]), d[4])];
    if (l && w && h) out.dims = { lengthCm: l, widthCm: w, heightCm: h };
  }
  const wt = parseWeightText(text);
  if (wt) out.weightG = wt;
  return out;
}

/** "1.1 Pounds", "500 g", "0.5kg", "8 ounces", "1,2 Kilogramm", "350 grammes", "2 chilogrammi". */
export function parseWeightText(text: string): number | undefined {
  const m = /(\d+(?:[.,]\d+)?)\s*((?:kilo|chilo)?gram(?:m[ei]?s?|os?|s)?|kgs?|g|pounds?|lbs?|ounces?|oz|公斤|千克|克)(?![a-zà-ÿ])/i.exec(
    text,
  );
  if (!m) return undefined;
  const unit = m[2].toLowerCase();
  const u =
    unit.startsWith("kilo") || unit.startsWith("chilo") || unit.startsWith("kg") || unit === "公斤" || unit === "千克"
      ? "kg"
      : unit.startsWith("gram") || unit === "g" || unit === "克"
        ? "g"
        : unit.startsWith("pound") || unit.startsWith("lb")
          ? "lb"
          : "oz";
  return toGrams(m[1].replace(",", "."), u);
}

/** Plain text to safe HTML paragraphs (one per blank-line-separated block; single newlines become <br>). */
export function textToHtml(text: string): string | undefined {
  const blocks = text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  if (!blocks.length) return undefined;
  return blocks.map((b) => `<p>${escapeHtml(b).replace(/\n/g, "<br>")}</p>`).join("");
}

/** Description HTML made of images (1688/Pinduoduo keep descriptions as image lists). */
export function imagesToHtml(urls: string[]): string | undefined {
  return urls.length ? urls.map((u) => `<p><img src="${escapeHtml(u)}"></p>`).join("") : undefined;
}

const HAN = /\p{Script=Han}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;

/** Language of a title: from its script when that is telling, else the page's declared language, else `fallback`. */
export function titleLanguage(title: string, declared?: string, fallback = "en"): string {
  if (KANA.test(title)) return "ja";
  if (HANGUL.test(title)) return "ko";
  if (HAN.test(title)) return "zh";
  if (CYRILLIC.test(title)) return "ru";
  const d = declared?.trim().toLowerCase().slice(0, 2);
  if (d && /^[a-z]{2}$/.test(d) && d !== "zh" && d !== "ja" && d !== "ko") return d;
  return fallback;
}
