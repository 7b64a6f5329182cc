// A tiny HTML scanner over the page string (no DOM: the same code runs in the extension and on the server). It reads
// tags and their attributes, script contents, meta tags, and the inner HTML or text of one element; it does not build a
// tree. Pages are often malformed: everything here is lenient and bounded.
import { decodeHTMLStrict } from "entities";

export interface Tag {
  /** Lower-case tag name. */
  name: string;
  /** Attribute values with entities decoded; names lower case; the first of a repeated name wins. */
  attrs: Record<string, string>;
  /** Offset of "<" and offset just after ">". */
  start: number;
  end: number;
  selfClosing: boolean;
}

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "noscript", "template"]);

/**
 * Decodes character references: numeric ones and every named one of the HTML table (&szlig; &auml; &eacute;…), each
 * only with its closing semicolon (page data such as "Tom&Jerry" or "?a=1&not=2" is not markup).
 */
export function decodeEntities(s: string): string {
  return s.indexOf("&") < 0 ? s : decodeHTMLStrict(s);
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const TAG_NAME = /[a-zA-Z][^\s/>]*/y;
const ATTR_NAME = /[^\s"'>\/=]+/y;
const SPACES = /\s*/y;
const UNQUOTED = /[^\s>]*/y;

/** The start tag at `pos` (which must be "<"), or null when there is none. */
export function parseTagAt(html: string, pos: number): Tag | null {
  if (html.charCodeAt(pos) !== 60) return null;
  TAG_NAME.lastIndex = pos + 1;
  const nm = TAG_NAME.exec(html);
  if (!nm) return null;
  const attrs: Record<string, string> = {};
  let i = pos + 1 + nm[0].length;
  const n = html.length;
  for (;;) {
    SPACES.lastIndex = i;
    SPACES.exec(html);
    i = SPACES.lastIndex;
    if (i >= n) return null;
    const c = html[i];
    if (c === ">") return { name: nm[0].toLowerCase(), attrs, start: pos, end: i + 1, selfClosing: false };
    if (c === "/") {
      if (html[i + 1] === ">") return { name: nm[0].toLowerCase(), attrs, start: pos, end: i + 2, selfClosing: true };
      i++;
      continue;
    }
    ATTR_NAME.lastIndex = i;
    const an = ATTR_NAME.exec(html);
    if (!an) {
      i++; // a stray quote or "="
      continue;
    }
    i += an[0].length;
    SPACES.lastIndex = i;
    SPACES.exec(html);
    let value = "";
    if (html[SPACES.lastIndex] === "=") {
      i = SPACES.lastIndex + 1;
      SPACES.lastIndex = i;
      SPACES.exec(html);
      i = SPACES.lastIndex;
      const q = html[i];
      if (q === '"' || q === "'") {
        const close = html.indexOf(q, i + 1);
        if (close < 0) return null;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        UNQUOTED.lastIndex = i;
        value = UNQUOTED.exec(html)![0];
        i += value.length;
      }
    }
    const key = an[0].toLowerCase();
    if (!(key in attrs)) attrs[key] = decodeEntities(value);
  }
}

/** Offset just past the end of a comment, a raw-text element or the tag at `pos`, to resume scanning from. */
function skipFrom(html: string, tag: Tag): number {
  if (RAW_TEXT.has(tag.name) && !tag.selfClosing) {
    const close = indexOfCloseTag(html, tag.name, tag.end);
    return close < 0 ? html.length : close;
  }
  return tag.end;
}

function indexOfCloseTag(html: string, name: string, from: number): number {
  const re = new RegExp(`</${name}\\s*>`, "gi");
  re.lastIndex = from;
  const m = re.exec(html);
  return m ? m.index : -1;
}

// Attributes longer than this are not looked through when finding the tag around a match.
const MAX_TAG_LENGTH = 16 * 1024;

/** Start tags whose markup contains `needle` (in their name or attributes), each once, in page order. */
export function* tagsContaining(html: string, needle: string): Generator<Tag> {
  let from = 0;
  let lastStart = -1;
  for (;;) {
    const at = html.indexOf(needle, from);
    if (at < 0) return;
    from = at + needle.length;
    const windowStart = Math.max(0, at - MAX_TAG_LENGTH);
    const lt = html.slice(windowStart, at).lastIndexOf("<");
    if (lt < 0 || windowStart + lt === lastStart) continue;
    const tag = parseTagAt(html, windowStart + lt);
    if (!tag || tag.end <= at) continue;
    lastStart = tag.start;
    yield tag;
  }
}

/** Tags named `name` found by a fast search for "<name" (no full scan), e.g. all <meta> or all <script>. */
export function* tagsNamed(html: string, name: string): Generator<Tag> {
  const re = new RegExp(`<${name}(?=[\\s/>])`, "gi");
  let comment = html.indexOf("<!--");
  let m: RegExpExecArray | null;
  while ((m = re.exec(html))) {
    // Skip matches inside <!-- comments -->.
    let inComment = false;
    while (comment >= 0 && comment < m.index) {
      const end = html.indexOf("-->", comment + 4);
      if (end < 0) return;
      if (m.index < end) {
        re.lastIndex = end + 3;
        inComment = true;
        break;
      }
      comment = html.indexOf("<!--", end + 3);
    }
    if (inComment) continue;
    const tag = parseTagAt(html, m.index);
    if (!tag) continue;
    yield tag;
    re.lastIndex = skipFrom(html, tag);
    // "<!--" inside a script's text is not a comment.
    if (comment >= 0 && comment < re.lastIndex) comment = html.indexOf("<!--", re.lastIndex);
  }
}

export interface ScriptBlock {
  attrs: Record<string, string>;
  text: string;
  start: number;
}

export function scripts(html: string): ScriptBlock[] {
  const out: ScriptBlock[] = [];
  for (const tag of tagsNamed(html, "script")) {
    if (tag.selfClosing) continue;
    const close = indexOfCloseTag(html, "script", tag.end);
    out.push({ attrs: tag.attrs, text: html.slice(tag.end, close < 0 ? html.length : close), start: tag.start });
  }
  return out;
}

/** All <meta> attribute sets. */
export function metaTags(html: string): Record<string, string>[] {
  return [...tagsNamed(html, "meta")].map((t) => t.attrs);
}

/**
 * Tags that carry `attr` (optionally with exactly `value`, or containing the class `value` when attr is "class"), found
 * by searching the attribute text, then checking the parsed tag. Much faster than a full scan on large pages.
 */
export function findTagsWithAttr(html: string, attr: string, value?: string, limit = Infinity): Tag[] {
  const out: Tag[] = [];
  // Search for the rarer text: "productTitle" rather than "id", but "data-a-strike" rather than "true".
  const needle = value !== undefined && value.length > attr.length ? value : attr;
  for (const tag of tagsContaining(html, needle)) {
    if (out.length >= limit) break;
    const v = tag.attrs[attr];
    if (v === undefined) continue;
    if (value !== undefined) {
      if (attr === "class" ? !v.split(/\s+/).includes(value) : v !== value) continue;
    }
    out.push(tag);
  }
  return out;
}

export function elementById(html: string, id: string): Tag | null {
  return findTagsWithAttr(html, "id", id, 1)[0] ?? null;
}

/** First element with the class (optionally of the tag name). */
export function elementByClass(html: string, className: string, name?: string): Tag | null {
  for (const t of findTagsWithAttr(html, "class", className)) if (!name || t.name === name) return t;
  return null;
}

/** Offset of the end tag closing `tag` (same-name nesting counted), or -1. */
export function closeTagIndex(html: string, tag: Tag): number {
  if (tag.selfClosing || VOID.has(tag.name)) return -1;
  if (RAW_TEXT.has(tag.name)) return indexOfCloseTag(html, tag.name, tag.end);
  const re = new RegExp(`<(/?)${tag.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=[\\s/>])`, "gi");
  re.lastIndex = tag.end;
  let depth = 1;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html))) {
    if (m[1]) {
      if (--depth === 0) return m.index;
    } else {
      const inner = parseTagAt(html, m.index);
      if (inner && !inner.selfClosing) depth++;
    }
  }
  return -1;
}

/** The HTML between the element's start and end tags ("" for void elements; up to the next tag when unclosed). */
export function innerHtml(html: string, tag: Tag): string {
  if (tag.selfClosing || VOID.has(tag.name)) return "";
  const close = closeTagIndex(html, tag);
  if (close >= 0) return html.slice(tag.end, close);
  const next = html.indexOf("<", tag.end);
  return html.slice(tag.end, next < 0 ? html.length : next);
}

const BLOCK_BREAK = /<(?:br|\/?(?:p|div|li|ul|ol|tr|h[1-6]|table|section))\b[^>]*>/gi;

/** Visible text of an HTML fragment: tags dropped, scripts and styles removed, entities decoded, whitespace collapsed. */
export function textOf(fragment: string): string {
  return decodeEntities(
    fragment
      .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(/<!--[\s\S]*?-->/g, " ")
      .replace(BLOCK_BREAK, " ")
      .replace(/<[^>]*>/g, ""),
  )
    .replace(/[\s\u00a0]+/g, " ")
    .trim();
}

/** Text of the element. */
export function elementText(html: string, tag: Tag): string {
  return textOf(innerHtml(html, tag));
}

const UNSAFE_ELEMENTS =
  /<(script|style|iframe|object|embed|noscript|template|form)\b[\s\S]*?<\/\1\s*>|<(?:script|style|iframe|object|embed|link|meta|base|form|input|button)\b[^>]*>/gi;

/** Description HTML made safe to store and show: no active content, no event handlers, no javascript: links. */
export function sanitizeHtml(fragment: string): string {
  return fragment
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(UNSAFE_ELEMENTS, "")
    .replace(/\s+on[a-z]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, "")
    .replace(/\s(href|src)\s*=\s*(["']?)\s*(?:javascript|vbscript|data):[^"'\s>]*\2/gi, "")
    .trim();
}

export function htmlLang(html: string): string | undefined {
  const m = /<html\b/i.exec(html);
  if (!m) return undefined;
  return parseTagAt(html, m.index)?.attrs.lang;
}

/** The page <title>. */
export function documentTitle(html: string): string | undefined {
  const t = tagsNamed(html, "title").next().value;
  if (!t) return undefined;
  const text = elementText(html, t);
  return text || undefined;
}
