// The pre-flight check against the sandbox's own refusals (issue 15 "measure how many sandbox refusals the check
// prevents"): the same mixed batch sent without the check and published with it. Every defect the sandbox refuses is
// caught before any call, the check lets no sandbox refusal through, and it refuses nothing the sandbox would take
// except the rules the sandbox does not enforce (a local item without a weight cannot be shipped by Mercado Envíos).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/harness.ts";
import { refusalStudy, studyTotals, type DefectRow } from "../../testing/refusal-study.ts";

let s: TestServer;
let rows: DefectRow[];
beforeAll(async () => {
  s = await startTestServer();
  rows = await refusalStudy(s, 2);
}, 300_000);
afterAll(() => s?.close());

const row = (d: DefectRow["defect"]) => rows.find((r) => r.defect === d)!;

describe("Pre-flight refusals prevented on a mixed batch", () => {
  it("the sandbox refuses each defect the check catches, and nothing the check lets through", () => {
    for (const d of ["missingAttribute", "invalidValue", "belowMinimum", "notLeaf", "noPicture"] as const) {
      expect(row(d), d).toMatchObject({ pairs: 2, checkRefused: 2, refusedWith: 0, createdWith: 0 });
      expect(row(d).refusedWithout + row(d).unbuildable, d).toBe(2);
    }
    expect(row("missingAttribute").causes).toContain("item.attributes.missing_required");
    expect(row("belowMinimum").causes).toContain("item.price.invalid");
    expect(row("notLeaf").causes).toContain("item.category_id.invalid");
    expect(row("none")).toMatchObject({ checkRefused: 0, refusedWithout: 0, createdWith: 2, refusedWith: 0 });
  });

  it("counts what the check prevents and where it is stricter than the sandbox", () => {
    const t = studyTotals(rows);
    expect(t.refusedWith).toBe(0);
    expect(t.prevented).toBe(t.refusedWithout);
    expect(t.prevented).toBeGreaterThanOrEqual(8);
    // Only the weight rule: the sandbox takes a local item without a weight, the check does not.
    expect(row("noWeight")).toMatchObject({ checkRefused: 2, refusedWithout: 0, refusedWith: 0 });
    expect(t.stricterThanSandbox).toBe(2);
  });
});
