import { describe, expect, it } from "vitest";
import { readDue } from "./api/get-selection.ts";

const at = (iso: string) => Date.parse(iso);

describe("readDue (the list asks again while a read is due)", () => {
  it("is due for a listing never read, or asked to be read again, until the read lands", () => {
    const now = at("2026-05-01T12:00:10Z");
    expect(readDue({ lastReadTime: null, nextReadTime: "2026-05-01T12:00:00Z" }, now)).toBe(true);
    expect(readDue({ lastReadTime: "2026-05-01T06:00:00Z", nextReadTime: "2026-05-01T12:00:00Z" }, now)).toBe(true);
    // Read: the next one is 6 hours on.
    expect(readDue({ lastReadTime: "2026-05-01T12:00:05Z", nextReadTime: "2026-05-01T18:00:05Z" }, now)).toBe(false);
  });
  it("tolerates a browser clock a little behind the server's, and stops waiting for a read long overdue", () => {
    const now = at("2026-05-01T12:00:00Z");
    expect(readDue({ lastReadTime: null, nextReadTime: "2026-05-01T12:02:00Z" }, now)).toBe(true);
    expect(readDue({ lastReadTime: null, nextReadTime: "2026-05-01T11:40:00Z" }, now)).toBe(false);
  });
});
