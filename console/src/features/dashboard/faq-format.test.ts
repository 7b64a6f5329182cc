import { describe, expect, it } from "vitest";
import { parseFaq, searchFaq, serializeFaq, splitMatches } from "./faq-format.ts";

describe("parseFaq", () => {
  it("reads nothing from a blank or missing value", () => {
    expect(parseFaq(null)).toEqual([]);
    expect(parseFaq(undefined)).toEqual([]);
    expect(parseFaq("  \n ")).toEqual([]);
  });

  it("reads the editor's JSON array, skipping entries without a question", () => {
    const value = JSON.stringify([{ q: " 如何采集？ ", a: "安装插件" }, { q: "", a: "x" }, 5, { question: "别名", answer: "也可以" }]);
    expect(parseFaq(value)).toEqual([
      { q: "如何采集？", a: "安装插件" },
      { q: "别名", a: "也可以" },
    ]);
    expect(parseFaq(JSON.stringify({ items: [{ q: "一", a: "二" }] }))).toEqual([{ q: "一", a: "二" }]);
  });

  it("reads Q:/A: blocks (and 问：/答：) with multi-line answers", () => {
    const value = "开头说明\nQ: 如何登录？\nA: 输入公司名\n和用户名\n\n问：忘记密码？\n答：点击忘记密码";
    expect(parseFaq(value)).toEqual([
      { q: "如何登录？", a: "输入公司名\n和用户名" },
      { q: "忘记密码？", a: "点击忘记密码" },
    ]);
  });

  it("reads plain text as blocks whose first line is the question", () => {
    expect(parseFaq("第一问\n第一答\n第二行\n\n第二问")).toEqual([
      { q: "第一问", a: "第一答\n第二行" },
      { q: "第二问", a: "" },
    ]);
    expect(parseFaq("[not json")).toEqual([{ q: "[not json", a: "" }]);
  });

  it("round-trips through serializeFaq", () => {
    const items = [
      { q: "问题", a: "答案\n第二行" },
      { q: "Q: 像标记", a: "A: 也是文字" },
    ];
    expect(parseFaq(serializeFaq(items))).toEqual(items);
  });
});

describe("searchFaq and splitMatches", () => {
  const items = [
    { q: "如何采集 Amazon 商品", a: "安装插件" },
    { q: "如何发布", a: "在商品列表点击 amazon 发布" },
    { q: "其他", a: "无" },
  ];

  it("matches question or answer, any case, keeping the original index", () => {
    expect(searchFaq(items, "AMAZON").map((r) => r.index)).toEqual([0, 1]);
    expect(searchFaq(items, "  ").map((r) => r.index)).toEqual([0, 1, 2]);
    expect(searchFaq(items, "不存在")).toEqual([]);
  });

  it("splits text around the matches", () => {
    expect(splitMatches("Amazon 与 amazon", "amazon")).toEqual([
      { text: "Amazon", match: true },
      { text: " 与 ", match: false },
      { text: "amazon", match: true },
    ]);
    expect(splitMatches("abc", "")).toEqual([{ text: "abc", match: false }]);
  });
});
