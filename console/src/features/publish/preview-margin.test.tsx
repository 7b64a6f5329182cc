// @vitest-environment happy-dom
// Issue 28: the pre-flight's margin warnings (a loss, or a margin under the shop's minimum) are shown in red in the
// problems and on the margin itself, while the pair stays 可刊登 (a warning, not a refusal).
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import type { PreflightPairView } from "#shared/contract/publish.ts";
import { MARGIN_PROBLEM_CODES, marginStatus, marginWarning } from "#shared/publish/margin.ts";
import { sitePrice } from "#shared/publish/price.ts";
import { WORKED_EXAMPLE } from "#shared/publish/worked-example.ts";
import { PreviewTable } from "./preview-table.tsx";
import { previewRows } from "./publish-names.ts";

afterEach(cleanup);

const worked = sitePrice(WORKED_EXAMPLE);
if (!worked.ok) throw new Error(worked.message);

const pair = (problems: PreflightPairView["problems"]): PreflightPairView => ({
  productId: "p1",
  productTitle: "Bocina",
  image: null,
  site: 1,
  cateId: "MLM1",
  cateName: "Bocinas",
  ok: true,
  title: "Bocina",
  problems,
  price: worked.price,
});

// The warning as the shared pre-flight words it for the worked example's 28.51 % under a minimum of 35 %.
const status = marginStatus(worked.price.margin, worked.price.buyerPrice, 35);
const low = {
  code: MARGIN_PROBLEM_CODES.low,
  severity: "warning" as const,
  field: "price",
  message: marginWarning(status, worked.price.marginPercent, 35)!,
  fix: "shop",
};

describe("the pre-flight's margin warning", () => {
  it("shows the warning and the margin in red, the pair still sendable", () => {
    expect(low.message).toBe("利润率28.51%低于店铺最低利润率35%");
    render(
      <MemoryRouter>
        <PreviewTable rows={previewRows([pair([low])])} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId("publish-preview-status").textContent).toBe("可刊登");
    const item = screen.getByTestId("publish-preview-problems").querySelector("[data-code='price.marginLow']") as HTMLElement;
    expect(within(item).getByText(low.message).className).toContain("text-destructive");
    const margin = screen.getByTestId("publish-preview-margin");
    expect(margin.className).toContain("text-destructive");
    expect(margin.dataset.warn).toBe("true");
    expect(margin.title).toBe(low.message);
  });

  it("keeps a margin over the minimum green, other warnings amber", () => {
    const titleCut = { code: "title.cut", severity: "warning" as const, field: "title", message: "标题过长，已截断", fix: null };
    render(
      <MemoryRouter>
        <PreviewTable rows={previewRows([pair([titleCut])])} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId("publish-preview-margin").className).toContain("text-success");
    expect(within(screen.getByTestId("publish-preview-problems")).getByText("标题过长，已截断").className).not.toContain(
      "text-destructive",
    );
  });
});
