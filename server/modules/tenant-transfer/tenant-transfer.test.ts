// Moving and copying between tenants through the real HTTP stack: who may call, bad input (answered with the error
// envelope, nothing written, no task), and what each copy call does. The shop groups' migration and the 10,000-product
// copy have files of their own (migrate-account.test.ts, copy-products.test.ts).
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectedItem } from "../../testing/product-kit.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import {
  countOf,
  hostRows,
  hostTaskCount,
  MISSING_GUID,
  runTask,
  seedLabels,
  seedProducts,
  pointersInto,
  uuidsIn,
} from "./transfer-kit.ts";

let s: TestServer;
let admin: string;
let a: TestTenant;
let b: TestTenant;
let aSub: { id: string; token: string };
let bSub: { id: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  a = await s.createTenant(uniqueName("xa"));
  b = await s.createTenant(uniqueName("xb"));
  aSub = await s.createSubUser(a);
  bSub = await s.createSubUser(b);
});
afterAll(() => s?.close());

const pair = () => ({ srcTenantId: a.tenantId, destTenantId: b.tenantId });

/** Every call of the area, with an input it would accept. */
const calls = (): [string, string, { query?: Record<string, any>; body?: unknown }][] => [
  ["POST", "/api/Hosted/GetTenantMeliAccountInfo", { body: { tenantId: a.tenantId } }],
  ["POST", "/api/Hosted/MigrateAccount", { body: { ...pair(), sites: [1] } }],
  ["POST", "/api/Hosted/RemoveMeliAccount", { body: { tenantId: a.tenantId, sites: [1] } }],
  ["GET", "/api/Hosted/CopyProductsToTenant", { query: pair() }],
  ["GET", "/api/Hosted/CopyCollectsToTenant", { query: pair() }],
  ["GET", "/api/Hosted/CopyGroupsToTenant", { query: pair() }],
  ["PUT", "/api/Hosted/MigrateWord", { query: pair() }],
  ["POST", "/api/Product/MigrateToProduct", { body: { ...pair(), productIds: [MISSING_GUID] } }],
  ["POST", "/api/Product/MigrateFromProduct", { query: { SrcTenantId: a.tenantId, TenantIds: [b.tenantId], ProductIds: [MISSING_GUID] } }],
];

describe("access", () => {
  it("refuses every call to a tenant's main account and sub-account (403) and without a token (401), writing nothing", async () => {
    const tasks = await hostTaskCount(s);
    for (const [method, url, o] of calls()) {
      for (const token of [a.token, b.token, aSub.token]) {
        const res = await s.api(method, url, { token, ...o, headers: { "idempotency-key": randomUUID() } });
        expect(res.status, `${method} ${url}`).toBe(403);
        expect(res.body.error.message).toBe("仅平台管理员可以执行此操作");
        expect(res.headers["_abperrorformat"]).toBe("true");
      }
      expect((await s.api(method, url, o)).status, `${method} ${url}`).toBe(401);
    }
    expect(await hostTaskCount(s)).toBe(tasks);
  });
});

describe("bad input", () => {
  const refusals: [string, () => [string, string, { query?: any; body?: unknown }], number, string][] = [
    [
      "the same tenant twice",
      () => ["GET", "/api/Hosted/CopyProductsToTenant", { query: { srcTenantId: a.tenantId, destTenantId: a.tenantId } }],
      400,
      "不能相同",
    ],
    [
      "an unknown source",
      () => ["GET", "/api/Hosted/CopyCollectsToTenant", { query: { srcTenantId: MISSING_GUID, destTenantId: b.tenantId } }],
      404,
      "公司未找到",
    ],
    [
      "an unknown destination",
      () => ["GET", "/api/Hosted/CopyGroupsToTenant", { query: { srcTenantId: a.tenantId, destTenantId: MISSING_GUID } }],
      404,
      "公司未找到",
    ],
    [
      "the host's own tenant",
      () => [
        "PUT",
        "/api/Hosted/MigrateWord",
        { query: { srcTenantId: a.tenantId, destTenantId: "00000000-0000-0000-0000-000000000000" } },
      ],
      404,
      "公司未找到",
    ],
    [
      "a source user of another tenant",
      () => ["GET", "/api/Hosted/CopyProductsToTenant", { query: { ...pair(), srcUserId: bSub.id } }],
      400,
      "源用户不属于源公司",
    ],
    [
      "a destination user of another tenant",
      () => ["GET", "/api/Hosted/CopyProductsToTenant", { query: { ...pair(), destUserId: aSub.id } }],
      400,
      "目标用户不属于目标公司",
    ],
    [
      "products not of the source",
      () => ["POST", "/api/Product/MigrateToProduct", { body: { ...pair(), productIds: [MISSING_GUID] } }],
      400,
      "不属于源公司",
    ],
    [
      "the source among the destinations",
      () => [
        "POST",
        "/api/Product/MigrateFromProduct",
        { query: { SrcTenantId: a.tenantId, TenantIds: [b.tenantId, a.tenantId], ProductIds: [MISSING_GUID] } },
      ],
      400,
      "不能相同",
    ],
    [
      "a shop group of another tenant",
      () => ["POST", "/api/Hosted/MigrateAccount", { body: { ...pair(), groupIds: [MISSING_GUID] } }],
      400,
      "店铺组不属于该公司",
    ],
    ["no shop chosen", () => ["POST", "/api/Hosted/RemoveMeliAccount", { body: { tenantId: a.tenantId } }], 400, "请选择"],
    ["a site with no shop", () => ["POST", "/api/Hosted/MigrateAccount", { body: { ...pair(), sites: [3] } }], 400, "没有符合条件的店铺组"],
    [
      "a GUID that is not one",
      () => ["GET", "/api/Hosted/CopyProductsToTenant", { query: { srcTenantId: "nope", destTenantId: b.tenantId } }],
      400,
      "",
    ],
    [
      "no products named",
      () => ["POST", "/api/Product/MigrateFromProduct", { query: { SrcTenantId: a.tenantId, TenantIds: [b.tenantId] } }],
      400,
      "",
    ],
  ];

  it.each(refusals)("refuses %s with the error envelope, and starts nothing", async (_, request, status, message) => {
    const [method, url, o] = request();
    const tasks = await hostTaskCount(s);
    const before = await uuidsIn(s, b.tenantId);
    const res = await s.api(method, url, { token: admin, ...o, headers: { "idempotency-key": randomUUID() } });
    expect(res.status, res.raw).toBe(status);
    expect(res.headers["_abperrorformat"]).toBe("true");
    expect(res.body.error.message + (res.body.error.details ?? "")).toContain(message);
    expect(await hostTaskCount(s)).toBe(tasks);
    expect(await uuidsIn(s, b.tenantId)).toEqual(before);
  });
});

describe("MigrateWord", () => {
  it("adds the source's words to the destination's, a word it has already once, and running again adds nothing", async () => {
    const src = await s.createTenant(uniqueName("wa"));
    const dest = await s.createTenant(uniqueName("wb"));
    const add = (t: TestTenant, words: string[]) =>
      s.api("POST", "/api/InfringementWord/CreateIfringementWord", { token: t.token, body: { words } });
    expect((await add(src, ["Nike", "迪士尼", "Pokemon"])).status).toBe(200);
    expect((await add(dest, ["nike"])).status).toBe(200);
    const q = { srcTenantId: src.tenantId, destTenantId: dest.tenantId };
    const first = await s.api("PUT", "/api/Hosted/MigrateWord", { token: admin, query: q });
    expect(first.status, first.raw).toBe(200);
    expect(first.body.result).toEqual({ count: 2, skipped: 1 });
    const again = await s.api("PUT", "/api/Hosted/MigrateWord", { token: admin, query: q });
    expect(again.body.result).toEqual({ count: 0, skipped: 3 });
    const list = await s.api("GET", "/api/InfringementWord/GetInfringementWord", { token: dest.token, query: { MaxResultCount: 50 } });
    expect(list.body.result.items.map((w: { word: string }) => w.word.toLowerCase()).sort()).toEqual(["nike", "pokemon", "迪士尼"]);
    // The source keeps its words; none of the copies names a source id.
    expect(await countOf(s, "infringement_words", src.tenantId)).toBe(3);
    expect(await pointersInto(s, src.tenantId, dest.tenantId)).toEqual([]);
  });
});

describe("CopyGroupsToTenant", () => {
  it("copies label groups and labels merged by name, owned by the destination user; a user's copy takes only its products' labels", async () => {
    const src = await s.createTenant(uniqueName("ga"));
    const dest = await s.createTenant(uniqueName("gb"));
    const destSub = await s.createSubUser(dest);
    const srcSub = await s.createSubUser(src);
    const labels = await seedLabels(s, src, "季节", ["春", "夏", "秋"]);
    await seedLabels(s, dest, "季节", ["夏"]);
    await seedProducts(s, src, srcSub.id, "sub", 3, [labels["秋"]]);

    const { task, answer } = await runTask(s, admin, "GET", "/api/Hosted/CopyGroupsToTenant", {
      query: { srcTenantId: src.tenantId, destTenantId: dest.tenantId, destUserId: destSub.id },
    });
    expect(answer.total).toBe(3);
    expect(task.taskRemark).toContain("新增标签 2 个");
    const got = await s.api("GET", "/api/ProductLabel/GetProductLabels", { token: dest.token });
    expect(got.status, got.raw).toBe(200);
    const destLabels = await hostRows<{ name: string; group: string; creator: string }>(
      s,
      sql`select l.name, g.name as group, l.creator_id::text as creator from product_labels l
        join product_label_groups g on g.tenant_id = l.tenant_id and g.id = l.group_id where l.tenant_id = ${dest.tenantId} order by l.sort, l.name`,
    );
    expect(destLabels.map((l) => `${l.group}/${l.name}`).sort()).toEqual(["季节/夏", "季节/春", "季节/秋"]);
    expect(destLabels.filter((l) => l.name !== "夏").every((l) => l.creator === destSub.id)).toBe(true);

    const other = await s.createTenant(uniqueName("gc"));
    await runTask(s, admin, "GET", "/api/Hosted/CopyGroupsToTenant", {
      query: { srcTenantId: src.tenantId, destTenantId: other.tenantId, srcUserId: srcSub.id },
    });
    const otherLabels = await hostRows<{ name: string }>(s, sql`select name from product_labels where tenant_id = ${other.tenantId}`);
    expect(otherLabels.map((l) => l.name)).toEqual(["秋"]);
    for (const t of [dest, other]) expect(await pointersInto(s, src.tenantId, t.tenantId)).toEqual([]);
  });
});

describe("CopyCollectsToTenant", () => {
  it("copies a user's collections to the destination user with their labels, skips what it has, and moves with isDeleteSrc", async () => {
    const src = await s.createTenant(uniqueName("ca"));
    const dest = await s.createTenant(uniqueName("cb"));
    const seller = await s.createSubUser(src);
    for (const [token, item] of [
      [seller.token, "501"],
      [seller.token, "502"],
      [src.token, "503"],
      [dest.token, "502"],
    ] as const) {
      const res = await s.api("POST", "/api/Collect/CrawlProductByPlugin", { token, body: collectedItem(item, `采集 ${item}`) });
      expect(res.status, res.raw).toBe(200);
    }
    const labels = await seedLabels(s, src, "来源", ["爆款"]);
    await hostRows(s, sql`update collections set label_id = ${labels["爆款"]}::uuid where tenant_id = ${src.tenantId}::uuid`);

    const q = { srcTenantId: src.tenantId, destTenantId: dest.tenantId, srcUserId: seller.id, destUserId: dest.userId };
    const { task } = await runTask(s, admin, "GET", "/api/Hosted/CopyCollectsToTenant", { query: q });
    expect(task.taskRemark).toContain("采集商品 1 个");
    expect(task.taskRemark).toContain("已存在而跳过的采集商品 1 个");
    const rows = await hostRows<{ item: string; label: string | null; owner: string }>(
      s,
      sql`select c.item_id as item, l.name as label, c.user_id::text as owner from collections c
        left join product_labels l on l.tenant_id = c.tenant_id and l.id = c.label_id where c.tenant_id = ${dest.tenantId} order by c.item_id`,
    );
    expect(rows).toEqual([
      { item: "501", label: "爆款", owner: dest.userId },
      { item: "502", label: null, owner: dest.userId },
    ]);
    const list = await s.api("POST", "/api/Collect/GetCollect", { token: dest.token, body: { maxResultCount: 10 } });
    expect(list.body.result.totalCount).toBe(2);

    await runTask(s, admin, "GET", "/api/Hosted/CopyCollectsToTenant", { query: { ...q, isDeleteSrc: true } });
    expect(await countOf(s, "collections", src.tenantId)).toBe(1);
    expect(await countOf(s, "collections", dest.tenantId)).toBe(2);
    expect(await pointersInto(s, src.tenantId, dest.tenantId)).toEqual([]);
  });
});

describe("MigrateToProduct and MigrateFromProduct", () => {
  it("copies chosen products to one tenant, or to several, each owned by its main account", async () => {
    const src = await s.createTenant(uniqueName("pa"));
    const d1 = await s.createTenant(uniqueName("pb"));
    const d2 = await s.createTenant(uniqueName("pc"));
    const labels = await seedLabels(s, src, "分组", ["精选"]);
    const ids = await seedProducts(s, src, src.userId, "chosen", 5, [labels["精选"]]);

    const to = await runTask(s, admin, "POST", "/api/Product/MigrateToProduct", {
      body: { srcTenantId: src.tenantId, destTenantId: d1.tenantId, productIds: ids.slice(0, 2) },
    });
    expect(to.answer.total).toBe(3); // two products and the label they carry
    expect(await countOf(s, "products", d1.tenantId)).toBe(2);

    const from = await runTask(s, admin, "POST", "/api/Product/MigrateFromProduct", {
      query: { SrcTenantId: src.tenantId, TenantIds: [d1.tenantId, d2.tenantId], ProductIds: ids.slice(1, 4) },
    });
    expect(from.task.taskRemark).toContain("商品 5 个"); // two new to the first (one it had), three to the second
    expect(from.task.taskRemark).toContain("已存在而跳过的商品 1 个");
    for (const [t, n] of [
      [d1, 4],
      [d2, 3],
    ] as const) {
      const list = await s.api("POST", "/api/Product/GetProductsByPage", { token: t.token, body: { maxResultCount: 10 } });
      expect(list.body.result.totalCount).toBe(n);
      expect(
        list.body.result.items.every((p: { labelName: string; userId: string }) => p.labelName === "精选" && p.userId === t.userId),
      ).toBe(true);
    }
    expect(await countOf(s, "products", src.tenantId)).toBe(5);

    // isDeleteSrc moves them: the source has them no more.
    await runTask(s, admin, "POST", "/api/Product/MigrateToProduct", {
      body: { srcTenantId: src.tenantId, destTenantId: d2.tenantId, productIds: [ids[4]], isDeleteSrc: true },
    });
    expect(await countOf(s, "products", src.tenantId)).toBe(4);
    expect(await countOf(s, "products", d2.tenantId)).toBe(4);
  });

  it("answers the first task again for a retried request with the same Idempotency-Key", async () => {
    const src = await s.createTenant(uniqueName("ia"));
    const ids = await seedProducts(s, src, src.userId, "once", 2);
    const key = randomUUID();
    const body = { srcTenantId: src.tenantId, destTenantId: b.tenantId, productIds: ids };
    const first = await s.api("POST", "/api/Product/MigrateToProduct", { token: admin, body, headers: { "idempotency-key": key } });
    const second = await s.api("POST", "/api/Product/MigrateToProduct", { token: admin, body, headers: { "idempotency-key": key } });
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.body.result.taskId).toBe(first.body.result.taskId);
  });
});
