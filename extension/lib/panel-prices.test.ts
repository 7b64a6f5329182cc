// The panel's profit preview: the pre-flight's margin warning (a loss, or under the shop's minimum) makes the site's
// margin red and is shown under it; a margin over the minimum is not red; a price that cannot be computed says so.
import { describe, expect, it } from "vitest";
import type { PreflightPairView, PreflightResultView } from "#shared/contract/publish.ts";
import { preflight } from "#shared/publish/preflight.ts";
import { WORKED_EXAMPLE } from "#shared/publish/worked-example.ts";
import { sitePriceRows } from "./panel-prices.ts";

const category = {
  cateId: "MLM1",
  name: "Bocinas",
  isLeaf: true,
  listingAllowed: true,
  meliStatus: "enabled",
  enable: true,
  maxTitleLength: 60,
  maxPictures: 10,
  minimumPrice: null,
  currency: "MXN",
  classicFee: "13.50",
  premiumFee: "17.50",
};

/** The shared pre-flight's answer for the worked example's product, as the server sends it to the panel. */
function pairWith(minMargin: number | null, shop = WORKED_EXAMPLE.shop): PreflightPairView {
  const r = preflight({
    product: {
      title: { es: "Bocina portátil" },
      price: "100.00",
      currency: "CNY",
      images: ["https://img.example.com/a.jpg"],
      weight: 300,
      size: "10x10x10",
      variants: [],
      attrs: [],
    },
    site: 1,
    category,
    attributes: [],
    shop,
    minMargin,
    rates: WORKED_EXAMPLE.rates,
    request: { listingType: "gold_special" },
    translationConfigured: false,
    gtinAvailable: 0,
  } as unknown as Parameters<typeof preflight>[0]);
  return {
    productId: "p1",
    productTitle: "Bocina",
    image: null,
    site: 1,
    cateId: "MLM1",
    cateName: "Bocinas",
    ok: r.ok,
    title: r.title,
    problems: r.problems,
    price: r.price,
  };
}
const view = (...pairs: PreflightPairView[]): PreflightResultView => ({
  selected: 1,
  pairs,
  ok: pairs.length,
  refused: 0,
  alreadyListed: 0,
});

describe("the panel's profit preview", () => {
  it("is not red over the shop's minimum", () => {
    const [row] = sitePriceRows(view(pairWith(null)));
    expect(row).toMatchObject({ site: 1, red: false, warning: null });
    expect(row.price).toMatch(/ MXN$/);
  });

  it("is red with the pre-flight's warning under the shop's minimum, and for a loss", () => {
    const low = pairWith(60);
    const [row] = sitePriceRows(view(low));
    const percent = (low.price as { marginPercent: string }).marginPercent;
    expect(row).toMatchObject({ red: true, warning: `利润率${percent}%低于店铺最低利润率60%` });
    const [loss] = sitePriceRows(view(pairWith(null, { ...WORKED_EXAMPLE.shop, adjustRate: 0.5, overPrice: 0 })));
    expect(loss.red).toBe(true);
    expect(loss.warning).toMatch(/^利润为负（-/);
  });

  it("says when a price cannot be computed", () => {
    const none = { ...pairWith(null), price: null, problems: [] };
    expect(sitePriceRows(view(none))[0]).toEqual({ site: 1, price: "无法计算", net: "—", margin: "—", red: false, warning: null });
  });
});
