// The margin in the pre-flight (issue 28 "The default price sells at a loss"), through the real HTTP stack and the
// sandbox's fees: a new shop prices with the default markup and earns at least 30 %; a minimum margin the seller sets
// (UpdateAccount minMargin) or a markup that earns nothing gives a warning, not a refusal; another tenant reaches none.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, createProductAs, ean13s, requestAttrs, syncCategories } from "../../testing/publish-kit.ts";
import type { PriceBreakdown } from "#shared/publish/price.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let groupA: string;
let shopA: string;

type Pair = { ok: boolean; problems: { code: string; severity: string; message: string; fix: string }[]; price: PriceBreakdown };

const leaf = () => plainLeaf(s.deps.sandbox!, "MLM");
async function preflight(t: TestTenant, productIds: string[]) {
  return s.api("POST", "/api/MeliStatNew/PreflightPublish", {
    token: t.token,
    body: { accountGroupId: groupA, sites: [1], productIds, cateInfo: [{ site: 1, cateId: leaf().id, attrs: requestAttrs(leaf()) }] },
  });
}
const pairOf = async (productId: string): Promise<Pair> => {
  const res = await preflight(A, [productId]);
  expect(res.status, res.raw).toBe(200);
  return res.body.result.pairs[0];
};
const setRules = async (info: Record<string, unknown>) => {
  const res = await s.api("POST", "/api/MeliAccount/UpdateAccount", { token: A.token, body: { id: shopA, info } });
  expect(res.status, res.raw).toBe(200);
};
const marginCodes = (p: Pair) => p.problems.filter((x) => x.code.startsWith("price.margin")).map((x) => `${x.severity}:${x.code}`);

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  await syncCategories(s, [1]);
  groupA = await connectPublishingShop(s, A, { nickname: "MARGINSELLER", site: "MLM", sites: [1] }, ean13s(2));
  const shops = await s.api("GET", "/api/MeliAccount/GetAccounts", { token: A.token, query: { MaxResultCount: 10 } });
  shopA = shops.body.result.items.find((x: { group: string; site: number }) => x.group === groupA && x.site === 1).id;
}, 180_000);
afterAll(() => s?.close());

describe("the margin in the pre-flight", () => {
  it("prices a new shop's product with the default markup, at 30 % or more and no warning", async () => {
    const id = await createProductAs(s, A, {
      title: { es: "Lámpara de escritorio" },
      price: 120,
      currency: "CNY",
      weight: 300,
      size: "20x10x10",
      images: ["https://img.example.com/l.jpg"],
    });
    const pair = await pairOf(id);
    expect(pair.ok).toBe(true);
    expect(pair.price.adjustRate).toBe("1.6");
    expect(Number(pair.price.marginPercent)).toBeGreaterThanOrEqual(30);
    expect(marginCodes(pair)).toEqual([]);

    // Over the shop's minimum it warns (in red on the screens) and still publishes.
    await setRules({ minMargin: 60 });
    const low = await pairOf(id);
    expect(low.ok).toBe(true);
    expect(marginCodes(low)).toEqual(["warning:price.marginLow"]);
    expect(low.problems.find((x) => x.code === "price.marginLow")).toMatchObject({
      fix: "shop",
      message: `利润率${low.price.marginPercent}%低于店铺最低利润率60%`,
    });

    // A markup of 1 earns nothing after fees (under the default minimum); under 1 it loses money.
    await setRules({ minMargin: null, adjustRate: 1 });
    expect(marginCodes(await pairOf(id))).toEqual(["warning:price.marginLow"]);
    await setRules({ adjustRate: 0.5 });
    const loss = await pairOf(id);
    expect(loss.ok).toBe(true);
    expect(loss.price.margin).toBeLessThan(0);
    expect(marginCodes(loss)).toEqual(["warning:price.marginNegative"]);
    await setRules({ adjustRate: null });

    // Another tenant reaches neither A's shop group nor its rules.
    expect((await preflight(B, [id])).status).toBe(404);
    const other = await s.api("POST", "/api/MeliAccount/UpdateAccount", { token: B.token, body: { id: shopA, info: { minMargin: 1 } } });
    expect(other.status).toBe(404);
  });
});
