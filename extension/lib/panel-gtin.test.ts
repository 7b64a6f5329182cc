// @vitest-environment happy-dom
// The side panel's 无条码原因 field: asked where the pre-flight (the shared one, run here on the pair the server would
// build) finds the GTIN pool short in a category that takes EMPTY_GTIN_REASON; the reason chosen joins the site's
// attributes in the publish request, and the same pre-flight then lets the product through without taking a code.
import { createElement } from "react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CategoryAttributeModelType, type CategoryAttribute } from "#shared/contract/category.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import { publishRequest, type PreflightResultView } from "#shared/contract/publish.ts";
import { preflight, type PreflightPair } from "#shared/publish/preflight.ts";
import { GtinReasonFields } from "../entrypoints/sidepanel/gtin-reason.tsx";
import { gtinReasonSites } from "./panel-gtin.ts";
import { publishRequestOf } from "./panel-publish.ts";

afterEach(cleanup);

const attr = (id: string, tags: string[], values: { id: string; name: string }[] = []): CategoryAttribute => ({
  id,
  name: id,
  zh: null,
  alias: null,
  defaultUnit: null,
  valueMaxLength: null,
  hierarchy: null,
  relevance: null,
  groupId: null,
  groupName: null,
  modelType: CategoryAttributeModelType.Item,
  tags,
  isRequired: tags.includes("required"),
  valueType: values.length ? "list" : "string",
  values: values.map((v) => ({ ...v, zh: null })),
  units: [],
});
/** The sandbox's local leaves: GTIN conditional_required, EMPTY_GTIN_REASON with its documented values. */
const reasons = ["17055158", "17055159", "17055160", "17055161"].map((id) => ({ id, name: id }));
const conditional = [attr("GTIN", ["conditional_required"]), attr("EMPTY_GTIN_REASON", ["conditional_required"], reasons)];
const alwaysGtin = [attr("GTIN", ["required"]), attr("EMPTY_GTIN_REASON", [], reasons)];

const GROUP = "9b1c0c4e-8a51-4a2b-9b7e-1f2a3b4c5d6e";
const product = {
  id: "3f1c0c4e-8a51-4a2b-9b7e-1f2a3b4c5d6e",
  cateInfo: { site: 1, cateId: "MLM1", attrs: [] },
} as unknown as ProductDetail;

/** The pre-flight of the request's Mexico site against a category, with an empty GTIN pool. */
function checked(request: ReturnType<typeof publishRequestOf>, attributes: CategoryAttribute[]): PreflightResultView {
  const site = request.cateInfo![0];
  const pair = {
    site: 1,
    product: {
      title: { es: "Lámpara" },
      price: "100",
      currency: "CNY",
      images: ["a.jpg"],
      weight: "200",
      size: "20x15x3",
      variants: [],
      attrs: [],
    },
    category: null,
    attributes,
    shop: { adjustRate: 1, tinyPrice: null, limitMinPrice: null, limitMaxPrice: null, overPrice: null },
    rates: [],
    request: { attrs: site.attrs },
    translationConfigured: false,
    gtinAvailable: 0,
  } as unknown as PreflightPair;
  const r = preflight(pair);
  return {
    selected: 1,
    ok: r.ok ? 1 : 0,
    refused: r.ok ? 0 : 1,
    pairs: [{ site: 1, ok: r.ok, problems: r.problems }],
  } as unknown as PreflightResultView;
}
const gtinCodes = (v: PreflightResultView) => v.pairs[0].problems.filter((p) => p.code.startsWith("gtin")).map((p) => p.field);

describe("the panel's 无条码原因", () => {
  it("is asked where the pool is short and the category takes a reason; the reason chosen lets the product through", () => {
    const bare = publishRequestOf(product, GROUP, false, [1]);
    const before = checked(bare, conditional);
    expect(gtinCodes(before)).toEqual(["attributes.EMPTY_GTIN_REASON"]);
    expect(gtinReasonSites(before, false, [1], {})).toEqual([1]);

    const withReason = publishRequestOf(product, GROUP, false, [1], {}, {}, { 1: "17055160" });
    expect(publishRequest.safeParse(withReason).success).toBe(true);
    expect(withReason.cateInfo![0].attrs).toEqual([{ id: "EMPTY_GTIN_REASON", valueId: "17055160", valueName: null }]);
    const after = checked(withReason, conditional);
    expect(gtinCodes(after)).toEqual([]);
    // The field stays while a reason is chosen (so it can be changed back), only for the sites being published.
    expect(gtinReasonSites(after, false, [1], { 1: "17055160" })).toEqual([1]);
    expect(gtinReasonSites(after, false, [2], { 1: "17055160" })).toEqual([]);
    // A global shop's reason goes with its one global category.
    expect(gtinReasonSites(before, true, [1, 2], {})).toEqual([5]);
  });

  it("is not asked where the category always wants a GTIN: the pool is the only fix", () => {
    const v = checked(publishRequestOf(product, GROUP, false, [1]), alwaysGtin);
    expect(gtinCodes(v)).toEqual(["gtin"]);
    expect(gtinReasonSites(v, false, [1], {})).toEqual([]);
  });

  it("shows the documented reasons in Chinese and answers the chosen value id", () => {
    const onChange = vi.fn();
    render(createElement(GtinReasonFields, { sites: [1], siteName: () => "墨西哥", value: {}, onChange }));
    const select = screen.getByTestId("panel-gtin-reason-1") as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      "不选（使用 GTIN 码池）",
      "商品没有注册条码",
      "套装/组合商品",
      "手工/定制商品",
      "其他原因",
    ]);
    expect(screen.getByText("墨西哥 无条码原因")).toBeTruthy();
    fireEvent.change(select, { target: { value: "17055159" } });
    expect(onChange).toHaveBeenCalledWith({ 1: "17055159" });
    cleanup();
    render(createElement(GtinReasonFields, { sites: [], siteName: () => "", value: {}, onChange }));
    expect(screen.queryByTestId("panel-gtin-reason")).toBeNull();
  });
});
