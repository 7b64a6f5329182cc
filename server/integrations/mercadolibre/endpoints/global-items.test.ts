// Contract tests of the Global Selling item endpoints: answers shaped as the "Publish items" and "Marketplace items"
// pages show them (written by us from those pages) go through each endpoint's schema and the publishing code that
// builds the body and reads the answer: net_proceeds per site and no price of the global item's own, a site refused
// while another goes live (its causes become the listing's problems), the marketplace items a retry reads.
import { describe, expect, it } from "vitest";
import { contractSession } from "../../../testing/meli-contract.ts";
import { MeliApiError } from "../errors.ts";
import { globalItemBody, siteToSell, type ItemPlan } from "../../../modules/publishing/item-body.ts";
import { meliProblems } from "../../../modules/publishing/outcome.ts";
import { addGlobalItemSites, createGlobalItem, getMarketplaceItems } from "./global-items.ts";

// "Publish items": the global item, one marketplace item with its seller, and a site the seller cannot sell on.
const created = {
  item_id: "CBT2187705612",
  site_id: "CBT",
  site_items: [
    { item_id: "MLM3520937262", site_id: "MLM", logistic_type: "remote", seller_id: 2560656535 },
    {
      site_id: "MLC",
      error: {
        message: "Validation error",
        error: "validation_error",
        status: 400,
        cause: [
          {
            cause_id: 4100,
            type: "error",
            code: "seller.site.not_enabled",
            references: ["sites_to_sell.site_id"],
            message: "The seller is not enabled to sell in site MLC",
          },
        ],
      },
    },
  ],
};

const plan: ItemPlan = {
  key: "0b6f1c1e-3d39-4a55-9a57-1b1c2d3e4f50",
  title: "Lámpara de escritorio",
  categoryId: "CBT74531",
  price: 12.5,
  currency: "USD",
  stock: 7,
  listingType: "gold_special",
  pictures: ["https://img.example.com/lamp.jpg"],
  attributes: [{ id: "BRAND", value_name: "Genérica" }],
  variants: [],
  sku: "LAMP-1",
  gtin: null,
  warranty: { type: null, days: null },
  description: "A desk lamp.",
  freeShipping: false,
};

describe("POST /global/items", () => {
  it("sends each site's net_proceeds, no price of the global item's own, and reads a partial success", async () => {
    const s = contractSession({ "POST /global/items": created });
    const sites = [
      { siteCode: "MLM", listingType: "gold_pro", netProceeds: 12.5, title: "Lámpara de escritorio", logisticType: "remote" as const },
      { siteCode: "MLC", listingType: "gold_pro", netProceeds: 12.5, title: "Lámpara de escritorio", logisticType: "remote" as const },
    ];
    const answer = await createGlobalItem(s, globalItemBody(plan, "Desk lamp", sites), plan.key);
    const body = s.calls[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ title: "Desk lamp", currency_id: "USD", category_id: "CBT74531", available_quantity: 7 });
    for (const k of ["price", "buying_mode", "listing_type_id", "shipping"]) expect(body).not.toHaveProperty(k);
    expect(body.sites_to_sell).toEqual([
      { site_id: "MLM", logistic_type: "remote", listing_type_id: "gold_pro", net_proceeds: 12.5, title: "Lámpara de escritorio" },
      { site_id: "MLC", logistic_type: "remote", listing_type_id: "gold_pro", net_proceeds: 12.5, title: "Lámpara de escritorio" },
    ]);

    expect(answer.item_id).toBe("CBT2187705612");
    const [mx, cl] = answer.site_items;
    expect(mx).toMatchObject({ item_id: "MLM3520937262", site_id: "MLM", seller_id: "2560656535" });
    expect(cl.item_id).toBeUndefined();
    // The refused site's causes become its listing's problems, in Mercado Libre's words.
    const refusal = new MeliApiError("validation", cl.error!);
    expect(meliProblems(refusal)).toEqual([
      { code: "meli", field: "sites_to_sell.site_id", message: expect.any(String), severity: "error" },
    ]);
    expect(refusal.status).toBe(400);
  });

  it("an answer without site_items is a bad response naming the field", async () => {
    const s = contractSession({ "POST /global/items": { item_id: "CBT1", site_id: "CBT" } });
    const err = await createGlobalItem(s, globalItemBody(plan, "Desk lamp", []), plan.key).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeliApiError);
    expect(err).toMatchObject({ kind: "bad-response" });
    expect((err as MeliApiError).meli.message).toContain("site_items");
  });
});

describe("POST /global/items/{id} and GET /items/{id}/marketplace_items", () => {
  it("adds sites with only sites_to_sell, and reads the sites a global item is on", async () => {
    const s = contractSession({
      "POST /global/items/CBT2187705612": {
        item_id: "CBT2187705612",
        site_id: "CBT",
        site_items: [{ item_id: "MLB5012345678", site_id: "MLB", logistic_type: "remote", seller_id: 2565546850 }],
      },
      "GET /items/CBT2187705612/marketplace_items": {
        item_id: "CBT2187705612",
        user_id: 2560656533,
        site_id: "CBT",
        marketplace_items: [
          { item_id: "MLM3520937262", site_id: "MLM", user_id: 2560656535, logistic_type: "remote", date_created: "2026-02-02T10:00:00Z" },
        ],
      },
    });
    const site = siteToSell({ siteCode: "MLB", listingType: "gold_special", netProceeds: 9.9, title: "Luminária", logisticType: "remote" });
    const added = await addGlobalItemSites(s, "CBT2187705612", [site]);
    expect(s.calls[0].body).toEqual({
      sites_to_sell: [{ site_id: "MLB", logistic_type: "remote", listing_type_id: "gold_special", net_proceeds: 9.9, title: "Luminária" }],
    });
    expect(added.site_items[0]).toMatchObject({ item_id: "MLB5012345678", seller_id: "2565546850" });
    const known = await getMarketplaceItems(s, "CBT2187705612");
    expect(known.marketplace_items.map((m) => [m.site_id, m.item_id])).toEqual([["MLM", "MLM3520937262"]]);
  });
});
