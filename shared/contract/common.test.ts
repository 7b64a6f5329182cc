// The one date schema of every contract: an ISO 8601 date or date-time string, nothing else (issue 14, loose input).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isoDate } from "./common.ts";

describe("isoDate", () => {
  it("reads a date as UTC midnight and a date-time with its offset", () => {
    expect(isoDate.parse("2026-11-26").toISOString()).toBe("2026-11-26T00:00:00.000Z");
    expect(isoDate.parse("2026-11-26T08:30:00Z").toISOString()).toBe("2026-11-26T08:30:00.000Z");
    expect(isoDate.parse("2026-11-26T08:30:00.123+08:00").toISOString()).toBe("2026-11-26T00:30:00.123Z");
    expect(isoDate.parse(" 2024-02-29 ").toISOString()).toBe("2024-02-29T00:00:00.000Z");
  });

  it("refuses what is no ISO date string: booleans, numbers, objects, other text, days that do not exist", () => {
    for (const value of [
      true,
      false,
      0,
      1764115200000,
      {},
      [],
      "not-a-date",
      "",
      "26/11/2026",
      "2026-02-31",
      "2025-02-29",
      "2026-13-01",
      "2026-11-26T25:00",
    ]) {
      const r = isoDate.safeParse(value);
      expect(r.success, JSON.stringify(value)).toBe(false);
      expect(r.error?.issues[0].message).toBe("must be an ISO 8601 date or date-time string");
    }
  });

  it("names the field in an object, and lets nullish fields be null or absent", () => {
    const filter = z.object({ endDate: isoDate.nullish() });
    expect(filter.parse({ endDate: null })).toEqual({ endDate: null });
    expect(filter.parse({})).toEqual({});
    const r = filter.safeParse({ endDate: true });
    expect(r.error?.issues[0].path).toEqual(["endDate"]);
  });

  it("documents itself as a date-time string in the OpenAPI document", () => {
    expect(z.toJSONSchema(isoDate, { io: "input" })).toMatchObject({ type: "string", format: "date-time" });
  });
});
