// Finding page data inside inline scripts: `window.runParams = {...}`, `var pageConfig = {...}`,
// `window.context = (function(b, a){...})(x, {...})`, `X = JSON.parse("...")`, and `"key": {...}` inside larger code.
// The value is cut out by bracket matching and read by literal.ts; nothing is ever run.
import { parseData, parseJsonExact, parseLiteralAt } from "./literal.ts";

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Offset just past the bracket that closes the one at `start` ("{" or "["), skipping strings, template literals and
 * comments; -1 when unbalanced.
 */
export function matchBracket(text: string, start: number): number {
  const n = text.length;
  let depth = 0;
  let i = start;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39 || c === 96) {
      // "…", '…', `…`: jump to the closing quote, stepping over escapes
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === c) break;
      }
      i++;
      continue;
    }
    if (c === 47 && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d === 47) {
        const nl = text.indexOf("\n", i + 2);
        i = nl < 0 ? n : nl + 1;
        continue;
      }
      if (d === 42) {
        const end = text.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
        continue;
      }
    }
    if (c === 123 || c === 91 || c === 40) depth++;
    else if (c === 125 || c === 93 || c === 41) {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) return -1;
    }
    i++;
  }
  return -1;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

/** Reads a data value (object/array literal or JSON.parse("…")) starting at `i`; undefined when it is anything else. */
function readValueAt(text: string, i: number): unknown {
  i = skipSpace(text, i);
  const c = text[i];
  if (c === "{" || c === "[") {
    const end = matchBracket(text, i);
    if (end < 0) return undefined;
    return parseData(text.slice(i, end));
  }
  const jp = /^JSON\.parse\(\s*/.exec(text.slice(i, i + 40));
  if (jp) {
    const { value } = parseLiteralAt(text, i + jp[0].length);
    return typeof value === "string" ? parseJsonExact(value) : undefined;
  }
  return undefined;
}

/**
 * When the value at `i` is a plain identifier (`window.X = b;`, `window.X = b || {}`), the data given to that identifier
 * by the nearest `var|let|const b =` or `b =` before `before`: Taobao's 2025 pages build the context in a local variable
 * and only then hand it to the page variable.
 */
function readAliasedValueAt(text: string, i: number, before: number): unknown {
  const id = /^\s*([A-Za-z_$][\w$]*)\s*(?:[;,)\n|]|$)/.exec(text.slice(i, i + 80))?.[1];
  if (!id || /^(?:window|self|globalThis|undefined|null|true|false|this)$/.test(id)) return undefined;
  const re = new RegExp(`(?:\\b(?:var|let|const)\\s+|(?<![\\w$.]))${escapeRe(id)}\\s*=(?![=>])`, "g");
  const starts = [...text.slice(0, before).matchAll(re)].map((m) => m.index + m[0].length);
  // the nearest assignment that holds data (`b = b || {}` after `var b = {…}` is skipped)
  for (const start of starts.reverse()) {
    const value = readValueAt(text, start);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Matches `name =` as an assignment or declaration of a page variable (window.name, var name, window["name"]). */
function assignmentPattern(name: string): RegExp {
  const n = escapeRe(name);
  return new RegExp(
    `(?:(?:window|self|globalThis)\\s*\\.\\s*${n}|(?:window|self|globalThis)\\s*\\[\\s*["']${n}["']\\s*\\]|(?<![\\w$.])${n})\\s*=(?![=>])`,
    "g",
  );
}

export interface FoundValue {
  value: unknown;
  /** Offset of the assignment, for callers that look around it. */
  index: number;
}

/**
 * The data assigned to the page variable `name` somewhere in `source` (HTML or script text): the first non-empty one.
 * Assignments whose value is not data (`window.x = window.x || {}`) are skipped; when none is readable and one looked
 * like data but did not parse, that error is thrown so the caller can report it.
 */
export function findAssignment(source: string, name: string): FoundValue | undefined {
  const re = assignmentPattern(name);
  let m: RegExpExecArray | null;
  let lastError: unknown;
  let empty: FoundValue | undefined;
  while ((m = re.exec(source))) {
    try {
      const at = m.index + m[0].length;
      const value = readValueAt(source, at) ?? readAliasedValueAt(source, at, m.index);
      if (value === undefined || value === null || typeof value !== "object") continue;
      // `window.x = {}` first, filled by a later assignment: keep looking.
      if (Object.keys(value).length === 0) empty ??= { value, index: m.index };
      else return { value, index: m.index };
    } catch (e) {
      lastError = e;
    }
  }
  if (lastError) throw lastError;
  return empty;
}

/**
 * The arguments of an immediately-invoked function assigned to `name`:
 * `name = (function(a, b){…})(arg0, arg1)` or `name = (function(a, b){…}(arg0, arg1))`. Each argument is its data value,
 * or undefined when it is not data (an identifier such as `window.contextPath`).
 */
export function findIifeArguments(source: string, name: string): unknown[] | undefined {
  const re = assignmentPattern(name);
  let m: RegExpExecArray | null;
  while ((m = re.exec(source))) {
    let i = skipSpace(source, m.index + m[0].length);
    const wrapped = source[i] === "(";
    if (wrapped) i = skipSpace(source, i + 1);
    const fn = /^(?:function\b[^(]*\([^)]*\)|\([^)]*\)\s*=>)\s*/.exec(source.slice(i, i + 200));
    if (!fn) continue;
    i = skipSpace(source, i + fn[0].length);
    if (source[i] !== "{") continue;
    const bodyEnd = matchBracket(source, i);
    if (bodyEnd < 0) continue;
    i = skipSpace(source, bodyEnd);
    if (wrapped && source[i] === ")") i = skipSpace(source, i + 1); // (function(){…})(…)
    if (source[i] !== "(") continue;
    const argsEnd = matchBracket(source, i);
    if (argsEnd < 0) continue;
    return splitArguments(source, i + 1, argsEnd - 1);
  }
  return undefined;
}

function splitArguments(source: string, from: number, to: number): unknown[] {
  const args: unknown[] = [];
  let i = from;
  while (i < to) {
    i = skipSpace(source, i);
    if (i >= to) break;
    let end = i;
    // an argument ends at the next top-level comma
    while (end < to && source[end] !== ",") {
      const c = source[end];
      if (c === "{" || c === "[" || c === "(" || c === '"' || c === "'" || c === "`") {
        if (c === "{" || c === "[" || c === "(") {
          const close = matchBracket(source, end);
          end = close < 0 ? to : close;
        } else {
          let j = end + 1;
          while (j < to && source[j] !== c) j += source[j] === "\\" ? 2 : 1;
          end = j + 1;
        }
      } else end++;
    }
    let value: unknown;
    try {
      value = readValueAt(source.slice(0, end), i);
    } catch {
      value = undefined;
    }
    args.push(value);
    i = end + 1;
  }
  return args;
}

/**
 * The data value of a property `"key": {…}` / `'key': […]` / `key: {…}` inside larger code (Amazon keeps its image
 * and variation data in objects that also hold function calls, so the whole object is not a literal).
 */
export function findKeyedValue(source: string, key: string): unknown {
  const re = new RegExp(`(?:(["'])${escapeRe(key)}\\1|(?<![\\w$.])${escapeRe(key)})\\s*:\\s*(?=[\\[{])`, "g");
  let m: RegExpExecArray | null;
  while ((m = re.exec(source))) {
    try {
      const value = readValueAt(source, m.index + m[0].length);
      if (value !== undefined) return value;
    } catch {
      // not data here; try the next occurrence
    }
  }
  return undefined;
}
