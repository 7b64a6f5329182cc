import { describe, expect, it } from "vitest";
import { createWordMatcher, normalizeWord, pickWord } from "./aho-corasick.ts";

const sorted = (a: string[]) => [...a].sort();

describe("createWordMatcher", () => {
  it("finds nothing with an empty list or an empty text", () => {
    const m = createWordMatcher([]);
    expect(m.size).toBe(0);
    expect(m.findAll("anything at all")).toEqual([]);
    expect(m.test("x")).toBe(false);
    expect(createWordMatcher(["", "   "]).size).toBe(0);
    expect(createWordMatcher(["nike"]).findAll("")).toEqual([]);
  });

  it("ignores case, Unicode-aware, and answers the words as given", () => {
    const m = createWordMatcher(["Nike", "ÉCLAIR", "Straße", "ПРИВЕТ"]);
    expect(sorted(m.findAll("NIKE shoes, éclair au chocolat, STRASSE straße, привет мир"))).toEqual(
      sorted(["Nike", "ÉCLAIR", "Straße", "ПРИВЕТ"]),
    );
  });

  it("compares composed and decomposed accents alike", () => {
    const m = createWordMatcher(["café"]);
    expect(m.findAll("un cafe\u0301 noir")).toEqual(["café"]);
    expect(createWordMatcher(["cafe\u0301"]).findAll("CAFÉ")).toEqual(["cafe\u0301"]);
  });

  it("keeps one spelling of a word given twice", () => {
    const m = createWordMatcher(["Nike", "NIKE", " nike "]);
    expect(m.size).toBe(1);
    expect(m.findAll("nike nike NIKE")).toEqual(["Nike"]);
  });

  it("finds overlapping and nested words", () => {
    const m = createWordMatcher(["he", "she", "his", "hers"], { wholeWords: false });
    expect(sorted(m.findAll("ushers"))).toEqual(["he", "hers", "she"]);
    const n = createWordMatcher(["air", "air max", "max", "air max 90"]);
    expect(sorted(n.findAll("Nike Air Max 90 sneakers"))).toEqual(["air", "air max", "air max 90", "max"]);
    const o = createWordMatcher(["abab", "bab", "ab"], { wholeWords: false });
    expect(sorted(o.findAll("xababx"))).toEqual(["ab", "abab", "bab"]);
  });

  it("keeps word boundaries in Latin text", () => {
    const m = createWordMatcher(["nike", "max", "90"]);
    expect(m.findAll("nikelab sneakers")).toEqual([]);
    expect(m.findAll("snike")).toEqual([]);
    expect(m.findAll("maximum 1990")).toEqual([]);
    expect(sorted(m.findAll("Nike-Max (90)"))).toEqual(["90", "max", "nike"]);
    expect(m.findAll("nike.")).toEqual(["nike"]);
    expect(m.findAll("niké")).toEqual([]); // é is a letter: not the word nike
    expect(m.findAll("nike\u0301")).toEqual([]); // a combining mark continues the word
  });

  it("finds a word that fails at one place but matches later", () => {
    const m = createWordMatcher(["apple"]);
    expect(m.findAll("pineapple apples apple")).toEqual(["apple"]);
    expect(m.findAll("pineapple apples")).toEqual([]);
  });

  it("matches CJK words as substrings, and Latin words next to CJK", () => {
    const m = createWordMatcher(["耐克", "nike", "阿迪达斯", "ナイキ", "나이키"]);
    expect(sorted(m.findAll("正品耐克nike运动鞋"))).toEqual(["nike", "耐克"]);
    expect(m.findAll("阿迪达斯三叶草")).toEqual(["阿迪达斯"]);
    expect(m.findAll("ナイキのスニーカー")).toEqual(["ナイキ"]);
    expect(m.findAll("나이키운동화")).toEqual(["나이키"]);
    expect(m.findAll("耐")).toEqual([]);
  });

  it("checks the boundary only on the Latin side of a mixed word", () => {
    const m = createWordMatcher(["华为P40"]);
    expect(m.findAll("新款华为p40手机")).toEqual(["华为P40"]);
    expect(m.findAll("新款华为p400手机")).toEqual([]);
    expect(m.findAll("正品华为P40 Pro")).toEqual(["华为P40"]);
  });

  it("does not check a boundary beside punctuation in a word", () => {
    const m = createWordMatcher(["c++", "#1", "wi-fi"]);
    expect(sorted(m.findAll("learn c++11 #1 seller wi-fi #1seller"))).toEqual(["#1", "c++", "wi-fi"]);
    expect(m.findAll("wi-finder")).toEqual([]);
  });

  it("matches substrings everywhere without wholeWords", () => {
    const m = createWordMatcher(["nike"], { wholeWords: false });
    expect(m.findAll("NIKELAB")).toEqual(["nike"]);
  });

  it("takes characters outside the BMP as one", () => {
    const m = createWordMatcher(["𠮷野家", "🍎"]);
    expect(sorted(m.findAll("去𠮷野家吃饭🍎"))).toEqual(["🍎", "𠮷野家"]);
  });

  // Its speed against a bare pass over the text is in bench/word-matcher.ts (bench/RESULTS.md).
  it("finds the right words among 10,000 over a long text", () => {
    const words = Array.from({ length: 10_000 }, (_, i) => `brand${i}`);
    words.push("耐克");
    const m = createWordMatcher(words);
    const text = `${"lorem ipsum dolor sit amet brand ".repeat(5000)} brand42 brand9999x 正品耐克 brand10000 BRAND7`;
    expect(m.size).toBe(10_001);
    expect(sorted(m.findAll(text))).toEqual(sorted(["brand42", "耐克", "brand7"]));
  });

  it("test() answers whether anything matches", () => {
    const m = createWordMatcher(["gucci"]);
    expect(m.test("a GUCCI bag")).toBe(true);
    expect(m.test("guccibag")).toBe(false);
  });
});

describe("pickWord and normalizeWord", () => {
  it("picks the longest, then the first in order", () => {
    expect(pickWord([])).toBeNull();
    expect(pickWord(["max", "air max", "air"])).toBe("air max");
    expect(pickWord(["bb", "aa"])).toBe("aa");
  });
  it("normalizes to composed lower case", () => {
    expect(normalizeWord("CAFE\u0301")).toBe("café");
  });
});
