// Freight rules against the sandbox through the real HTTP stack: PullMeliFreight stores a site's table (weight bands in
// the site's currency) and replaces it when pulled again; GetMeliFreights lists it by site, sorted and paged; another
// tenant sees none of it; a sub-account may read but not pull; bad input is a 400 envelope. The publish price uses the
// rule covering the product's weight when isContainsFreight, and the pre-flight refuses a weight no rule covers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freightTable } from "../../sandbox/freight.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, createProductAs, ean13s, requestAttrs, syncCategories } from "../../testing/publish-kit.ts";
import { envelopeProblem } from "../../testing/security-kit.ts";
import { freightFor, type FreightRule } from "../../../shared/contract/freight.ts";
import type { PriceBreakdown } from "../../../shared/publish/price.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let sub: { token: string };
let groupA: string;

const pull = (t: { token: string }, site: number | string) =>
  s.api("POST", "/api/MeliOther/PullMeliFreight", { token: t.token, query: { site } });
const list = (t: { token: string }, query: Record<string, string | number> = {}) =>
  s.api("GET", "/api/MeliOther/GetMeliFreights", { token: t.token, query: { MaxResultCount: 100, ...query } });

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  sub = await s.createSubUser(A);
  await syncCategories(s, [1]);
  groupA = await connectPublishingShop(s, A, { nickname: "FREIGHTSELLER", site: "MLM", sites: [1] }, ean13s(6));
}, 180_000);
afterAll(() => s?.close());

describe("PullMeliFreight and GetMeliFreights", () => {
  it("stores the site's table, replaces it on a second pull, and lists it by site and weight", async () => {
    const first = await pull(A, 1);
    expect(first.status, first.raw).toBe(200);
    const table = freightTable("MLM");
    expect(first.body.result).toEqual({ site: 1, count: table.length, currency: "MXN" });
    expect((await pull(A, 5)).body.result).toMatchObject({ site: 5, currency: "USD" });
    // Pulled again: the same rules, not twice as many.
    expect((await pull(A, 1)).status).toBe(200);

    const mx = await list(A, { Site: 1 });
    expect(mx.status, mx.raw).toBe(200);
    expect(mx.body.result.totalCount).toBe(table.length);
    const rules = mx.body.result.items as FreightRule[];
    expect(rules.map((r) => [r.start, r.end, r.freight, r.currency])).toEqual(
      table.map((b) => [b.from_weight, b.to_weight, b.cost, "MXN"]),
    );
    // 300-500 g in Mexico is global selling's 5.00 USD at the sandbox's 17 MXN a dollar.
    expect(freightFor(rules, 450)).toMatchObject({ start: 300, end: 500, freight: 85 });
    expect(freightFor(rules, 300)).toMatchObject({ start: 200, end: 300 });
    expect(freightFor(rules, 0)).toMatchObject({ start: 0, end: 100 });
    expect(freightFor(rules, 30_001)).toBeNull();

    const all = await list(A);
    expect(all.body.result.totalCount).toBe(2 * table.length);
    expect(all.body.result.items[0]).toMatchObject({ site: 1, start: 0 });
    const sorted = await list(A, { Sorting: "freight desc", MaxResultCount: 2, SkipCount: 1 });
    const byFreight = (all.body.result.items as FreightRule[]).map((r) => r.freight).sort((x, y) => y - x);
    expect(sorted.body.result.items.map((r: FreightRule) => r.freight)).toEqual(byFreight.slice(1, 3));
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
    expect(withFreight.price).toMatchObject({ freight: 8500, currency: "MXN" });
    expect(tooHeavy.ok).toBe(false);
    expect(tooHeavy.problems.map((p) => p.code)).toContain("freight.unknown");

    // The same product without freight: the price is lower by the grossed-up freight, and the breakdown says 0.
    const [without] = await preflight(A, [light], false);
    expect(without.price).toMatchObject({ freight: 0 });
    expect(withFreight.price!.price).toBeGreaterThan(without.price!.price + 8500);
  });
});
