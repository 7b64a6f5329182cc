// The selection library against the sandbox through the real HTTP stack: the host watches listings by URL or item id
// (an unknown entry is named back, a catalog page is not a listing); the job reads each through the public item reads
// with the seller's country, and a second read after a price and sales change adds to the trend; a stale job reads
// nothing; a listing gone from Mercado Libre says so; the filters; tenants are refused both calls; bad input is a 400
// envelope.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_TENANT_ID, selectionSkus, selectionSnapshots } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { createShopItem } from "../../testing/listing-kit.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, until } from "../../testing/publish-kit.ts";
import { envelopeProblem } from "../../testing/security-kit.ts";
import { itemIdOf, type CompetitorListing } from "#shared/contract/selection.ts";
import { createSelectionService, SELECTION_READ_HOURS } from "./service.ts";

let s: TestServer;
let A: TestTenant;
let admin: string;
let groupA: string;
let itemOne: string;
let itemTwo: string;

const item = (id: string) => s.deps.sandbox!.store.state.items.get(id)!;
const watch = (urls: string[], token = admin) => s.api("POST", "/api/MeliSelectionSku/CreawlUrl", { token, body: { urls } });
const library = (query: Record<string, string | number | string[]> = {}, token = admin) =>
  s.api("GET", "/api/MeliSelectionSku/GetMeliSelectionSku", { token, query: { MaxResultCount: 100, ...query } });
const listingOf = async (sku: string): Promise<CompetitorListing | undefined> =>
  ((await library({ Skus: sku })).body.result.items as CompetitorListing[])[0];
const snapshots = (skuId: string) =>
  inScope(s.database.db, { tenantId: HOST_TENANT_ID }, (tx) =>
    tx
      .select()
      .from(selectionSnapshots)
      .where(and(eq(selectionSnapshots.tenantId, HOST_TENANT_ID), eq(selectionSnapshots.skuId, skuId))),
  );

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  admin = await s.adminToken();
  // A seller's listings: the competitors the host watches.
  groupA = await connectPublishingShop(s, A, { nickname: uniqueName("RIVAL"), site: "MLM", sites: [1] }, []);
  itemOne = await createShopItem(s, A, groupA, { price: 349.9 });
  itemTwo = await createShopItem(s, A, groupA, { price: 120 });
}, 180_000);
afterAll(() => s?.close());

describe("item ids from what the host pastes", () => {
  it("reads listing URLs and ids, and refuses catalog pages and other sites", () => {
    expect(itemIdOf("MLM123456789")).toBe("MLM123456789");
    expect(itemIdOf(" mlb-987654321 ")).toBe("MLB987654321");
    expect(itemIdOf("https://articulo.mercadolibre.com.mx/MLM-1234567890-lampara-led-_JM")).toBe("MLM1234567890");
    expect(itemIdOf("https://produto.mercadolivre.com.br/MLB-3456789012-camiseta-_JM#position=1")).toBe("MLB3456789012");
    expect(itemIdOf("https://www.mercadolibre.com.mx/lampara/p/MLM19023412?pdp_filters=item_id:MLM2233445566#wid=MLM2233445566")).toBe(
      "MLM2233445566",
    );
    expect(itemIdOf("https://www.mercadolibre.com.mx/lampara/p/MLM19023412")).toBeNull();
    expect(itemIdOf("https://evil.example.com/MLM-1234567890-x")).toBeNull();
    expect(itemIdOf("lampara led")).toBeNull();
  });
});

describe("watching competitor listings", () => {
  it("reads each watched listing with its seller's country, then a second read adds to the trend", async () => {
    const res = await watch([item(itemOne).permalink, itemTwo, "no es un enlace"]);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toEqual({ added: 2, existing: 0, invalid: ["no es un enlace"] });

    const first = await until(
      () => listingOf(itemOne),
      (l) => !!l?.lastReadTime,
      "first read",
    );
    const sold = item(itemOne).sold_quantity;
    expect(first).toMatchObject({
      sku: itemOne,
      url: item(itemOne).permalink,
      site: 1,
      status: "active",
      title: item(itemOne).title,
      permalink: item(itemOne).permalink,
      price: 349.9,
      currencyId: "MXN",
      sold,
      sellerId: String(item(itemOne).seller_id),
      sellerCountry: "MX",
      isCbt: false,
      error: null,
    });
    expect(first!.skuCreateDate).toBe(new Date(item(itemOne).date_created).toISOString());
    expect(first!.history).toEqual([{ time: first!.lastReadTime, price: 349.9, originalPrice: null, sold }]);
    // The next read is queued SELECTION_READ_HOURS later.
    expect(Date.parse(first!.nextReadTime) - Date.parse(first!.lastReadTime!)).toBe(SELECTION_READ_HOURS * 3_600_000);

    // The seller lowers the price and sells three: a read now (the same URL again) adds a second point.
    await s.deps.meli.shop({ tenantId: A.tenantId, groupId: groupA }).send("PUT", `/items/${itemOne}`, { body: { price: 299.9 } });
    item(itemOne).sold_quantity += 3;
    const again = await watch([itemOne]);
    expect(again.body.result).toEqual({ added: 0, existing: 1, invalid: [] });
    const second = await until(
      () => listingOf(itemOne),
      (l) => (l?.history.length ?? 0) >= 2,
      "second read",
    );
    expect(second!.history.map((p) => [p.price, p.sold])).toEqual([
      [349.9, sold],
      [299.9, sold + 3],
    ]);
    expect(second).toMatchObject({ price: 299.9, sold: sold + 3 });

    // The first schedule's job (its time is no longer the row's) reads nothing.
    await selectionService().runRead({ id: first!.id, due: first!.nextReadTime });
    expect(await snapshots(first!.id)).toHaveLength(2);
  });

  it("ends a stale job without reading, and says when a listing is gone from Mercado Libre", async () => {
    const current = await listingOf(itemTwo);
    const before = (await snapshots(current!.id)).length;
    await selectionService().runRead({ id: current!.id, due: "2020-01-01T00:00:00.000Z" });
    expect(await snapshots(current!.id)).toHaveLength(before);

    expect((await watch(["MLM999999999"])).body.result.added).toBe(1);
    const gone = await until(
      () => listingOf("MLM999999999"),
      (l) => !!l?.lastReadTime,
      "gone listing",
    );
    expect(gone).toMatchObject({ error: "美客多上不存在该刊登（已删除或编号有误）", title: null, history: [] });
  });

  it("marks a marketplace item of a global (CBT) item as cross-border", async () => {
    const marketplaceItem = await createShopItem(s, A, groupA);
    item(marketplaceItem).parent_item_id = "CBT1234567890";
    expect((await watch([marketplaceItem])).body.result.added).toBe(1);
    const read = await until(
      () => listingOf(marketplaceItem),
      (l) => !!l?.lastReadTime,
      "global item read",
    );
    expect(read).toMatchObject({ isCbt: true, site: 1 });
    expect((await listingOf(itemOne))!.isCbt).toBe(false);
  });

  it("filters by ids, site and seller, and keeps the trend to the dates asked", async () => {
    const sellerId = String(item(itemOne).seller_id);
    const bySeller = await library({ SellerId: sellerId });
    const skus = bySeller.body.result.items.map((l: CompetitorListing) => l.sku);
    expect(skus).toEqual(expect.arrayContaining([itemOne, itemTwo]));
    expect(skus).not.toContain("MLM999999999");
    expect(
      (await library({ Skus: [itemOne, `https://articulo.mercadolibre.com.mx/${itemTwo.replace("MLM", "MLM-")}-x-_JM`] })).body.result
        .totalCount,
    ).toBe(2);
    expect((await library({ Site: 2 })).body.result.totalCount).toBe(0);
    const old = await library({ Skus: itemOne, StartDate: "2020-01-01", EndDate: "2020-01-02" });
    expect(old.body.result.items[0].history).toEqual([]);
    const sorted = await library({ Sorting: "price desc", Site: 1 });
    const prices = sorted.body.result.items.map((l: CompetitorListing) => l.price).filter((p: number | null) => p !== null);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it("refuses tenants both calls, and bad input with the envelope", async () => {
    for (const res of [await watch([itemOne], A.token), await library({}, A.token)]) {
      expect(res.status).toBe(403);
      expect(envelopeProblem(res)).toBeNull();
    }
    for (const res of [
      await watch([]),
      await s.api("POST", "/api/MeliSelectionSku/CreawlUrl", { token: admin, body: { urls: "MLM1" } }),
      await watch(["nada", "tampoco"]),
      await library({ StartDate: "2026-02-31" }),
      await library({ Site: 9 }),
      await library({ StartDate: "2026-03-02", EndDate: "2026-03-01" }),
    ]) {
      expect(res.status, res.raw).toBe(400);
      expect(envelopeProblem(res)).toBeNull();
    }
    // Nothing was watched by the refused calls.
    const [{ n }] = await inScope(s.database.db, { tenantId: HOST_TENANT_ID }, async (tx) => [
      { n: (await tx.select().from(selectionSkus).where(eq(selectionSkus.tenantId, HOST_TENANT_ID))).length },
    ]);
    expect(n).toBe(4);
  });
});

/** A second instance of the service (creating one registers no worker), to run a job by hand as the queue would. */
const selectionService = () => createSelectionService({ database: s.database, jobs: s.deps.jobs, meli: s.deps.meli, log: s.deps.log });
