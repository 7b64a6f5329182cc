// The marketplace's fees in the publish price, against the sandbox through the real HTTP stack: listing_prices is read
// once per (site, category, listing type) before planning, with the shipping mode the items are published with (me2),
// and cached for 24 h; under ME2 a low price pays no fixed fee (comision-por-vender.md) and the created item's price is
// the shared formula's with those fees; a failed read prices from the category row's
// percentage with a warning and says so in the breakdown. A fee read that is new or moved queues the margin recompute of
// its category (issue 32).
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { currencies, meliAccountGroups, meliAccounts } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { feeFor } from "../../sandbox/catalog.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import { connectPublishingShop, createProductAs, ean13s, requestAttrs, syncCategories, until } from "../../testing/publish-kit.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import { MARGIN_JOB } from "../listings/index.ts";
import { moneyNumber, sitePrice, type PriceBreakdown } from "#shared/publish/price.ts";

let s: TestServer;
let A: TestTenant;
let groupA: string;

const FEE_READS = "GET /sites/:site/listing_prices";
const feeReads = () => s.deps.sandbox!.control.callCount(FEE_READS);

const host = <T>(q: ReturnType<typeof sql>) => inScope(s.database.db, hostAllScope, async (tx) => rowsOf<T>(await tx.execute(q)));

const createProduct = (body: Record<string, unknown>) => createProductAs(s, A, body);

const leaf = () => plainLeaf(s.deps.sandbox!, "MLM");
const cateInfo = () => [
  {
    site: 1,
    cateId: leaf().id,
    attrs: requestAttrs(leaf()),
  },
];
const product = (title: string, price: number) =>
  createProduct({ title: { es: title }, price, currency: "CNY", weight: 200, size: "10x10x5", images: ["https://img.example.com/p.jpg"] });

type Pair = { productId: string; ok: boolean; problems: { code: string; severity: string; message: string }[]; price: PriceBreakdown };
async function preflight(productIds: string[], extra: Record<string, unknown> = {}): Promise<Pair[]> {
  const res = await s.api("POST", "/api/MeliStatNew/PreflightPublish", {
    token: A.token,
    body: { accountGroupId: groupA, sites: [1], productIds, cateInfo: cateInfo(), ...extra },
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.pairs;
}

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  await syncCategories(s, [1]);
  groupA = await connectPublishingShop(s, A, { nickname: "FEESELLER", site: "MLM", sites: [1] }, ean13s(4));
}, 180_000);
afterAll(() => s?.close());
beforeEach(async () => {
  await host(sql`delete from meli_listing_fees`);
  s.deps.sandbox!.control.clearInjections();
});

describe("listing_prices in the publish price", () => {
  it("is read once per site, category and listing type, cached, and read again after 24 hours", async () => {
    const ids = [await product("Lámpara uno", 100), await product("Lámpara dos", 150), await product("Lámpara tres", 30)];
    const before = feeReads();
    const pairs = await preflight(ids);
    // One probe for the category and gold_special, not three: at price 1 under ME2 no fixed fee is charged, so there is
    // no threshold to confirm.
    expect(feeReads() - before).toBe(1);
    expect(pairs.every((p) => p.price.feeSource === "listingPrices")).toBe(true);
    const [row] = await host<Record<string, string>>(
      sql`select site, cate_id as "cateId", listing_type as "listingType", percentage_fee as "percentageFee", fixed_fee as "fixedFee",
          fixed_fee_under as "fixedFeeUnder", listing_fee as "listingFee", currency from meli_listing_fees`,
    );
    const sandboxFee = feeFor("MLM", 1, "gold_special", leaf(), "", { shippingMode: "me2" });
    expect(row).toMatchObject({ site: 1, cateId: leaf().id, listingType: "gold_special", currency: "MXN" });
    expect(Number(row.percentageFee)).toBe(sandboxFee.sale_fee_details.percentage_fee);
    expect([Number(row.fixedFee), row.fixedFeeUnder, Number(row.listingFee)]).toEqual([0, null, 0]);

    // The same request again, and a publish of it: the cache answers, nothing is read.
    await preflight(ids);
    const res = await s.api("POST", "/api/MeliStatNew/Publish", {
      token: A.token,
      body: { accountGroupId: groupA, sites: [1], productIds: ids, cateInfo: cateInfo() },
    });
    expect(res.status, res.raw).toBe(200);
    await until(
      async () => (await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: A.token, body: {} })).body.result.items[0],
      (b) => b.status !== PublishBatchStatus.Queued && b.status !== PublishBatchStatus.Running,
      "publish batch",
    );
    expect(feeReads() - before).toBe(1);

    // Another listing type is another key; a row older than 24 h is read again.
    await preflight(ids, { listingType: "gold_pro" });
    expect(feeReads() - before).toBe(2);
    // A fee read again that moved (cached 1 point higher here) queues the margin recompute of its category; one read
    // again unchanged queues nothing.
    const marginJobs = async () =>
      rowsOf<{ data: { reason: string; categories: unknown[] } }>(
        await s.database.db.execute(sql`select data from pgboss.job where name = ${MARGIN_JOB} order by created_on`),
      ).map((j) => j.data);
    const queued = (await marginJobs()).length;
    await host(
      sql`update meli_listing_fees set fetched_at = now() - interval '25 hours', percentage_fee = percentage_fee + 1
          where listing_type = 'gold_special'`,
    );
    await preflight(ids);
    expect(feeReads() - before).toBe(3);
    expect((await marginJobs()).slice(queued)).toEqual([{ reason: "fee", categories: [{ site: 1, cateId: leaf().id }] }]);
    await host(sql`update meli_listing_fees set fetched_at = now() - interval '25 hours' where listing_type = 'gold_special'`);
    await preflight(ids);
    expect(feeReads() - before).toBe(4);
    expect((await marginJobs()).length).toBe(queued + 1);
    // A free listing pays no fees: nothing to read.
    await preflight(ids, { listingType: "free" });
    expect(feeReads() - before).toBe(4);
  });

  it("under ME2 a low price pays no fixed fee, and the item is created at the formula's price with those fees", async () => {
    const id = await product("Llavero de metal", 30);
    const [pair] = await preflight([id]);
    expect(pair.price).toMatchObject({ feeSource: "listingPrices", fixedFee: 0, listingFee: 0 });
    expect(pair.price.price).toBeLessThan(29900);

    // The same price from the shared formula with the cached fees, the shop's rules and the rates.
    const [shop] = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .select()
        .from(meliAccounts)
        .where(and(eq(meliAccounts.tenantId, A.tenantId), eq(meliAccounts.groupId, groupA))),
    );
    const rates = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx.select({ code: currencies.code, rate: currencies.rate }).from(currencies),
    );
    const [fee] = await host<{ percentageFee: string; fixedFee: string; fixedFeeUnder: string; listingFee: string }>(
      sql`select percentage_fee as "percentageFee", fixed_fee as "fixedFee", fixed_fee_under as "fixedFeeUnder", listing_fee as "listingFee"
          from meli_listing_fees where site = 1 and cate_id = ${leaf().id} and listing_type = 'gold_special'`,
    );
    const expected = sitePrice({
      site: 1,
      price: "30.00",
      currency: "CNY",
      rates,
      shop,
      category: { classicFee: null, premiumFee: null },
      listingType: "gold_special",
      feePercent: fee.percentageFee,
      feeSource: "listingPrices",
      fixedFee: { amount: fee.fixedFee, under: fee.fixedFeeUnder },
      listingFee: fee.listingFee,
    });
    if (!expected.ok) throw new Error(expected.message);
    expect(pair.price).toEqual(expected.price);

    const res = await s.api("POST", "/api/MeliStatNew/Publish", {
      token: A.token,
      body: { accountGroupId: groupA, sites: [1], productIds: [id], cateInfo: cateInfo() },
    });
    expect(res.status, res.raw).toBe(200);
    const [listing] = await until(
      async () =>
        (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId: res.body.result.id } })).body
          .result.items,
      (ls: { status: number; reason: string; itemId: string; price_Content: PriceBreakdown }[]) =>
        ls.length === 1 && ls[0].status !== ListingStatus.Pending && ls[0].status !== ListingStatus.Publishing,
      "publish",
    );
    expect(listing.status, listing.reason).toBe(ListingStatus.Active);
    expect(listing.price_Content).toEqual(expected.price);
    const item = s.deps.sandbox!.store.state.items.get(listing.itemId)!;
    expect(item.price).toBe(moneyNumber(expected.price.price, "MXN"));
    // What Mercado Libre charges on that price for an ME2 item leaves the seller what the breakdown says; asked without
    // the shipping mode (the old structure) the same price would have shown a fixed fee that is not charged.
    const charged = feeFor("MLM", item.price, "gold_special", leaf(), "", { shippingMode: String(item.shipping.mode) });
    expect(item.shipping.mode).toBe("me2");
    expect(charged.sale_fee_details.fixed_fee).toBe(0);
    expect(feeFor("MLM", item.price, "gold_special", leaf(), "").sale_fee_details.fixed_fee).toBe(25);
    expect(Math.round((item.price - charged.sale_fee_amount) * 100)).toBe(expected.price.netProceeds);
  });

  it("a global-selling shop reads its global (CBT) category's fees once for all its sites, without a fixed fee", async () => {
    await syncCategories(s, [5]);
    const C = await s.createTenant();
    const page = await connectShop(s, C.token, { nickname: "GLOBALFEES", site: "CBT", marketplaces: ["MLM", "MLB"] });
    expect(page.ok, page.message).toBe(true);
    const [g] = await inScope(s.database.db, { tenantId: C.tenantId }, (tx) =>
      tx.select({ id: meliAccountGroups.id }).from(meliAccountGroups).where(eq(meliAccountGroups.tenantId, C.tenantId)),
    );
    const cbtLeaf = plainLeaf(s.deps.sandbox!, "CBT");
    const created = await s.api("POST", "/api/Product/CreateOrUpdateProduct", {
      token: C.token,
      body: {
        title: { en: "Desk lamp" },
        price: 30,
        currency: "CNY",
        weight: 200,
        size: "10x10x5",
        images: ["https://img.example.com/l.jpg"],
      },
    });
    const before = feeReads();
    const res = await s.api("POST", "/api/MeliStatNew/PreflightPublish", {
      token: C.token,
      body: { accountGroupId: g.id, sites: [1, 2], productIds: [created.body.result.id], cateInfo: [{ site: 5, cateId: cbtLeaf.id }] },
    });
    expect(res.status, res.raw).toBe(200);
    expect(feeReads() - before).toBe(1);
    const pairs: Pair[] = res.body.result.pairs;
    expect(pairs.map((p) => p.price)).toEqual([
      expect.objectContaining({ feeSource: "listingPrices", isCbt: true, currency: "USD", fixedFee: 0 }),
      expect.objectContaining({ feeSource: "listingPrices", isCbt: true, currency: "USD", fixedFee: 0 }),
    ]);
    const [row] = await host<Record<string, string>>(
      sql`select fixed_fee as "fixedFee", fixed_fee_under as "fixedFeeUnder", currency from meli_listing_fees where site = 5`,
    );
    expect([Number(row.fixedFee), row.fixedFeeUnder, row.currency]).toEqual([0, null, "USD"]);
  });

  it("a failed read prices from the category's percentage with a warning, and is read again next time", async () => {
    const id = await product("Taza térmica", 100);
    s.deps.sandbox!.control.inject({ method: "GET", path: "/sites/MLM/listing_prices", status: 400, times: 1 });
    const [pair] = await preflight([id]);
    expect(pair.price).toMatchObject({ feeSource: "category", fixedFee: 0 });
    const [category] = await host<{ classicFee: string }>(
      sql`select classic_fee as "classicFee" from meli_categories where site = 1 and cate_id = ${leaf().id}`,
    );
    expect(pair.price.feePercent).toBe(String(Number(category.classicFee)));
    expect(pair.problems).toContainEqual(
      expect.objectContaining({ code: "fee.estimated", severity: "warning", message: "未能读取平台费用，按类目费率估算" }),
    );
    expect(await host(sql`select 1 from meli_listing_fees`)).toEqual([]);
    // The failed read is in the shop group's call log.
    const logs = await s.api("GET", "/api/MeliStatLog/GetLogsByPage", { token: A.token, query: { AccountgroupId: groupA } });
    expect(logs.body.result.items).toContainEqual(expect.objectContaining({ method: "GET", status: 400 }));

    const [again] = await preflight([id]);
    expect(again.price.feeSource).toBe("listingPrices");
    expect(again.problems.some((x) => x.code === "fee.estimated")).toBe(false);
  });
});
