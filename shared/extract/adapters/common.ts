// Helpers shared by the site adapters: reading a page variable from the HTML or the copied globals, reading intercepted
// responses, and the block-page markers of the Alibaba family (1688, Taobao, Tmall, AliExpress share the same
// "punish" slider and login service).
import { htmlLang } from "../html.ts";
import { parseJsonExact } from "../literal.ts";
import { findAssignment } from "../script-data.ts";
import { readGlobal, type Snapshot } from "../snapshot.ts";
import type { BlockKind, PartialProduct } from "../product.ts";
import { titleLanguage } from "../values.ts";

/**
 * A page variable: from the HTML's script text first (exact ids), else from the globals the extension copied.
 * A variable present in the HTML but unreadable throws when the globals do not have it either.
 */
export function pageVariable(snapshot: Snapshot, name: string, globalName = name): unknown {
  let error: unknown;
  if (snapshot.html) {
    try {
      const found = findAssignment(snapshot.html, name);
      if (found) return found.value;
    } catch (e) {
      error = e;
    }
  }
  const g = readGlobal(snapshot, globalName);
  if (g !== undefined && g !== null) return g;
  if (error) throw error;
  return undefined;
}

/** Bodies of intercepted responses whose URL matches, parsed (JSONP wrappers removed); unreadable ones skipped. */
export function interceptedBodies(snapshot: Snapshot, url: RegExp): unknown[] {
  const out: unknown[] = [];
  for (const r of snapshot.intercepted ?? []) {
    if (!url.test(r.url)) continue;
    const jsonp = /^\s*[\w$.]+\s*\(([\s\S]*)\)\s*;?\s*$/.exec(r.body);
    try {
      out.push(parseJsonExact(jsonp ? jsonp[1] : r.body));
    } catch {
      // not JSON: ignore this response
    }
  }
  return out;
}

function hostOf(snapshot: Snapshot): string {
  try {
    return new URL(snapshot.url).hostname.toLowerCase();
  } catch {
    return "";
  }
}

// The Alibaba anti-bot page ("punish", the nc slider, x5sec) and the shared login service (havanaone / fm-login-id).
const ALIBABA_CAPTCHA =
  /_____tmd_____|\/punish\b|x5secdata|\bnc_1_(?:wrapper|n1z)\b|id=["']nocaptcha["']|baxia-punish|["']action["']\s*:\s*["']captcha["']/i;
// Only form fields count: product pages link to the login service too.
const ALIBABA_LOGIN = /\bfm-login-id\b|\bTPL_username\b|id=["']login-form["']/i;

export function alibabaBlock(snapshot: Snapshot, loginHost: RegExp): BlockKind | null {
  const host = hostOf(snapshot);
  const url = snapshot.url;
  const html = snapshot.html ?? "";
  if (/_____tmd_____|\/punish\b|x5secdata/i.test(url) || ALIBABA_CAPTCHA.test(html)) return "captcha";
  if (loginHost.test(host) || ALIBABA_LOGIN.test(html)) return "login";
  return null;
}

/**
 * The page's markup without its stylesheets (<style> blocks, <link> tags and style="" attributes): sites ship the
 * challenge widget's CSS with every page, so a word there says nothing about what the page shows.
 */
export function markupWithoutStyles(html: string): string {
  return html
    .replace(/<style\b[\s\S]*?<\/style\s*>/gi, "")
    .replace(/<link\b[^>]*>/gi, "")
    .replace(/\sstyle=(?:"[^"]*"|'[^']*')/gi, "");
}

// A challenge in control of the page: the challenge service's script loaded or started (GeeTest's gt.js / gt4.js
// and initGeetest), or its form or widget as an element.
const CHALLENGE_CONTROL =
  /<script\b[^>]*\bsrc=["'][^"']*(?:geetest|captcha)[^"']*["']|\binitGeetest4?\s*\(|<form\b[^>]*\b(?:id|class|action)=["'][^"']*(?:captcha|challenge|verify)[^"']*["']|<(?:div|iframe)\b[^>]*\b(?:id|class)=["'][^"']*\b(?:geetest_(?:holder|captcha|box)|sui-captcha|captcha-(?:container|box|wrapper))\b/i;

/** True when a challenge (script or form) is in control of the page, judged from its markup without stylesheets. */
export function challengeInControl(html: string): boolean {
  return CHALLENGE_CONTROL.test(markupWithoutStyles(html));
}

/** Path parameter or query parameter as an item id (digits only). */
export function digitsParam(u: URL, name: string): string | null {
  const v = u.searchParams.get(name);
  return v && /^\d+$/.test(v) ? v : null;
}

// Language subdomains of the platforms (es.aliexpress.com, fr.shein.com); "us", "m", "www" and the like are not.
const LANGUAGE_SUBDOMAIN = /^(es|pt|fr|de|it|nl|pl|tr|ru|ja|ko|ar|he|th|vi|id|en)\./;
// Country domains whose shops are written in one language (amazon.de, mercadolibre.com.mx).
const DOMAIN_LANGUAGE: [RegExp, string][] = [
  [/\.(?:de|at)$/, "de"],
  [/\.fr$/, "fr"],
  [/\.(?:es|com\.mx|mx|cl|co|com\.ar|com\.co)$/, "es"],
  [/\.it$/, "it"],
  [/\.(?:com\.br|pt)$/, "pt"],
  [/\.nl$/, "nl"],
  [/\.pl$/, "pl"],
  [/\.(?:co\.jp|jp)$/, "ja"],
];

// A locale in a description URL: AliExpress's ".../description/pc/v2/es_ES/desc.htm", or "?lang=pt_BR".
const URL_LOCALE = /(?:\/|[?&#](?:lang|locale|language)=)([a-z]{2})[_-][A-Za-z]{2}(?=[/&#.]|$)/;

/** The language a description URL names by its locale, if it names one. */
function urlLanguage(url: string | undefined): string | undefined {
  return url ? URL_LOCALE.exec(url)?.[1] : undefined;
}

/**
 * The page's locale, for a title whose script does not tell its language: the language subdomain the user chose,
 * else the locale of the description URL (it follows the language the shopper picked, which www pages do not show
 * in the host and often not in <html lang>), else <html lang>, else the language of a country domain.
 */
export function pageLanguage(snapshot: Snapshot, descriptionUrl?: string): string | undefined {
  const host = hostOf(snapshot);
  const sub = LANGUAGE_SUBDOMAIN.exec(host)?.[1];
  if (sub) return sub;
  const described = urlLanguage(descriptionUrl);
  if (described) return described;
  const lang = htmlLang(snapshot.html ?? "");
  if (lang) return lang;
  return DOMAIN_LANGUAGE.find(([re]) => re.test(host))?.[1];
}

/** title + titleLanguage for a source title (language from its script, else the page's, else the platform's). */
export function titleFields(title: string | undefined, fallbackLanguage: string, declared?: string): PartialProduct {
  if (!title) return {};
  const lang = titleLanguage(title, declared, fallbackLanguage);
  return { title: { [lang]: title }, titleLanguage: lang };
}

/** Drops undefined values so an object only names the fields a source really gave. */
export function compact<T extends object>(p: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) if (v !== undefined) out[k] = v;
  return out as T;
}
