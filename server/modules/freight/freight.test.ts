// Freight rules against the sandbox through the real HTTP stack: PullMeliFreight quotes a site's table on Mercado Libre
// (a local site with the tenant's shop there, global selling with its global seller: the dearest marketplace) in the
// site's currency and replaces it when pulled again; a site without a shop to quote with is a 400 in Chinese;
// GetMeliFreights lists the rules by site, sorted and paged; another tenant sees none of it; a sub-account may read but
// not pull; bad input is a 400 envelope. The publish price uses the rule covering the product's weight when
// isContainsFreight, and the pre-flight refuses a weight no rule covers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { globalShippingCost, localShippingCost, sellerShare } from "../../sandbox/freight.ts";
import { uniqueName } from "../../testing/harness.ts";
import { FREIGHT_BANDS, parcelOf, QUOTE_PRICE } from "./quote.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, createProductAs, ean13s, requestAttrs, syncCategories } from "../../testing/publish-kit.ts";
import { envelopeProblem } from "../../testing/security-kit.ts";
import { freightFor, type FreightRule } from "#shared/contract/freight.ts";
import type { PriceBreakdown } from "#shared/publish/price.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let C: TestTenant;
let sub: { token: string };
let groupA: string;

const parcel = (grams: number) => ({ sides: parcelOf(grams), grams });
/** What the sandbox charges the Mexican seller for each band's parcel at the quoted price, with free shipping. */
const mexico = () => FREIGHT_BANDS.map((g) => sellerShare("MLM", localShippingCost("MLM", parcel(g)), QUOTE_PRICE[1], true).cost);

const pull = (t: { token: string }, site: number | string) =>
  s.api("POST", "/api/MeliOther/PullMeliFreight", { token: t.token, query: { site } });
const list = (t: { token: string }, query: Record<string, string | number> = {}) =>
  s.api("GET", "/api/MeliOther/GetMeliFreights", { token: t.token, query: { MaxResultCount: 100, ...query } });

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  C = await s.createTenant();
  sub = await s.createSubUser(A);
  await syncCategories(s, [1]);
  groupA = await connectPublishingShop(s, A, { nickname: "FREIGHTSELLER", site: "MLM", sites: [1] }, ean13s(6));
  await connectPublishingShop(s, C, { nickname: uniqueName("FREIGHTCBT"), site: "CBT", marketplaces: ["MLM", "MLB"], sites: [1, 2] }, []);
}, 180_000);
afterAll(() => s?.close());

describe("PullMeliFreight and GetMeliFreights", () => {
  it("quotes the site's table on Mercado Libre, replaces it on a second pull, and lists it by site and weight", async () => {
    const first = await pull(A, 1);
    expect(first.status, first.raw).toBe(200);
    expect(first.body.result).toEqual({ site: 1, count: FREIGHT_BANDS.length, currency: "MXN" });
    // One quote per band, with the Mexican seller's token.
    expect(s.deps.sandbox!.control.callCount("GET /users/:id/shipping_options/free")).toBeGreaterThanOrEqual(FREIGHT_BANDS.length);
    // Pulled again: the same rules, not twice as many.
    expect((await pull(A, 1)).status).toBe(200);

    const mx = await list(A, { Site: 1 });
    expect(mx.status, mx.raw).toBe(200);
    expect(mx.body.result.totalCount).toBe(FREIGHT_BANDS.length);
    const rules = mx.body.result.items as FreightRule[];
    expect(rules.map((r) => [r.start, r.end, r.freight, r.currency])).toEqual(
      FREIGHT_BANDS.map((end, i) => [i ? FREIGHT_BANDS[i - 1] : 0, end, mexico()[i], "MXN"]),
    );
    // 300-500 g in Mexico: the sandbox's 5.00 USD at 17 MXN a dollar, half off at the free-shipping threshold.
    expect(freightFor(rules, 450)).toMatchObject({ start: 300, end: 500, freight: 42.5 });
    expect(freightFor(rules, 300)).toMatchObject({ start: 200, end: 300 });
    expect(freightFor(rules, 0)).toMatchObject({ start: 0, end: 100 });
    expect(freightFor(rules, 30_001)).toBeNull();

    // Global selling: the global seller's dearest marketplace per band, in USD (Brazil's here).
    const cbt = await pull(C, 5);
    expect(cbt.status, cbt.raw).toBe(200);
    expect(cbt.body.result).toEqual({ site: 5, count: FREIGHT_BANDS.length, currency: "USD" });
    const global = (await list(C, { Site: 5 })).body.result.items as FreightRule[];
    expect(global.map((r) => r.freight)).toEqual(
      FREIGHT_BANDS.map((g) => Math.max(globalShippingCost("MLM", parcel(g)), globalShippingCost("MLB", parcel(g)))),
    );

    const all = await list(A);
    expect(all.body.result.totalCount).toBe(FREIGHT_BANDS.length);
    expect(all.body.result.items[0]).toMatchObject({ site: 1, start: 0 });
    const sorted = await list(A, { Sorting: "freight desc", MaxResultCount: 2, SkipCount: 1 });
    const byFreight = (all.body.result.items as FreightRule[]).map((r) => r.freight).sort((x, y) => y - x);
    expect(sorted.body.result.items.map((r: FreightRule) => r.freight)).toEqual(byFreight.slice(1, 3));
  });

  it("refuses a site the tenant has no shop to quote with, in Chinese, and keeps its rules", async () => {
    const noGlobal = await pull(A, 5);
    expect(noGlobal.status).toBe(400);
    expect(noGlobal.body.error.message).toContain("跨境（CBT）店铺");
    // A global seller's marketplace user does not quote a local site's table (its listings use global selling's).
    const noLocal = await pull(C, 1);
    expect(noLocal.status).toBe(400);
    expect(noLocal.body.error.message).toContain("墨西哥站点没有已授权的本地店铺");
    expect((await list(C, { Site: 5 })).body.result.totalCount).toBe(FREIGHT_BANDS.length);
  });

  it("shows another tenant nothing, lets a sub-account read but not pull, and refuses bad input with the envelope", async () => {
    const other = await list(B);
    expect(other.status).toBe(200);
    expect(other.body.result).toEqual({ items: [], totalCount: 0 });

    expect((await list(sub, { Site: 1 })).body.result.totalCount).toBeGreaterThan(0);
    const refused = await pull(sub, 1);
    expect(refused.status).toBe(403);
    expect(envelopeProblem(refused)).toBeNull();

    for (const bad of [9, "mx", ""]) {
      const res = await pull(A, bad);
      expect(res.status, `site=${bad}`).toBe(400);
      expect(envelopeProblem(res)).toBeNull();
    }
    const badSort = await list(A, { Sorting: "tenantId desc" });
    expect(badSort.status).toBe(400);
    expect(envelopeProblem(badSort)).toBeNull();
  });
});

describe("freight in the publish price", () => {
  const leaf = () => plainLeaf(s.deps.sandbox!, "MLM");
  type Pair = { productId: string; ok: boolean; problems: { code: string; message: string }[]; price: PriceBreakdown | null };
  const preflight = async (t: TestTenant, productIds: string[], isContainsFreight: boolean): Promise<Pair[]> => {
    const res = await s.api("POST", "/api/MeliStatNew/PreflightPublish", {
      token: t.token,
      body: {
        accountGroupId: groupA,
        sites: [1],
        productIds,
        isContainsFreight,
        cateInfo: [{ site: 1, cateId: leaf().id, attrs: requestAttrs(leaf()) }],
      },
    });
    expect(res.status, res.raw).toBe(200);
    return res.body.result.pairs;
  };

  it("adds the rule for the product's weight, and refuses a weight no rule covers", async () => {
    const product = (weight: number) =>
      createProductAs(s, A, {
        title: { es: "Lámpara de escritorio" },
        price: 100,
        currency: "CNY",
        weight,
        size: "20x15x10",
        images: ["https://img.example.com/freight.jpg"],
      });
    const [light, heavy] = [await product(450), await product(40_000)];
    const pairs = await preflight(A, [light, heavy], true);
    const withFreight = pairs.find((p) => p.productId === light)!;
    const tooHeavy = pairs.find((p) => p.productId === heavy)!;
    expect(withFreight.problems.map((p) => p.code)).not.toContain("freight.unknown");
    expect(withFreight.price).toMatchObject({ freight: 4250, currency: "MXN" });
    expect(tooHeavy.ok).toBe(false);
    expect(tooHeavy.problems.map((p) => p.code)).toContain("freight.unknown");

    // The same product without freight: the price is lower by the grossed-up freight, and the breakdown says 0.
    const [without] = await preflight(A, [light], false);
    expect(without.price).toMatchObject({ freight: 0 });
    expect(withFreight.price!.price).toBeGreaterThan(without.price!.price + 4250);
  });
});
