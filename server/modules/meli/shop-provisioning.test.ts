// Which shop accounts a seller gives (the writes are covered end to end in auth-service.test.ts).
import { describe, expect, it } from "vitest";
import type { MarketplaceUser, MeliUser } from "../../integrations/mercadolibre/endpoints/users.ts";
import { planShops } from "./shop-provisioning.ts";

const seller = (site_id: string): MeliUser => ({ id: "100", nickname: "SELLER", site_id });
const market: MarketplaceUser = {
  user_id: "100",
  site_id: "CBT",
  marketplaces: [
    { user_id: "201", site_id: "MLM", logistic_type: "fulfillment" },
    { user_id: "202", site_id: "MLB", logistic_type: null },
  ],
};

describe("planShops", () => {
  it("gives a local seller one shop on its own site, in its currency", () => {
    expect(planShops(seller("MLC"), null, [])).toEqual([
      { site: 3, siteCode: "MLC", custId: "100", isCbt: false, isFull: false, currency: "CLP" },
    ]);
  });

  it("gives a global seller one shop per marketplace (those chosen, if any), in dollars", () => {
    expect(planShops(seller("CBT"), market, [])).toEqual([
      { site: 1, siteCode: "MLM", custId: "201", isCbt: true, isFull: true, currency: "USD" },
      { site: 2, siteCode: "MLB", custId: "202", isCbt: true, isFull: false, currency: "USD" },
    ]);
    expect(planShops(seller("CBT"), market, [2, 5])).toEqual([expect.objectContaining({ site: 2, custId: "202" })]);
  });

  it("refuses a global seller without the chosen marketplaces, and a site it does not support", () => {
    expect(planShops(seller("CBT"), market, [4])).toEqual({ error: "该全球卖家账号未开通所选站点（哥伦比亚），请选择其已开通的站点" });
    expect(planShops(seller("MLA"), null, [])).toEqual({ error: "暂不支持该站点（MLA）的美客多账号" });
  });
});
