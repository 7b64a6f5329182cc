// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { formatAmount, formatDateTime, formatDay, localDayRange, parseLocalDate } from "./format.ts";

describe("format", () => {
  it("dates in local time; '-' for nothing or garbage", () => {
    const iso = new Date(2024, 4, 1, 13, 45, 9).toISOString();
    expect(formatDateTime(iso)).toBe("2024-05-01 13:45:09");
    expect(formatDay(iso)).toBe("2024-05-01");
    expect(formatDateTime(null)).toBe("-");
    expect(formatDay("not a date")).toBe("-");
  });

  it("amounts with separators and two decimals; unreadable shown as is", () => {
    expect(formatAmount("12345.5")).toBe("12,345.50");
    expect(formatAmount("abc")).toBe("abc");
    expect(formatAmount(null)).toBe("-");
  });

  it("a local day range covers whole days; bad or empty bounds are left out", () => {
    const { from, to } = localDayRange("2024-05-01", "2024-05-03");
    expect(new Date(from!).getTime()).toBe(new Date(2024, 4, 1).getTime());
    expect(new Date(to!).getTime()).toBe(new Date(2024, 4, 3, 23, 59, 59, 999).getTime());
    expect(localDayRange("", "2024-02-30")).toEqual({});
    expect(parseLocalDate("2024-02-30")).toBeNull();
  });
});
