// The currency screen's pure helpers: the page's search and the "1 X = r CNY" rate text.
import { describe, expect, it } from "vitest";
import { currencyForm, filterCurrencies, rateText } from "./schemas.ts";

describe("currency helpers", () => {
  const list = [
    { id: "1", creationTime: "", code: "CNY", zh: "人民币", rate: "1" },
    { id: "2", creationTime: "", code: "USD", zh: "美元", rate: "7.1" },
  ];
  it("filters by code or name and writes the rate as 1 X = r CNY", () => {
    expect(filterCurrencies(list, "us").map((c) => c.code)).toEqual(["USD"]);
    expect(filterCurrencies(list, "人民").map((c) => c.code)).toEqual(["CNY"]);
    expect(filterCurrencies(list, " ")).toHaveLength(2);
    expect(rateText(list[1])).toBe("1 USD = 7.1 CNY");
  });
  it("checks the form with the contract's rules", () => {
    expect(currencyForm.parse({ code: "EUR", zh: "欧元", rate: " 7.8 " })).toEqual({ code: "EUR", zh: "欧元", rate: "7.8" });
    expect(currencyForm.safeParse({ code: "eur", zh: "欧元", rate: "0" }).error?.issues.map((i) => i.message)).toEqual([
      "币种代码须为3个大写字母",
      "汇率必须大于0",
    ]);
  });
});
