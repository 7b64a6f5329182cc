import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Sparkline, sparkPoints } from "./sparkline.tsx";

describe("sparkPoints", () => {
  it("spreads the reads over the width, highest at the top, and skips unknown values", () => {
    expect(sparkPoints([10, 20, null, 0], 30, 24)).toBe("0.0,12.0 10.0,2.0 30.0,22.0");
  });
  it("draws one value, or equal values, as a flat middle line, and nothing for no values", () => {
    expect(sparkPoints([5], 30, 24)).toBe("15.0,12.0");
    expect(sparkPoints([5, 5], 30, 24)).toBe("0.0,12.0 30.0,12.0");
    expect(sparkPoints([null], 30, 24)).toBe("");
    expect(sparkPoints([], 30, 24)).toBe("");
  });
});

describe("Sparkline", () => {
  it("marks the latest read with a dot, so a single read shows", () => {
    const html = renderToStaticMarkup(createElement(Sparkline, { values: [5], label: "价格", width: 30, height: 24 }));
    expect(html).toContain('points="15.0,12.0"');
    expect(html).toMatch(/<circle cx="15.0" cy="12.0"/);
    const two = renderToStaticMarkup(createElement(Sparkline, { values: [10, 20], label: "价格", width: 30, height: 24 }));
    expect(two).toMatch(/<circle cx="30.0" cy="2.0"/);
  });
});
