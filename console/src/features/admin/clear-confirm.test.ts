import { describe, expect, it } from "vitest";
import { confirmsTenantName, deletionRange } from "./clear-confirm.ts";

describe("confirmsTenantName", () => {
  it("takes the tenant's name exactly, spaces around it aside", () => {
    expect(confirmsTenantName("acme", "acme")).toBe(true);
    expect(confirmsTenantName("  acme ", "acme")).toBe(true);
  });

  it("refuses an empty, partial or differently cased name", () => {
    expect(confirmsTenantName("", "acme")).toBe(false);
    expect(confirmsTenantName("   ", "")).toBe(false);
    expect(confirmsTenantName("acm", "acme")).toBe(false);
    expect(confirmsTenantName("ACME", "acme")).toBe(false);
    expect(confirmsTenantName("acme2", "acme")).toBe(false);
  });
});

describe("deletionRange", () => {
  it("runs from the first day's local midnight to the midnight after the last day", () => {
    const r = deletionRange("2026-03-01", "2026-03-03")!;
    expect(new Date(r.startTime).getTime()).toBe(new Date(2026, 2, 1).getTime());
    expect(new Date(r.endTime).getTime()).toBe(new Date(2026, 2, 4).getTime());
  });

  it("covers one whole day when both are the same", () => {
    const r = deletionRange("2026-03-01", "2026-03-01")!;
    expect(new Date(r.endTime).getTime()).toBe(new Date(2026, 2, 2).getTime());
  });

  it("refuses a reversed or missing range", () => {
    expect(deletionRange("2026-03-02", "2026-03-01")).toBeNull();
    expect(deletionRange("", "2026-03-01")).toBeNull();
  });
});
