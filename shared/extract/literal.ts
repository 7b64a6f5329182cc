// Reading data that pages keep in scripts, without eval: JSON.parse when the text is JSON, else a parser that accepts
// JavaScript *literals* only (objects, arrays, strings, numbers, true/false/null) and rejects everything else
// (identifiers, calls, operators, template substitutions). Integers past 2^53 stay exact, as decimal strings.

export class LiteralError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at ${position}`);
    this.name = "LiteralError";
  }
}

const MAX_DEPTH = 400;
const ID_START = /[\p{ID_Start}$_]/u;
const IDENTIFIER = /[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*/uy;
const NUMBER = /[+-]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)n?/y;

/** An integer literal past Number.MAX_SAFE_INTEGER keeps its digits, as a string. */
function numberValue(text: string): number | string {
  const bigint = text.endsWith("n");
  const t = bigint ? text.slice(0, -1) : text;
  const isDecimalInteger = /^[+-]?\d+$/.test(t);
  const isRadixInteger = /^[+-]?0[xXoObB]/.test(t);
  if (isRadixInteger) {
    const neg = t.startsWith("-");
    const big = BigInt(t.replace(/^[+-]/, ""));
    const value = neg ? -big : big;
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER) && !bigint
      ? Number(value)
      : value.toString();
  }
  const n = Number(t);
  if (isDecimalInteger && (bigint || !Number.isSafeInteger(n))) return t.replace(/^\+/, "").replace(/^(-?)0+(?=\d)/, "$1");
  if (!Number.isFinite(n)) throw new Error("number out of range");
  return n;
}

function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  // A literal "__proto__" key is data, not a prototype change.
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

class LiteralParser {
  i: number;
  constructor(
    readonly s: string,
    start: number,
  ) {
    this.i = start;
  }

  fail(message: string, at = this.i): never {
    throw new LiteralError(message, at);
  }

  /** Whitespace (any Unicode space, BOM, line separators) and comments. */
  skip(): void {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (
        c === 32 ||
        c === 10 ||
        c === 13 ||
        c === 9 ||
        c === 11 ||
        c === 12 ||
        c === 0xa0 ||
        c === 0xfeff ||
        c === 0x2028 ||
        c === 0x2029
      ) {
        this.i++;
      } else if (c === 47 /* / */ && s.charCodeAt(this.i + 1) === 47) {
        const nl = s.indexOf("\n", this.i + 2);
        this.i = nl < 0 ? s.length : nl + 1;
      } else if (c === 47 && s.charCodeAt(this.i + 1) === 42 /* * */) {
        const end = s.indexOf("*/", this.i + 2);
        if (end < 0) this.fail("unterminated comment");
        this.i = end + 2;
      } else if (c > 127 && /\s/.test(s[this.i])) {
        this.i++;
      } else return;
    }
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail("nested too deeply");
    this.skip();
    const c = this.s[this.i];
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    if (c === '"' || c === "'" || c === "`") return this.string();
    if (c === undefined) this.fail("unexpected end");
    if (/[\d.+-]/.test(c)) return this.number();
    IDENTIFIER.lastIndex = this.i;
    const m = IDENTIFIER.exec(this.s);
    if (m) {
      if (m[0] === "true" || m[0] === "false" || m[0] === "null") {
        this.i += m[0].length;
        return m[0] === "true" ? true : m[0] === "false" ? false : null;
      }
      this.fail(`"${m[0]}" is not a literal`);
    }
    return this.fail(`unexpected "${c}"`);
  }

  number(): number | string {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.s);
    if (!m) return this.fail("bad number");
    const after = this.s[this.i + m[0].length];
    if (after !== undefined && (ID_START.test(after) || /\d/.test(after))) this.fail("bad number");
    const at = this.i;
    this.i += m[0].length;
    try {
      return numberValue(m[0]);
    } catch {
      return this.fail("bad number", at);
    }
  }

  string(): string {
    const s = this.s;
    const quote = s[this.i];
    const start = this.i;
    let i = this.i + 1;
    let out = "";
    let chunk = i;
    for (;;) {
      const c = s[i];
      if (c === undefined) this.fail("unterminated string", start);
      if (c === quote) {
        out += s.slice(chunk, i);
        this.i = i + 1;
        return out;
      }
      if (quote === "`" && c === "$" && s[i + 1] === "{") this.fail("template substitution is not a literal", i);
      if (c !== "\\") {
        i++;
        continue;
      }
      out += s.slice(chunk, i);
      const e = s[i + 1];
      i += 2;
      switch (e) {
        case "n":
          out += "\n";
          break;
        case "t":
          out += "\t";
          break;
        case "r":
          out += "\r";
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "v":
          out += "\v";
          break;
        case "0":
          if (/\d/.test(s[i] ?? "")) this.fail("octal escape", i - 2);
          out += "\0";
          break;
        case "x": {
          const hex = s.slice(i, i + 2);
          if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail("bad \\x escape", i - 2);
          out += String.fromCharCode(parseInt(hex, 16));
          i += 2;
          break;
        }
        case "u": {
          let code: number;
          if (s[i] === "{") {
            const close = s.indexOf("}", i);
            const hex = close < 0 ? "" : s.slice(i + 1, close);
            if (!/^[0-9a-fA-F]{1,6}$/.test(hex) || parseInt(hex, 16) > 0x10ffff) this.fail("bad \\u escape", i - 2);
            code = parseInt(hex, 16);
            i = close + 1;
          } else {
            const hex = s.slice(i, i + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("bad \\u escape", i - 2);
            code = parseInt(hex, 16);
            i += 4;
          }
          out += String.fromCodePoint(code);
          break;
        }
        case "\r":
          if (s[i] === "\n") i++;
          break;
        case "\n":
        case "\u2028":
        case "\u2029":
          break; // line continuation
        case undefined:
          this.fail("unterminated string", start);
          break;
        default:
          out += e; // \' \" \\ \/ and identity escapes
      }
      chunk = i;
    }
  }

  object(depth: number): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    this.i++; // {
    for (;;) {
      this.skip();
      const c = this.s[this.i];
      if (c === "}") {
        this.i++;
        return obj;
      }
      let key: string;
      if (c === '"' || c === "'") key = this.string();
      else if (c === "`") this.fail("template key");
      else if (c !== undefined && /[\d.]/.test(c)) key = String(this.number());
      else {
        IDENTIFIER.lastIndex = this.i;
        const m = IDENTIFIER.exec(this.s);
        if (!m)
          this.fail(c === "[" ? "computed key is not a literal" : c === "." ? "spread is not a literal" : `unexpected "${c ?? "end"}"`);
        key = m[0];
        this.i += key.length;
      }
      this.skip();
      if (this.s[this.i] !== ":") this.fail(`expected ":" after key "${key}"`);
      this.i++;
      setKey(obj, key, this.value(depth + 1));
      this.skip();
      const sep = this.s[this.i];
      if (sep === ",") this.i++;
      else if (sep !== "}") this.fail(`expected "," or "}"`);
    }
  }

  array(depth: number): unknown[] {
    const arr: unknown[] = [];
    this.i++; // [
    for (;;) {
      this.skip();
      const c = this.s[this.i];
      if (c === "]") {
        this.i++;
        return arr;
      }
      if (c === ",") this.fail("array hole");
      if (c === "." && this.s.startsWith("...", this.i)) this.fail("spread is not a literal");
      arr.push(this.value(depth + 1));
      this.skip();
      const sep = this.s[this.i];
      if (sep === ",") this.i++;
      else if (sep !== "]") this.fail(`expected "," or "]"`);
    }
  }
}

/** Parses a whole text that must be exactly one literal (comments and whitespace around it allowed). */
export function parseLiteral(text: string): unknown {
  const p = new LiteralParser(text, 0);
  const value = p.value(0);
  p.skip();
  if (p.i < text.length) p.fail("unexpected text after the value");
  return value;
}

/** Parses the literal that starts at `start` (leading whitespace skipped) and says where it ended. */
export function parseLiteralAt(text: string, start: number): { value: unknown; end: number } {
  const p = new LiteralParser(text, start);
  const value = p.value(0);
  return { value, end: p.i };
}

// Skips whole JSON strings so only digit runs outside them are looked at; 16+ digits may pass 2^53.
const STRING_OR_LONG_INTEGER = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"|(?<![\w.+-])-?\d{16,}(?![\w.])/g;

/** Long integer literals of a JSON text quoted, so JSON.parse keeps them exact (as strings). */
export function quoteBigIntegers(json: string): string {
  return json.replace(STRING_OR_LONG_INTEGER, (m) => (m.charCodeAt(0) === 34 || Number.isSafeInteger(Number(m)) ? m : `"${m}"`));
}

/** JSON.parse that never rounds an integer past 2^53 (it becomes its decimal string). */
export function parseJsonExact(text: string): unknown {
  return JSON.parse(/\d{16}/.test(text) ? quoteBigIntegers(text) : text);
}

/** JSON first (fast); when that fails, the literal-only parser (unquoted keys, single quotes, trailing commas). */
export function parseData(text: string): unknown {
  try {
    return parseJsonExact(text);
  } catch {
    return parseLiteral(text);
  }
}
