// The built console (the suite's global setup builds it): the login route stays within its JavaScript budget and every
// screen of a feature area is a lazy chunk that the login route does not load.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LOGIN_BUDGET_GZIP_BYTES, measureBundle } from "../bench/console-bundle.ts";
import { repoRoot } from "./app-process.ts";

describe("console bundle", () => {
  const report = measureBundle();

  it("the login route's JavaScript is at most 250 KB gzip", () => {
    expect(report.login.gzipBytes).toBeGreaterThan(50 * 1024); // it did measure the real bundle
    expect(report.login.gzipBytes).toBeLessThanOrEqual(LOGIN_BUDGET_GZIP_BYTES);
  });

  it("every screen in the page map is a lazy chunk outside the login route", () => {
    const pages = readFileSync(join(repoRoot, "console/src/app/pages.tsx"), "utf8");
    const screens = [...pages.matchAll(/import\("\.\.\/(features\/[^"]+)"\)/g)].map((m) => `src/${m[1]}`);
    expect(screens.length).toBeGreaterThanOrEqual(7);
    for (const src of screens) {
      const chunk = report.lazy.find((c) => c.src === src);
      expect(chunk, src).toBeDefined();
      expect(report.login.files).not.toContain(chunk!.file);
    }
  });
});
