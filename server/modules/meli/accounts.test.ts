// Shop accounts and groups (spec §7 MeliAccount): the list with its filters and sorting, a sub-account's own shops,
// the edits, assignment with the target's limit, order receiving, the user cache, ClearSubAccountInfo, another
// tenant's ids, and the notification endpoint.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import { settleTasks, within } from "../../testing/security-kit.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import { MELI_NOTIFICATION_JOB } from "./notifications.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let sub: { id: string; userName: string; token: string };
let other: { id: string; userName: string; token: string };
/** A's shops: a main-account MLM shop, a global seller's MLB and MCO shops, and the sub-account's MLB shop. */
const shops = { mx: "", cbtBl: "", cbtCo: "", subShop: "" };
let mxSeller = "";
let cbtGroup = "";

const nick = (p: string) => uniqueName(p).toUpperCase();
const get = (token: string, name: string, query: Record<string, string | number | boolean> = {}) =>
  s.api("GET", `/api/MeliAccount/${name}`, { token, query });
const post = (token: string, name: string, body?: unknown, query?: Record<string, string | boolean>) =>
  s.api("POST", `/api/MeliAccount/${name}`, { token, body, query });
const list = async (token: string, query: Record<string, string | number> = {}) => {
  const res = await get(token, "GetAccounts", { MaxResultCount: 100, ...query });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as { items: any[]; totalCount: number };
};

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  sub = await s.createSubUser(A, uniqueName("sales"));
  other = await s.createSubUser(A, uniqueName("other"), { limitMeliAccount: 1 });
  mxSeller = nick("MAINMX");
  expect((await connectShop(s, A.token, { nickname: mxSeller, site: "MLM" })).ok).toBe(true);
  const cbt = nick("MAINCBT");
  const page = await connectShop(s, A.token, { nickname: cbt, site: "CBT", marketplaces: ["MLB", "MCO"] });
  expect(page.ok).toBe(true);
  cbtGroup = page.params.get("groupId")!;
  expect((await connectShop(s, sub.token, { nickname: nick("SUBBR"), site: "MLB" })).ok).toBe(true);
  const all = await list(A.token);
  shops.mx = all.items.find((a) => a.name === mxSeller).id;
  shops.cbtBl = all.items.find((a) => a.group === cbtGroup && a.site === 2).id;
  shops.cbtCo = all.items.find((a) => a.group === cbtGroup && a.site === 4).id;
  shops.subShop = all.items.find((a) => a.ownerId === sub.id).id;
  // B has a shop of its own, so "B sees none of A's" is not "B sees nothing".
  expect((await connectShop(s, B.token, { nickname: nick("BSHOP") })).ok).toBe(true);
});
afterAll(() => s?.close());

describe("GetAccounts", () => {
  it("lists the tenant's shops for the main account and only its own for a sub-account", async () => {
    expect((await list(A.token)).totalCount).toBe(4);
    const mine = await list(sub.token);
    expect(mine.items.map((a) => a.id)).toEqual([shops.subShop]);
    expect(mine.items[0]).toMatchObject({ ownerId: sub.id, ownerName: sub.userName, site: 2, currency: "BRL" });
    // A sub-account asking for another user's shops still sees only its own.
    expect((await list(sub.token, { UserId: A.userId })).totalCount).toBe(0);
  });

  it("filters by keyword, site, status and owner, sorts on the whitelist and pages", async () => {
    expect((await list(A.token, { KeyWord: mxSeller.slice(0, 8).toLowerCase() })).items.map((a) => a.id)).toEqual([shops.mx]);
    expect((await list(A.token, { Site: 4 })).items.map((a) => a.id)).toEqual([shops.cbtCo]);
    expect((await list(A.token, { UserId: sub.id })).items.map((a) => a.id)).toEqual([shops.subShop]);
    expect((await list(A.token, { Status: 2 })).totalCount).toBe(0);
    const bySite = await list(A.token, { Sorting: "site desc" });
    expect(bySite.items.map((a) => a.site)).toEqual([4, 2, 2, 1]);
    const page = await list(A.token, { Sorting: "site asc", SkipCount: 1, MaxResultCount: 2 });
    expect(page).toMatchObject({ totalCount: 4 });
    expect(page.items.map((a) => a.site)).toEqual([2, 2]);
    expect((await get(A.token, "GetAccounts", { Sorting: "access_token" })).status).toBe(400);
    expect((await get(A.token, "GetAccounts", { Site: 9 })).status).toBe(400);
  });
});

describe("single shops and groups", () => {
  it("GetMeliOne answers a visible shop and 404 for another user's", async () => {
    expect((await get(A.token, "GetMeliOne", { id: shops.subShop })).body.result.id).toBe(shops.subShop);
    expect((await get(sub.token, "GetMeliOne", { id: shops.subShop })).status).toBe(200);
    const hidden = await get(sub.token, "GetMeliOne", { id: shops.mx });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe("店铺不存在");
  });

  it("GetMeliAccGroup answers the groups with their shops and holders, and the cached shop accounts", async () => {
    const main = (await get(A.token, "GetMeliAccGroup")).body.result;
    expect(main.groups).toHaveLength(3);
    const cbt = main.groups.find((g: any) => g.groupId === cbtGroup);
    expect(cbt).toMatchObject({ isCbt: true, sites: [2, 4], status: 1, subUsers: [{ id: A.userId, name: "boss" }] });
    expect(cbt.accs.map((a: any) => a.id).sort()).toEqual([shops.cbtBl, shops.cbtCo].sort());
    expect(main.accs).toContainEqual({ groupId: cbtGroup, name: cbt.name, alias: null, brand: null });
    expect(main.subUsers.map((u: any) => u.id)).toEqual(expect.arrayContaining([A.userId, sub.id, other.id]));
    expect(main.moduleAuths).toEqual([]);
    const mine = (await get(sub.token, "GetMeliAccGroup")).body.result;
    expect(mine.groups).toHaveLength(1);
    expect(mine.subUsers).toEqual([{ id: sub.id, name: sub.userName }]);
  });

  it("the user cache carries the shops (accs, groups)", async () => {
    const cache = (await s.api("GET", "/api/User/GetUserInitCache", { token: A.token })).body.result;
    expect(cache.accs).toHaveLength(3);
    expect(cache.groups.find((g: any) => g.groupId === cbtGroup)).toEqual({
      groupId: cbtGroup,
      name: expect.any(String),
      alias: null,
      brand: null,
      sites: [2, 4],
    });
    const subCache = (await s.api("GET", "/api/User/GetUserInitCache", { token: sub.token })).body.result;
    expect(subCache.accs).toHaveLength(1);
    expect(subCache.subUsers).toEqual([{ id: sub.id, name: sub.userName }]);
  });

  it("GetMeliShopIds answers the sellers' ids of the caller's shops; GetAllSelfShop every visible shop", async () => {
    const ids = (await get(A.token, "GetMeliShopIds")).body.result;
    expect(ids).toHaveLength(4);
    expect(ids).toContain(String(s.deps.sandbox!.store.userByNickname(mxSeller)!.id));
    expect((await get(sub.token, "GetMeliShopIds")).body.result).toHaveLength(1);
    expect((await get(A.token, "GetAllSelfShop")).body.result).toHaveLength(4);
    expect((await get(sub.token, "GetAllSelfShop")).body.result.map((a: any) => a.id)).toEqual([shops.subShop]);
  });
});

describe("edits", () => {
  it("UpdateAccount sets the pricing rules given, keeps the rest, and clears with null", async () => {
    const info = {
      alias: "墨西哥一店",
      tinyPrice: 0.99,
      adjustRate: 1.35,
      limitMinPrice: 10,
      limitMaxPrice: 5000,
      brand: "Acme",
      sort: 3,
      overPrice: 25.5,
      minMargin: 12.5,
    };
    // A new shop sets no minimum margin (the default applies).
    expect((await get(A.token, "GetMeliOne", { id: shops.mx })).body.result.minMargin).toBeNull();
    const res = await post(A.token, "UpdateAccount", { id: shops.mx, info });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject(info);
    expect(res.body.result.lastModificationTime).not.toBeNull();
    const partial = await post(A.token, "UpdateAccount", { id: shops.mx, info: { brand: null, sort: 0 } });
    expect(partial.body.result).toMatchObject({ ...info, brand: null, sort: 0 });
    const bad = await post(A.token, "UpdateAccount", { id: shops.mx, info: { limitMaxPrice: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("店铺「墨西哥一店」的最低限价（10）不能高于最高限价（5）");
    const wrongs = [{ tinyPrice: 1 }, { adjustRate: 0 }, { limitMinPrice: -1 }, { alias: "x".repeat(65) }];
    for (const wrong of [...wrongs, { minMargin: 100 }, { minMargin: -1 }, { minMargin: 1.234 }]) {
      expect((await post(A.token, "UpdateAccount", { id: shops.mx, info: wrong })).status, JSON.stringify(wrong)).toBe(400);
    }
    // A sub-account edits its own shop, not another's.
    expect((await post(sub.token, "UpdateAccount", { id: shops.subShop, info: { alias: "我的" } })).status).toBe(200);
    expect((await post(sub.token, "UpdateAccount", { id: shops.mx, info: { alias: "偷改" } })).status).toBe(404);
  });

  it("BatchUpdateAccount and EnableAccount change the visible shops and count them", async () => {
    const batch = await post(A.token, "BatchUpdateAccount", { ids: [shops.cbtBl, shops.cbtCo], info: { adjustRate: 2 } });
    expect(batch.body.result).toEqual({ count: 2 });
    expect((await list(A.token, { Site: 4 })).items[0].adjustRate).toBe(2);
    expect((await post(sub.token, "BatchUpdateAccount", { ids: [shops.cbtBl, shops.subShop], info: { sort: 9 } })).body.result).toEqual({
      count: 1,
    });

    expect((await post(A.token, "EnableAccount", { ids: [shops.cbtBl, shops.cbtCo], enable: false })).body.result).toEqual({ count: 2 });
    expect((await post(A.token, "EnableAccount", { ids: [shops.cbtBl], enable: false })).body.result).toEqual({ count: 0 });
    expect((await list(A.token, { Status: 2 })).items.map((a) => a.status)).toEqual([2, 2]);
    expect((await post(A.token, "EnableAccount", { ids: [shops.cbtBl, shops.cbtCo], enable: true })).body.result).toEqual({ count: 2 });
  });

  it("EnableRecieveOrder switches order receiving of one shop (query Id, Enable)", async () => {
    const off = await s.api("POST", "/api/MeliAccount/EnableRecieveOrder", { token: A.token, query: { Id: shops.mx, Enable: "false" } });
    expect(off.status, off.raw).toBe(200);
    expect(off.body.result.isRecieveOrder).toBe(false);
    const on = await s.api("POST", "/api/MeliAccount/EnableRecieveOrder", { token: A.token, query: { id: shops.mx, enable: "true" } });
    expect(on.body.result.isRecieveOrder).toBe(true);
    expect(
      (await s.api("POST", "/api/MeliAccount/EnableRecieveOrder", { token: sub.token, query: { Id: shops.mx, Enable: "true" } })).status,
    ).toBe(404);
  });

  it("AssignAccount gives shops to a user of the tenant within that user's limit (main account only)", async () => {
    expect((await post(sub.token, "AssignAccount", { ids: [shops.mx], userId: sub.id })).status).toBe(403);
    const moved = await post(A.token, "AssignAccount", { ids: [shops.mx], userId: sub.id });
    expect(moved.body.result).toEqual({ count: 1 });
    expect((await list(sub.token)).items.map((a) => a.id).sort()).toEqual([shops.mx, shops.subShop].sort());
    // `other` may hold one shop.
    const over = await post(A.token, "AssignAccount", { ids: [shops.cbtBl, shops.cbtCo], userId: other.id });
    expect(over.status).toBe(403);
    expect(over.body.error.message).toBe(`用户「${other.userName}」的店铺数量将超过上限（1 个，分配后为 2 个），请先提高其店铺数上限`);
    expect((await list(other.token)).totalCount).toBe(0);
    expect((await post(A.token, "AssignAccount", { ids: [shops.cbtBl], userId: other.id })).body.result).toEqual({ count: 1 });
    expect((await post(A.token, "AssignAccount", { ids: [shops.mx, shops.cbtBl], userId: A.userId })).body.result).toEqual({ count: 2 });
    const unknown = await post(A.token, "AssignAccount", { ids: [shops.mx], userId: B.userId });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("用户不存在或已停用");
  });

  it("ClearSubAccountInfo gives a sub-account's shops back to the main account", async () => {
    const temp = await s.createSubUser(A, uniqueName("temp"));
    expect((await connectShop(s, temp.token, { nickname: nick("TEMP") })).ok).toBe(true);
    const res = await within(s.api("POST", "/api/User/ClearSubAccountInfo", { token: A.token, query: { id: temp.id } }), 15_000, "clear");
    expect(res.status, res.raw).toBe(200);
    expect(await settleTasks(s.database.db, [A.tenantId])).toBe(0);
    expect((await list(A.token, { UserId: temp.id })).totalCount).toBe(0);
    expect((await list(A.token)).items.filter((a) => a.name.startsWith("TEMP")).map((a) => a.ownerId)).toEqual([A.userId]);
  });
});

describe("another tenant", () => {
  it("answers 404 for A's shop ids, counts 0 on batch calls, and lists none of A's shops", async () => {
    for (const id of Object.values(shops)) {
      expect((await get(B.token, "GetMeliOne", { id })).status).toBe(404);
      expect((await post(B.token, "UpdateAccount", { id, info: { alias: "x", minMargin: 50 } })).status).toBe(404);
      expect(
        (await s.api("POST", "/api/MeliAccount/EnableRecieveOrder", { token: B.token, query: { Id: id, Enable: false } })).status,
      ).toBe(404);
    }
    const ids = Object.values(shops);
    expect((await post(B.token, "BatchUpdateAccount", { ids, info: { sort: 1 } })).body.result).toEqual({ count: 0 });
    expect((await post(B.token, "EnableAccount", { ids, enable: false })).body.result).toEqual({ count: 0 });
    expect((await post(B.token, "AssignAccount", { ids, userId: B.userId })).body.result).toEqual({ count: 0 });
    const bList = await list(B.token);
    expect(bList.totalCount).toBe(1);
    expect(bList.items.some((a) => ids.includes(a.id))).toBe(false);
    expect((await list(B.token, { UserId: A.userId })).totalCount).toBe(0);
    const groups = (await get(B.token, "GetMeliAccGroup")).body.result;
    expect(JSON.stringify(groups)).not.toContain(cbtGroup);
    expect(JSON.stringify((await get(B.token, "GetMeliShopIds")).body.result)).not.toContain(
      String(s.deps.sandbox!.store.userByNickname(mxSeller)!.id),
    );
    // A's shops did not change.
    expect((await list(A.token)).items.every((a) => a.status === 1)).toBe(true);
  });
});

describe("MeliCallback", () => {
  const seller = () => s.deps.sandbox!.store.userByNickname(mxSeller)!.id;

  it("answers before its job runs, and the job stores the notification for the seller's shop once per id", async () => {
    const body = {
      _id: uniqueName("n"),
      resource: "/orders/2000001234",
      user_id: seller(),
      topic: "orders_v2",
      application_id: Number(s.deps.config.meliClientId),
      attempts: 1,
      sent: new Date().toISOString(),
      received: new Date().toISOString(),
    };
    // The callback only queues: with the job held back, it answers and nothing is stored yet.
    const release = s.holdJobs(MELI_NOTIFICATION_JOB);
    const res = await s.api("POST", "/api/Meli/MeliCallback", { body });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ queued: true });
    expect((await s.api("POST", "/api/Meli/MeliCallback", { body: { ...body, attempts: 2 } })).status).toBe(200);
    const stored = async () =>
      rowsOf<{ topic: string; resource: string; account_id: string; n: number }>(
        await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
          tx.execute(
            sql`select topic, resource, account_id, count(*) over ()::int as n from meli_notifications where tenant_id = ${A.tenantId} and notification_id = ${body._id}`,
          ),
        ),
      );
    expect(await stored()).toEqual([]);
    // Released, the job stores it, once for both deliveries (one row per notification id).
    release();
    const deadline = Date.now() + 30_000;
    while (!(await stored()).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await stored()).toEqual([{ topic: "orders_v2", resource: "/orders/2000001234", account_id: shops.mx, n: 1 }]);
  });

  it("acknowledges another application's notification without queueing it, and refuses a malformed one", async () => {
    const res = await s.api("POST", "/api/Meli/MeliCallback", {
      body: { resource: "/items/MLM1", user_id: seller(), topic: "items", application_id: 42 },
    });
    expect(res.body.result).toEqual({ queued: false });
    expect((await s.api("POST", "/api/Meli/MeliCallback", { body: { topic: "items" } })).status).toBe(400);
  });
});
