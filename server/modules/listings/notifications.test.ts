// Notifications end to end: the app listens on a port, the sandbox posts its notifications to the app's MeliCallback
// over HTTP when an item changes through its API (as another client of the seller would change it), and the stored
// notification's job brings the listing record up to the item. A resent notification reads nothing and writes
// nothing; one sent before the listing's last sync neither reads nor changes it; a sale's order notification is kept
// worked through by the orders handler while the sale shows on the listing; a seller of another tenant never touches this
// tenant's listings, even one recorded with the same item id.
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listings, meliAccounts, meliCallLogs, meliNotifications } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { itemBody, plainLeaf } from "../../testing/sandbox-kit.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import { shopGroupOf, until } from "../../testing/publish-kit.ts";
import { SANDBOX_PREFIX } from "../../sandbox/sandbox.ts";
import type { NotificationPayload } from "../../sandbox/notify.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import type { ListingRowPage } from "#shared/contract/listings.ts";
import { MeliNotificationStatus } from "../meli/index.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
const shops: Record<"A" | "B", { groupId: string; accountId: string; sellerId: number; token: string }> = {} as never;

const sandbox = () => s.deps.sandbox!;
const control = () => sandbox().control;

/** Calls the sandbox's API with the seller's own token, as another client of the seller would. */
async function meli(token: string, method: "GET" | "POST" | "PUT", path: string, body?: unknown) {
  const res = await s.app.inject({
    method,
    url: `${SANDBOX_PREFIX}${path}`,
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> & { id: string; price: number } };
}

async function connect(t: TestTenant, nickname: string) {
  const page = await connectShop(s, t.token, { nickname, site: "MLM", sites: [1] });
  if (!page.ok) throw new Error(`connect: ${page.message}`);
  const groupId = await shopGroupOf(s, t);
  const [account] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select({ id: meliAccounts.id })
      .from(meliAccounts)
      .where(and(eq(meliAccounts.tenantId, t.tenantId), eq(meliAccounts.groupId, groupId))),
  );
  const seller = sandbox().store.userByNickname(nickname)!;
  return { groupId, accountId: account.id, sellerId: seller.id, token: control().tokens({ nickname }).access_token };
}

async function createItem(shop: (typeof shops)["A"], price: number) {
  const res = await meli(shop.token, "POST", "/items", itemBody(plainLeaf(sandbox(), "MLM"), { price, available_quantity: 10 }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A listing record of the item in the tenant's shop, as publishing leaves it (synced a minute ago). */
async function recordListing(
  t: TestTenant,
  shop: (typeof shops)["A"],
  item: { id: string; price: number },
  over: Partial<typeof listings.$inferInsert> = {},
) {
  const id = randomUUID();
  const synced = new Date(Date.now() - 60_000);
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.insert(listings).values({
      tenantId: t.tenantId,
      id,
      accountGroupId: shop.groupId,
      accountId: shop.accountId,
      userId: t.userId,
      productId: randomUUID(),
      site: 1,
      itemId: item.id,
      title: "Producto de prueba",
      status: ListingStatus.Active,
      price: item.price.toFixed(2),
      currency: "MXN",
      stock: 10,
      syncTime: synced,
      lastModificationTime: synced,
      ...over,
    }),
  );
  return id;
}

async function listing(t: TestTenant, id: string) {
  const [row] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select()
      .from(listings)
      .where(and(eq(listings.tenantId, t.tenantId), eq(listings.id, id))),
  );
  return row;
}

/** The notifications the sandbox delivered (after waiting for every delivery) for a resource, oldest first. */
async function deliveredFor(resource: string): Promise<NotificationPayload[]> {
  await control().notifications.settle();
  const ds = control()
    .notifications.deliveries()
    .filter((d) => d.payload.resource === resource);
  expect(ds.every((d) => d.delivered)).toBe(true);
  return ds.map((d) => d.payload);
}

/** Waits until the tenant has stored every one of these notifications and none is still pending; answers their rows. */
async function worked(t: TestTenant, ids: string[]) {
  return until(
    () =>
      inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
        tx
          .select({ notificationId: meliNotifications.notificationId, status: meliNotifications.status, topic: meliNotifications.topic })
          .from(meliNotifications)
          .where(and(eq(meliNotifications.tenantId, t.tenantId), inArray(meliNotifications.notificationId, ids))),
      ),
    (rows) => rows.length === ids.length && rows.every((r) => r.status !== MeliNotificationStatus.Pending),
    "notifications processed",
    30_000,
  );
}

const reads = () => control().callCount("GET /items/:id");
const callback = (body: unknown) => s.api("POST", "/api/Meli/MeliCallback", { body });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  s = await startTestServer();
  // No orders from the sandbox's seeded stream during the run: only the sales this test makes.
  sandbox().store.state.orderIntervalMs = 1e13;
  await s.app.listen({ port: 0, host: "127.0.0.1" });
  const port = (s.app.server.address() as AddressInfo).port;
  control().notifications.configure({ url: `http://127.0.0.1:${port}/api/Meli/MeliCallback` });
  A = await s.createTenant();
  B = await s.createTenant();
  shops.A = await connect(A, "NOTIFYSELLERA");
  shops.B = await connect(B, "NOTIFYSELLERB");
}, 120_000);
afterAll(async () => {
  control().notifications.reset();
  await s?.close();
});

describe("Notifications update listings", () => {
  let item: { id: string; price: number };
  let listingId: string;

  it("a price put on the sandbox reaches the listing record through the callback", async () => {
    item = await createItem(shops.A, 500);
    // The creation's notification finds no record yet: processed without a change.
    const created = await deliveredFor(`/items/${item.id}`);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ topic: "items", user_id: shops.A.sellerId, application_id: Number(s.deps.config.meliClientId) });
    await worked(
      A,
      created.map((n) => n._id),
    );
    listingId = await recordListing(A, shops.A, item);

    s.deps.sandbox!.control.addVisits(item.id, 7);
    const started = Date.now();
    // The change's notification is held until the PUT has answered (or 20 s have passed): Mercado Libre answers the
    // change first and notifies after, so the PUT answers while its notification is still held.
    const url = control().notifications.url()!;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let releasedFirst = false;
    const fallback = setTimeout(() => ((releasedFirst = true), release()), 20_000);
    control().notifications.configure({
      url,
      send: async (to, payload) => {
        await held;
        const res = await fetch(to, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
        await res.body?.cancel();
        return res.status;
      },
    });
    const put = await meli(shops.A.token, "PUT", `/items/${item.id}`, { price: 650 });
    const heldAtAnswer = !releasedFirst;
    clearTimeout(fallback);
    release();
    control().notifications.configure({ url });
    expect(put.status).toBe(200);
    expect(heldAtAnswer).toBe(true);
    const notes = await deliveredFor(`/items/${item.id}`);
    expect(notes).toHaveLength(2);
    await worked(A, [notes[1]._id]);

    const row = await listing(A, listingId);
    expect(Number(row.price)).toBe(650);
    expect(row.views).toBe(7);
    expect(row.status).toBe(ListingStatus.Active);
    expect(row.syncTime!.getTime()).toBeGreaterThan(started - 1000);
    // The list shows the new price, and the read is in the listing's call log.
    const page = (await s.api("POST", "/api/MeliStat/GetMeliStatsByPage", { token: A.token, body: { itemIds: [item.id] } })).body
      .result as ListingRowPage;
    expect(page.items.map((l) => [l.id, l.price])).toEqual([[listingId, 650]]);
    const logs = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .select()
        .from(meliCallLogs)
        .where(and(eq(meliCallLogs.tenantId, A.tenantId), eq(meliCallLogs.listingId, listingId))),
    );
    expect(logs.map((l) => [l.method, l.path, l.status]).sort()).toEqual([
      ["GET", `/items/${item.id}`, 200],
      ["GET", `/visits/items?ids=${item.id}`, 200],
    ]);
  });

  it("a resent notification reads and writes nothing; a new one for an unchanged item writes only the sync time", async () => {
    const [, last] = await deliveredFor(`/items/${item.id}`);
    const before = await listing(A, listingId);
    const readsBefore = reads();
    const res = await callback({ ...last, attempts: 2 });
    expect(res.body.result).toEqual({ queued: true });
    await sleep(1500);
    expect(reads()).toBe(readsBefore);
    expect(await listing(A, listingId)).toEqual(before);

    // A distinct notification (another _id) sent now: the item is re-read once, nothing differs, nothing is changed.
    const fresh = { ...last, _id: randomUUID(), sent: new Date().toISOString(), received: new Date().toISOString() };
    await callback(fresh);
    await worked(A, [fresh._id]);
    expect(reads()).toBe(readsBefore + 1);
    const after = await listing(A, listingId);
    expect(after.lastModificationTime).toEqual(before.lastModificationTime);
    expect(after.price).toBe(before.price);
    expect(after.syncTime!.getTime()).toBeGreaterThan(before.syncTime!.getTime());
  });

  it("a notification sent before the listing's last sync neither reads the item nor changes the listing", async () => {
    // The marketplace moved on without telling (no notification yet): an old notification must not be the one that
    // brings anything in, and must not put old data over the newer sync.
    sandbox().store.state.items.get(item.id)!.price = 999;
    const before = await listing(A, listingId);
    const readsBefore = reads();
    const old = {
      _id: randomUUID(),
      resource: `/items/${item.id}`,
      user_id: shops.A.sellerId,
      topic: "items",
      application_id: Number(s.deps.config.meliClientId),
      attempts: 1,
      sent: new Date(before.syncTime!.getTime() - 3_600_000).toISOString(),
      received: new Date(before.syncTime!.getTime() - 3_600_000).toISOString(),
    };
    await callback(old);
    const [row] = await worked(A, [old._id]);
    expect(row.status).toBe(MeliNotificationStatus.Processed);
    expect(reads()).toBe(readsBefore);
    expect(await listing(A, listingId)).toEqual(before);
    sandbox().store.state.items.get(item.id)!.price = 650;
  });

  it("a sale shows on the listing and its order notification is worked through by the orders handler", async () => {
    const order = control().createOrder(shops.A.sellerId, { itemId: item.id, quantity: 2 });
    const orderNotes = await deliveredFor(`/orders/${order.id}`);
    expect(orderNotes.map((n) => n.topic)).toEqual(["orders_v2"]);
    const itemNotes = await deliveredFor(`/items/${item.id}`);
    const sold = itemNotes[itemNotes.length - 1];
    const rows = await worked(A, [orderNotes[0]._id, sold._id]);
    expect(Object.fromEntries(rows.map((r) => [r.topic, r.status]))).toEqual({
      orders_v2: MeliNotificationStatus.Processed,
      items: MeliNotificationStatus.Processed,
    });
    const row = await listing(A, listingId);
    expect(row.stock).toBe(8);
    expect(row.orders).toBe(2);
  });

  it("a status change through the API pauses the listing", async () => {
    const put = await meli(shops.A.token, "PUT", `/items/${item.id}`, { status: "paused" });
    expect(put.status).toBe(200);
    const notes = await deliveredFor(`/items/${item.id}`);
    await worked(A, [notes[notes.length - 1]._id]);
    expect((await listing(A, listingId)).status).toBe(ListingStatus.Paused);
  });

  it("a seller of another tenant never touches this tenant's listings, even one with the same item id", async () => {
    const itemB = await createItem(shops.B, 300);
    await worked(
      B,
      (await deliveredFor(`/items/${itemB.id}`)).map((n) => n._id),
    );
    const ownB = await recordListing(B, shops.B, itemB);
    // A record in A's shop naming B's item (a stale or mistaken record): B's seller's news is not A's.
    const strayA = await recordListing(A, shops.A, itemB);
    const strayBefore = await listing(A, strayA);

    expect((await meli(shops.B.token, "PUT", `/items/${itemB.id}`, { price: 420, available_quantity: 3 })).status).toBe(200);
    const notes = await deliveredFor(`/items/${itemB.id}`);
    await worked(B, [notes[notes.length - 1]._id]);
    const rowB = await listing(B, ownB);
    expect([Number(rowB.price), rowB.stock]).toEqual([420, 3]);
    expect(await listing(A, strayA)).toEqual(strayBefore);
    // Nor was it stored for A.
    const storedForA = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .select({ id: meliNotifications.id })
        .from(meliNotifications)
        .where(and(eq(meliNotifications.tenantId, A.tenantId), eq(meliNotifications.resource, `/items/${itemB.id}`))),
    );
    expect(storedForA).toEqual([]);
  });
});

describe("Notifications of a cross-border listing", () => {
  it("a site item's price and the global item's stock reach the site's listing (marketplace_items)", async () => {
    const nickname = "NOTIFYCBT";
    const page = await connectShop(s, A.token, { nickname, site: "CBT", marketplaces: ["MLM"], sites: [1] });
    expect(page.ok).toBe(true);
    const groupId = page.params.get("groupId")!;
    const [account] = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .select({ id: meliAccounts.id, custId: meliAccounts.custId })
        .from(meliAccounts)
        .where(and(eq(meliAccounts.tenantId, A.tenantId), eq(meliAccounts.groupId, groupId), eq(meliAccounts.site, 1))),
    );
    const token = control().tokens({ nickname, site: "CBT", marketplaces: ["MLM"] }).access_token;
    const created = await meli(
      token,
      "POST",
      "/global/items",
      itemBody(plainLeaf(sandbox(), "CBT"), {
        title: "Wireless test product",
        price: 20,
        currency_id: "USD",
        available_quantity: 10,
        sites_to_sell: [{ site_id: "MLM", logistic_type: "remote", listing_type_id: "gold_special", net_proceeds: 20 }],
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const parentId = created.body.item_id as string;
    const childId = (created.body.site_items as { item_id: string }[])[0].item_id;
    const child = sandbox().store.state.items.get(childId)!;
    const price0 = child.price;
    const first = await deliveredFor(`/marketplace/items/${childId}`);
    expect(first[0]).toMatchObject({ topic: "marketplace_items", user_id: Number(account.custId) });
    await worked(
      A,
      first.map((n) => n._id),
    );
    const shop = { groupId, accountId: account.id, sellerId: child.seller_id, token };
    const id = await recordListing(A, shop, { id: childId, price: price0 }, { cbtId: parentId });

    const readsBefore = control().callCount("GET /marketplace/items/:id");
    expect((await meli(token, "PUT", `/global/items/${parentId}`, { available_quantity: 4 })).status).toBe(200);
    expect((await meli(token, "PUT", `/global/items/${childId}`, { price: price0 + 100 })).status).toBe(200);
    const notes = await deliveredFor(`/marketplace/items/${childId}`);
    expect(notes).toHaveLength(3);
    await worked(
      A,
      notes.map((n) => n._id),
    );
    const row = await listing(A, id);
    // As Mercado Libre holds it now (the site rounds the price it was given).
    expect(child.price).toBeGreaterThan(price0 + 99);
    expect([Number(row.price), row.stock]).toEqual([child.price, 4]);
    expect(control().callCount("GET /marketplace/items/:id")).toBeGreaterThan(readsBefore);
  });
});

describe("Sandbox notification delivery", () => {
  it("tries a failing callback again, counting the attempts, without holding the sandbox's answer", async () => {
    const n = control().notifications;
    const url = n.url();
    const tries: number[] = [];
    n.configure({
      url: "http://callback.invalid/notify",
      send: async (_u, p) => {
        tries.push(p.attempts);
        return tries.length < 3 ? 503 : 200;
      },
    });
    try {
      const item = await createItem(shops.A, 200);
      expect(tries).toEqual([]);
      await n.settle();
      expect(tries).toEqual([1, 2, 3]);
      const d = n.deliveries().find((x) => x.payload.resource === `/items/${item.id}`)!;
      expect(d).toMatchObject({ delivered: true, status: 200, payload: { attempts: 3, topic: "items" } });
    } finally {
      n.configure({ url });
    }
  });
});
