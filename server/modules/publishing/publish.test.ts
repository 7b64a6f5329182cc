// Publishing to a local site against the sandbox through the real HTTP stack: the batch answers at once, the job
// creates the item with the site-language title, the shop's price, the category's attributes, the description as plain
// text and the listing's key; a pair the pre-flight check refuses is skipped with its reason and never sent; a retried
// job finds its earlier item instead of creating a second; bad input is refused with nothing published; the batch is
// read by its id (GetPublishBatch) by its owner only.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listings, meliCategories } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { plainLeaf, requiredAttributes } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import {
  connectPublishingShop,
  createProductAs,
  ean13s,
  requestAttrs,
  shopGroupOf,
  syncCategories,
  until,
} from "../../testing/publish-kit.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import { moneyNumber } from "#shared/publish/price.ts";
import { PUBLISH_JOB } from "./service.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let groupA: string;

const createProduct = (t: TestTenant, body: Record<string, unknown>) => createProductAs(s, t, body);

const leaf = () => plainLeaf(s.deps.sandbox!, "MLM");
const attrsOf = () => requestAttrs(leaf());

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  await syncCategories(s, [1]);
  // The leaf requires a GTIN: the pool holds valid codes (GS1 check digits).
  groupA = await connectPublishingShop(s, A, { nickname: "PUBLISHSELLER", site: "MLM", sites: [1] }, ean13s(6));
}, 180_000);
afterAll(() => s?.close());

const publish = (t: TestTenant, body: Record<string, unknown>) => s.api("POST", "/api/MeliStatNew/Publish", { token: t.token, body });

describe("Publish to a local site", () => {
  it("creates the item once with the planned title, price and attributes, and skips what the pre-flight refuses", async () => {
    const good = await createProduct(A, {
      title: { es: "Lámpara de escritorio LED recargable", zh: "LED台灯" },
      description: { es: "<p>Luz <b>cálida</b> y fría</p><p>Batería 2000 mAh 🔋</p>" },
      price: 100,
      currency: "CNY",
      sku: "LAMP-1",
      stock: 7,
      weight: 450,
      size: "20x15x10",
      images: ["https://img.example.com/lamp-1.jpg", "https://img.example.com/lamp-2.jpg"],
    });
    // No weight, no size, and a price under the category's minimum once converted (fixed fee included): Mercado Libre
    // would refuse it.
    const incomplete = await createProduct(A, {
      title: { es: "Taza de cerámica" },
      price: 5,
      currency: "CNY",
      images: ["https://img.example.com/cup.jpg"],
    });
    const res = await publish(A, {
      accountGroupId: groupA,
      sites: [1],
      productIds: [good, incomplete],
      cateInfo: [{ site: 1, cateId: leaf().id, attrs: attrsOf() }],
    });
    expect(res.status, res.raw).toBe(200);
    const batch = res.body.result;
    expect(batch).toMatchObject({ accountGroupId: groupA, sites: [1], total: 2 });

    const readBatch = (t: { token: string }, batchId: string) =>
      s.api("POST", "/api/MeliStatNew/GetPublishBatch", { token: t.token, body: { batchId } });
    const done = await until(
      async () => (await readBatch(A, batch.id)).body.result,
      (b) => b.status !== PublishBatchStatus.Queued && b.status !== PublishBatchStatus.Running,
      "publish batch",
    );
    // GetPublishBatch answers the batch as the records list shows it; nobody else reads it: another tenant, a
    // sub-account that did not start it, and an unknown id are all 404 with nothing of the batch in the answer.
    const page = (await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: A.token, body: {} })).body.result;
    expect(page.items.find((b: { id: string }) => b.id === batch.id)).toEqual(done);
    const sub = await s.createSubUser(A);
    for (const [who, id] of [
      [B, batch.id],
      [sub, batch.id],
      [A, "00000000-0000-4000-8000-000000000000"],
    ] as const) {
      const other = await readBatch(who, id);
      expect(other.status, other.raw).toBe(404);
      expect(other.raw).not.toContain(groupA);
      expect(other.body.result).toBeUndefined();
    }
    const rows = (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId: batch.id } })).body
      .result.items;
    const live = rows.find((l: { productId: string }) => l.productId === good);
    const skipped = rows.find((l: { productId: string }) => l.productId === incomplete);
    expect(skipped).toMatchObject({ status: ListingStatus.Skipped, itemId: null });
    expect(skipped.reason).toContain("低于类目最低价");
    expect(skipped.reason).toContain("缺少重量");
    expect(skipped.problems.map((x: { code: string }) => x.code)).toEqual(
      expect.arrayContaining(["price.belowMinimum", "package.weight", "package.size"]),
    );
    expect(live.reason).toBeNull();
    expect(live.problems.every((x: { severity: string }) => x.severity === "warning")).toBe(true);
    expect(live).toMatchObject({ status: ListingStatus.Active, site: 1, title: "Lámpara de escritorio LED recargable" });
    expect(done).toMatchObject({ success: 1, skipped: 1, fail: 0, status: PublishBatchStatus.PartlySucceeded });

    // What Mercado Libre holds: the item as planned.
    const item = s.deps.sandbox!.store.state.items.get(live.itemId)!;
    expect(item).toBeDefined();
    expect(item.title).toBe("Lámpara de escritorio LED recargable");
    expect(item.category_id).toBe(leaf().id);
    expect(item.seller_custom_field).toBe(live.id);
    expect(s.deps.sandbox!.store.state.descriptions.get(live.itemId)?.plain_text).toMatch(/^Luz cálida y fría\s+Batería 2000 mAh$/);
    // The GTIN came from the pool: the item carries one of the pool's codes, and the pool counts it used.
    const gtin = item.attributes.find((a: { id: string }) => a.id === "GTIN");
    expect(gtin?.value_name).toMatch(/^\d{13}$/);
    expect((await s.api("GET", "/api/MeliCode/GetCodeCnt", { token: A.token })).body.result.used).toBeGreaterThanOrEqual(1);
    // The price is the shared formula's for this shop and category.
    expect(live.price_Content.cost).toBeGreaterThan(0);
    expect(item.price).toBe(moneyNumber(live.price_Content.price, "MXN"));
    expect(live.price).toBe(item.price);
    expect(s.deps.sandbox!.control.duplicates()).toEqual([]);

    // Every marketplace call of the listing is in the call log, without the shop's token.
    const logs = await s.api("GET", "/api/MeliStatLog/GetLogsByPage", { token: A.token, query: { ListingId: live.id } });
    expect(logs.status, logs.raw).toBe(200);
    const post = logs.body.result.items.find((l: { method: string; path: string }) => l.method === "POST" && l.path === "/items");
    expect(post).toMatchObject({ status: 201 });
    const detail = await s.api("GET", "/api/MeliStatLog/GetLogDetail", { token: A.token, query: { id: post.id } });
    expect(detail.body.result.request).toContain(live.id);
    expect(detail.body.result.response).toContain(live.itemId);
    expect(detail.raw).not.toMatch(/APP_USR-/);
  });

  it("PreflightPublish shows each pair's problems, title and price without writing or sending anything", async () => {
    const p = await createProduct(A, {
      title: { es: "Botella térmica de acero" },
      price: 80,
      currency: "CNY",
      images: ["https://img.example.com/b.jpg"],
    });
    const before = s.deps.sandbox!.control.creations().length;
    const res = await s.api("POST", "/api/MeliStatNew/PreflightPublish", {
      token: A.token,
      body: { accountGroupId: groupA, sites: [1], productIds: [p], cateInfo: [{ site: 1, cateId: leaf().id, attrs: attrsOf() }] },
    });
    expect(res.status, res.raw).toBe(200);
    const [pair] = res.body.result.pairs;
    expect(res.body.result).toMatchObject({ selected: 1, ok: 0, refused: 1 });
    expect(pair).toMatchObject({ productId: p, site: 1, cateId: leaf().id, ok: false, title: "Botella térmica de acero" });
    // Named by its stored Chinese name (the glossary's, with no translation service), else the site's.
    const [category] = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .select({ zh: meliCategories.zh })
        .from(meliCategories)
        .where(and(eq(meliCategories.site, 1), eq(meliCategories.cateId, leaf().id))),
    );
    expect(category.zh).toMatch(/[\u4e00-\u9fff]/);
    expect(pair.cateName).toBe(category.zh);
    expect(pair.problems.map((x: { code: string }) => x.code)).toEqual(expect.arrayContaining(["package.weight", "package.size"]));
    expect(pair.problems.find((x: { code: string }) => x.code === "package.weight").fix).toBe("product");
    expect(pair.price).toMatchObject({ currency: "MXN", listingType: "gold_special" });
    expect(s.deps.sandbox!.control.creations().length).toBe(before);
    const stored = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .select()
        .from(listings)
        .where(and(eq(listings.tenantId, A.tenantId), eq(listings.productId, p))),
    );
    expect(stored).toEqual([]);

    // A category with a Chinese name is named in Chinese (the preview, the listing, the pre-flight's messages).
    const where = and(eq(meliCategories.site, 1), eq(meliCategories.cateId, leaf().id));
    await s.database.db.update(meliCategories).set({ zh: "保温杯" }).where(where);
    try {
      const again = await s.api("POST", "/api/MeliStatNew/PreflightPublish", {
        token: A.token,
        body: { accountGroupId: groupA, sites: [1], productIds: [p], cateInfo: [{ site: 1, cateId: leaf().id, attrs: attrsOf() }] },
      });
      expect(again.body.result.pairs[0].cateName).toBe("保温杯");
    } finally {
      await s.database.db.update(meliCategories).set({ zh: null }).where(where);
    }
  });

  it("a job run again after its item was created finds that item and creates none", async () => {
    const p = await createProduct(A, {
      title: { es: "Soporte de celular ajustable" },
      price: 30,
      currency: "CNY",
      weight: 100,
      size: "10x5x5",
      images: ["https://img.example.com/stand.jpg"],
    });
    const res = await publish(A, {
      accountGroupId: groupA,
      sites: [1],
      productIds: [p],
      cateInfo: [{ site: 1, cateId: leaf().id, attrs: attrsOf() }],
    });
    const batchId = res.body.result.id;
    const first = await until(
      async () =>
        (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId } })).body.result.items[0],
      (l) => l.status === ListingStatus.Active,
      "first publish",
    );
    // As if the process died after Mercado Libre created the item but before the listing was written.
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .update(listings)
        .set({ status: ListingStatus.Publishing, itemId: null })
        .where(and(eq(listings.tenantId, A.tenantId), eq(listings.id, first.id))),
    );
    await s.deps.jobs.send(PUBLISH_JOB, { tenantId: A.tenantId, batchId, productId: p });
    const again = await until(
      async () =>
        (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId } })).body.result.items[0],
      (l) => l.status === ListingStatus.Active,
      "the job run again",
    );
    expect(again).toMatchObject({ status: ListingStatus.Active, itemId: first.itemId });
    expect(s.deps.sandbox!.control.duplicates()).toEqual([]);
  });
});

describe("A title missing in the site's language", () => {
  it("is translated by the configured service, framed by the prefix and suffix, before the item is created", async () => {
    const asked: { source: string; target: string; q: string[] }[] = [];
    const fake = createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        res.setHeader("content-type", "application/json");
        if (req.url === "/languages") {
          res.end(JSON.stringify(["en", "es", "pt", "zh"].map((code) => ({ code, name: code, targets: ["en", "es", "pt", "zh"] }))));
          return;
        }
        const body = JSON.parse(raw);
        asked.push(body);
        res.end(
          JSON.stringify({ translatedText: body.q.map((t: string) => (t === "便携式充电台灯" ? "Lámpara recargable portátil" : t)) }),
        );
      });
    });
    await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
    const host = await s.adminToken();
    const set = async (key: string, value: string) => {
      const held = await s.api("GET", "/api/SystemConfigSetting/Get", { token: host, query: { key } });
      const id = held.status === 200 ? held.body.result.id : undefined;
      const res = await s.api("POST", "/api/SystemConfigSetting/CreateOrUpdate", { token: host, body: { id, name: key, key, value } });
      expect(res.status, res.raw).toBe(200);
    };
    try {
      await set("Translate.Provider", "libretranslate");
      await set("Translate.Url", `http://127.0.0.1:${(fake.address() as AddressInfo).port}`);
      const p = await createProduct(A, {
        title: { zh: "便携式充电台灯" },
        price: 100,
        currency: "CNY",
        weight: 300,
        size: "20x10x10",
        images: ["https://img.example.com/zh-lamp.jpg"],
      });
      const res = await publish(A, {
        accountGroupId: groupA,
        sites: [1],
        productIds: [p],
        prefixTitle: "Nueva",
        cateInfo: [{ site: 1, cateId: leaf().id, attrs: attrsOf() }],
      });
      expect(res.status, res.raw).toBe(200);
      const l = await until(
        async () =>
          (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId: res.body.result.id } })).body
            .result.items[0],
        (x) => x.status !== ListingStatus.Pending && x.status !== ListingStatus.Publishing,
        "translated publish",
      );
      expect(l).toMatchObject({ status: ListingStatus.Active, title: "Nueva Lámpara recargable portátil" });
      expect(s.deps.sandbox!.store.state.items.get(l.itemId)!.title).toBe("Nueva Lámpara recargable portátil");
      expect(asked.some((a) => a.source === "zh" && a.target === "es" && a.q.includes("便携式充电台灯"))).toBe(true);
    } finally {
      await set("Translate.Provider", "");
      await new Promise((r) => fake.close(r));
    }
  });
});

describe("Publish through a global-selling (CBT) shop", () => {
  it("creates one global item with a site item per site, each with its own title and net proceeds; a site the seller lost is refused alone", async () => {
    await syncCategories(s, [5]);
    const C = await s.createTenant();
    const page = await connectShop(s, C.token, { nickname: "GLOBALSELLER", site: "CBT", marketplaces: ["MLM", "MLB", "MCO"] });
    expect(page.ok, page.message).toBe(true);
    const group = await shopGroupOf(s, C);
    const cbtLeaf = plainLeaf(s.deps.sandbox!, "CBT");
    const attrs = requiredAttributes(cbtLeaf)
      // The package and the condition are the publisher's (the screen does not ask them).
      .filter((a) => !a.id.startsWith("PACKAGE_") && a.id !== "ITEM_CONDITION")
      .map((a) => ({
        id: a.id,
        valueId: (a as { value_id?: string }).value_id ?? null,
        valueName: (a as { value_name?: string }).value_name ?? null,
      }));
    await s.api("POST", "/api/MeliCode/SetCodes", { token: C.token, body: { codes: ["7501031311309", "7501055300075"] } });
    const p = await createProduct(C, {
      title: { en: "Rechargeable LED desk lamp", es: "Lámpara de escritorio LED recargable", pt: "Luminária de mesa LED recarregável" },
      price: 100,
      currency: "CNY",
      weight: 450,
      size: "20x15x10",
      images: ["https://img.example.com/lamp-1.jpg"],
    });
    // Mercado Libre stopped the seller on Colombia after the shop was connected.
    const seller = [...s.deps.sandbox!.store.state.users.values()].find((u) => u.nickname === "GLOBALSELLER")!;
    seller.marketplaces = seller.marketplaces.filter((m) => m.siteId !== "MCO");

    const res = await publish(C, {
      accountGroupId: group,
      sites: [1, 2, 4],
      productIds: [p],
      cateInfo: [{ site: 5, cateId: cbtLeaf.id, attrs }],
    });
    expect(res.status, res.raw).toBe(200);
    const batchId = res.body.result.id;
    const rows = await until(
      async () =>
        (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: C.token, body: { batchId } })).body.result.items,
      (ls: { status: number }[]) =>
        ls.length === 3 && ls.every((l) => l.status !== ListingStatus.Pending && l.status !== ListingStatus.Publishing),
      "global publish",
    );
    type Row = { site: number; status: number; cbtId: string; itemId: string; title: string; reason: string };
    const bySite = new Map((rows as Row[]).map((l) => [l.site, l]));
    const [mx, br, co] = [bySite.get(1)!, bySite.get(2)!, bySite.get(4)!];
    expect(mx).toMatchObject({ status: ListingStatus.Active, title: "Lámpara de escritorio LED recargable" });
    expect(br).toMatchObject({ status: ListingStatus.Active, title: "Luminária de mesa LED recarregável" });
    expect(mx.cbtId).toMatch(/^CBT/);
    expect(br.cbtId).toBe(mx.cbtId);
    expect(mx.itemId).toMatch(/^MLM/);
    expect(br.itemId).toMatch(/^MLB/);
    expect(co).toMatchObject({ status: ListingStatus.Refused, cbtId: mx.cbtId, itemId: null });
    expect(co.reason).toContain("卖家未开通该站点");
    const parent = s.deps.sandbox!.store.state.items.get(mx.cbtId)!;
    expect(parent.title).toBe("Rechargeable LED desk lamp");
    expect(parent.currency_id).toBe("USD");
    expect(parent.attributes.find((a) => a.id === "ITEM_CONDITION")?.value_name).toMatch(/^(New|Nuevo)$/);
    expect(s.deps.sandbox!.store.state.items.get(br.itemId)!.title).toBe("Luminária de mesa LED recarregável");
    const batch = (await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: C.token, body: {} })).body.result.items[0];
    expect(batch).toMatchObject({ total: 3, success: 2, fail: 1, status: PublishBatchStatus.PartlySucceeded });
    expect(s.deps.sandbox!.control.duplicates()).toEqual([]);
  });
});

describe("Publish refuses bad input and publishes nothing", () => {
  it.each([
    [
      "an unknown shop group",
      () => ({ accountGroupId: "00000000-0000-4000-8000-000000000001", sites: [1], productIds: ["00000000-0000-4000-8000-000000000002"] }),
      404,
    ],
    [
      "a site the shop does not sell on",
      () => ({ accountGroupId: groupA, sites: [2], productIds: ["00000000-0000-4000-8000-000000000002"] }),
      403,
    ],
    [
      "products that do not exist",
      () => ({ accountGroupId: groupA, sites: [1], productIds: ["00000000-0000-4000-8000-000000000002"] }),
      403,
    ],
    ["an empty selection", () => ({ accountGroupId: groupA, sites: [1], productIds: [] }), 400],
    ["a site twice", () => ({ accountGroupId: groupA, sites: [1, 1], productIds: ["00000000-0000-4000-8000-000000000002"] }), 400],
  ])("%s", async (_what, body, status) => {
    const before = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx.select().from(listings).where(eq(listings.tenantId, A.tenantId)),
    );
    const res = await publish(A, body());
    expect(res.status, res.raw).toBe(status);
    expect(res.body.error.message).toBeTruthy();
    const after = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx.select().from(listings).where(eq(listings.tenantId, A.tenantId)),
    );
    expect(after.length).toBe(before.length);
  });

  it("another tenant cannot publish through A's shop nor A's products, nor see A's batches", async () => {
    const p = await createProduct(A, { title: { es: "Producto de A" }, price: 10, currency: "CNY" });
    expect((await publish(B, { accountGroupId: groupA, sites: [1], productIds: [p] })).status).toBe(404);
    const page = (await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: B.token, body: {} })).body.result;
    expect(page).toEqual({ items: [], totalCount: 0 });
    const batches = (await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: A.token, body: {} })).body.result.items;
    const res = await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: B.token, body: { batchId: batches[0].id } });
    expect(res.status).toBe(404);
  });
});
