// The literal-only reader: what it accepts, what it refuses (anything that would need running code), and big ids.
import { describe, expect, it } from "vitest";
import { LiteralError, parseData, parseJsonExact, parseLiteral, parseLiteralAt, quoteBigIntegers } from "./literal.ts";
import { findAssignment, findIifeArguments, findKeyedValue, matchBracket } from "./script-data.ts";

describe("parseLiteral accepts JavaScript literals", () => {
  it("unquoted keys, single quotes, trailing commas, comments", () => {
    const text = `{
      compatible: true, // a comment
      name: 'Cup \\'deluxe\\'', /* block */ "quoted": "x",
      list: [1, -2.5, 3e2, .5, 0x1F, 'a',],
      nested: {a: null, b: false, $c: 1, _d: 2, 中文: '值'},
    }`;
    expect(parseLiteral(text)).toEqual({
      compatible: true,
      name: "Cup 'deluxe'",
      quoted: "x",
      list: [1, -2.5, 300, 0.5, 31, "a"],
      nested: { a: null, b: false, $c: 1, _d: 2, 中文: "值" },
    });
  });

  it("string escapes", () => {
    expect(parseLiteral(`'a\\nb\\t\\u4e2d\\x41\\u{1F600}\\/\\\\'`)).toBe("a\nb\t中A😀/\\");
    expect(parseLiteral("`plain template`")).toBe("plain template");
    expect(parseLiteral(`"line\\\ncontinued"`)).toBe("linecontinued");
  });

  it("numeric keys and a literal __proto__ key as data", () => {
    const v = parseLiteral(`{1: 'a', 2.5: 'b', __proto__: {polluted: true}}`) as Record<string, unknown>;
    expect(v["1"]).toBe("a");
    expect(v["2.5"]).toBe("b");
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(v)).toContain("__proto__");
  });

  it("parseLiteralAt reads one value inside larger text and says where it ended", () => {
    const text = `x = {a: [1, {b: "}"}]}; y = 2;`;
    const { value, end } = parseLiteralAt(text, 4);
    expect(value).toEqual({ a: [1, { b: "}" }] });
    expect(text.slice(end)).toBe("; y = 2;");
  });
});

describe("parseLiteral rejects code", () => {
  it.each([
    ["a function call", "{a: foo()}"],
    ["an identifier", "{a: window.x}"],
    ["undefined", "{a: undefined}"],
    ["NaN", "[NaN]"],
    ["Infinity", "[-Infinity]"],
    ["an operator", "{a: 1 + 2}"],
    ["a function", "{a: function () { return 1; }}"],
    ["an arrow function", "{a: () => 1}"],
    ["a template substitution", "{a: `x${y}`}"],
    ["a computed key", "{[k]: 1}"],
    ["a spread", "{...other}"],
    ["an array spread", "[...other]"],
    ["a shorthand property", "{a, b}"],
    ["an array hole", "[1,,2]"],
    ["new", "new Date()"],
    ["a regular expression", "{a: /x/}"],
    ["trailing code", "{a: 1}; alert(1)"],
    ["an unterminated string", "{a: 'x}"],
    ["an unterminated object", "{a: 1"],
  ])("%s", (_what, text) => {
    expect(() => parseLiteral(text)).toThrow(LiteralError);
  });

  it("deep nesting is refused, not a stack overflow", () => {
    expect(() => parseLiteral("[".repeat(100000) + "]".repeat(100000))).toThrow(LiteralError);
  });
});

describe("big integer ids stay exact", () => {
  it("the literal parser keeps integers past 2^53 as strings and safe ones as numbers", () => {
    expect(parseLiteral("{skuId: 12000036653480006, n: 9007199254740991, neg: -12345678901234567890, big: 1234567890123456789n}")).toEqual({
      skuId: "12000036653480006",
      n: 9007199254740991,
      neg: "-12345678901234567890",
      big: "1234567890123456789",
    });
  });

  it("JSON.parse goes through the same rule", () => {
    const text = `{"a":12000036653480006,"b":"12000036653480006","c":[1234567890123456789,1.5],"d":9007199254740991,"e":1.2345678901234567e20,"f":"x\\"12345678901234567890"}`;
    expect(parseJsonExact(text)).toEqual({
      a: "12000036653480006",
      b: "12000036653480006",
      c: ["1234567890123456789", 1.5],
      d: 9007199254740991,
      e: 1.2345678901234567e20,
      f: 'x"12345678901234567890',
    });
  });

  it("digits inside strings and fractions are left alone", () => {
    const text = `{"u":"https://x/12345678901234567890.jpg","v":0.12345678901234567890}`;
    expect(quoteBigIntegers(text)).toBe(text);
  });

  it("parseData falls back to the literal parser when the text is not JSON", () => {
    expect(parseData(`{a: 12000036653480006, b: 'x',}`)).toEqual({ a: "12000036653480006", b: "x" });
    expect(() => parseData(`{a: b}`)).toThrow(LiteralError);
  });
});

describe("finding data in scripts", () => {
  it("window.x = {...}, var x = {...}, window['x'] = [...]", () => {
    expect(findAssignment(`<script>window.runParams = {data: {a: 1}};</script>`, "runParams")?.value).toEqual({ data: { a: 1 } });
    expect(findAssignment(`var pageConfig = {product: {skuid: 1}}`, "pageConfig")?.value).toEqual({ product: { skuid: 1 } });
    expect(findAssignment(`window["rawData"]=[1,2]`, "rawData")?.value).toEqual([1, 2]);
  });

  it("skips comparisons, other objects' properties, non-data values and empty initialisers", () => {
    const src = `if (window.rawData == null) {} foo.rawData = {no: 1}; window.rawData = window.rawData || {}; window.rawData = {}; window.rawData = {yes: 1};`;
    expect(findAssignment(src, "rawData")?.value).toEqual({ yes: 1 });
    expect(findAssignment(`window.rawDataX = {a: 1}`, "rawData")).toBeUndefined();
  });

  it("a variable assigned a local that was built before it (Taobao 2025: var b = {...}; window.X = b)", () => {
    const src = `!function(){ var b = {"res": {"id": 1}}; b = b || {}; window.__ICE_APP_CONTEXT__ = b; }();`;
    expect(findAssignment(src, "__ICE_APP_CONTEXT__")?.value).toEqual({ res: { id: 1 } });
    // the local's data must come before the hand-over, and names of globals are not locals
    expect(findAssignment(`window.X = b; var b = {"late": 1};`, "X")).toBeUndefined();
    expect(findAssignment(`var window = {"a": 1}; self.X = window;`, "X")).toBeUndefined();
  });

  it('JSON.parse("...") values are read without running them', () => {
    expect(findAssignment(`window.__INIT_DATA = JSON.parse("{\\"id\\":12000036653480006}")`, "__INIT_DATA")?.value).toEqual({
      id: "12000036653480006",
    });
  });

  it("the arguments of an immediately-invoked function", () => {
    const src = `window.context = (function (b, a) { for (var c in a) { b[c] = a[c]; } return b; })(window.context || {}, {"result": {"x": "})("}});`;
    expect(findIifeArguments(src, "context")).toEqual([undefined, { result: { x: "})(" } }]);
    const inner = `window.context = (function (a) { return a; }({"ok": true}));`;
    expect(findIifeArguments(inner, "context")).toEqual([{ ok: true }]);
  });

  it("a keyed value inside an object that also holds code", () => {
    const src = `var data = { 'colorImages': { 'initial': [{"hiRes": "h.jpg"}] }, 'airyConfig': A.$.parseJSON('{}') };`;
    expect(findKeyedValue(src, "colorImages")).toEqual({ initial: [{ hiRes: "h.jpg" }] });
    expect(findKeyedValue(src, "missing")).toBeUndefined();
  });

  it("bracket matching skips strings and comments", () => {
    const text = `{"a": "}", 'b': '{', c: [/* } */ 1], // }\n d: 2}tail`;
    expect(text.slice(matchBracket(text, 0))).toBe("tail");
    expect(matchBracket("{ unbalanced", 0)).toBe(-1);
  });
});
