import { describe, expect, it } from "vitest";
import { lastDays, periodProblem, statisticsSeries } from "./statistics-series.ts";

describe("statistics period", () => {
  it("defaults to the last 30 UTC days, today included", () => {
    expect(lastDays(new Date("2026-03-05T23:30:00Z"))).toEqual({ start: "2026-02-04", end: "2026-03-05" });
    expect(lastDays(new Date("2026-03-05T01:00:00Z"), 1)).toEqual({ start: "2026-03-05", end: "2026-03-05" });
  });

  it("refuses an empty, reversed or too long period", () => {
    expect(periodProblem({ start: "2026-01-01", end: "2026-01-01" })).toBeNull();
    expect(periodProblem({ start: "", end: "2026-01-01" })).toBe("请选择开始和结束日期");
    expect(periodProblem({ start: "2026-01-02", end: "2026-01-01" })).toBe("结束日期不能早于开始日期");
    expect(periodProblem({ start: "2025-01-01", end: "2026-01-01" })).toBeNull(); // 366 days
    expect(periodProblem({ start: "2025-01-01", end: "2026-01-02" })).toBe("统计周期最长 366 天");
  });
});

describe("statisticsSeries", () => {
  it("has one column per day of the period, a day missing from the answer at 0", () => {
    const s = statisticsSeries({ start: "2026-02-27", end: "2026-03-02" }, [
      { date: "2026-02-28", productAckCount: 5, uploadStatCount: 2, activeAccountCount: 1 },
      { date: "2026-03-02", productAckCount: 1, uploadStatCount: 7, activeAccountCount: 3 },
      { date: "2026-04-01", productAckCount: 9, uploadStatCount: 9, activeAccountCount: 9 }, // outside: ignored
    ]);
    expect(s.x).toEqual(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"].map((d) => Date.parse(`${d}T00:00:00Z`) / 1000));
    expect(s.collected).toEqual([0, 5, 0, 1]);
    expect(s.published).toEqual([0, 2, 0, 7]);
    expect(s.activeShops).toEqual([0, 1, 0, 3]);
  });

  it("is empty for a reversed period", () => {
    expect(statisticsSeries({ start: "2026-03-02", end: "2026-03-01" }, []).x).toEqual([]);
  });
});
