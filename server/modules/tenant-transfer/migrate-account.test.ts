// Shop groups between tenants (GetTenantMeliAccountInfo, MigrateAccount, RemoveMeliAccount) through the real HTTP
// stack, with sellers connected through the sandbox: a group with its shops, listings, batch, call log, size chart
// and order moves with the products its listings came from; the source has none of it, the destination all of it,
// every reference there points at the destination's own rows, and the moved token pair still works.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordListings } from "../../testing/listing-kit.ts";
import { seedOrder } from "../../testing/money-kit.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { countOf, hostRows, runTask, seedLabels, seedProducts, pointersInto, uuidsIn } from "./transfer-kit.ts";

let s: TestServer;
let admin: string;
let src: TestTenant;
let dest: TestTenant;
let srcSub: { id: string; token: string };
/** Shop groups of the source: the one that moves, the one that stays; and their sellers' ids. */
let moving: string;
let staying: string;
let movingCust: string;
let stayingCust: string;
/** p1-p3 listed only on the moving group, p4 on both, p5 on none. */
let p: string[];
let labels: Record<string, string>;
let orderId: string;
const nickname = uniqueName("MIGA");

async function connect(t: TestTenant, name: string): Promise<{ groupId: string; custId: string }> {
  const page = await connectShop(s, t.token, { nickname: name, site: "MLM", sites: [1] });
  if (!page.ok) throw new Error(`connect ${name}: ${page.message}`);
  const custId = String(s.deps.sandbox!.store.userByNickname(name)!.id);
  const [g] = await hostRows<{ id: string }>(
    s,
    sql`select id::text from meli_account_groups where tenant_id = ${t.tenantId} and cust_id = ${custId}`,
  );
  return { groupId: g.id, custId };
}

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  src = await s.createTenant(uniqueName("msrc"));
  dest = await s.createTenant(uniqueName("mdst"));
  srcSub = await s.createSubUser(src);
  ({ groupId: moving, custId: movingCust } = await connect(src, nickname));
  ({ groupId: staying, custId: stayingCust } = await connect(src, uniqueName("STAY")));
  labels = await seedLabels(s, src, "活动", ["热卖", "新品"]);
  await seedLabels(s, dest, "旧分组", ["热卖"]);
  p = [
    ...(await seedProducts(s, src, srcSub.id, "hot", 2, [labels["热卖"]])),
    ...(await seedProducts(s, src, srcSub.id, "new", 1, [labels["新品"]])),
    ...(await seedProducts(s, src, src.userId, "both", 1)),
    ...(await seedProducts(s, src, src.userId, "none", 1)),
  ];
  const batchId = randomUUID();
  await hostRows(
    s,
    sql`insert into publish_batches (tenant_id, id, account_group_id, status, creator_id) values (${src.tenantId}, ${batchId}, ${moving}, 3, ${src.userId})`,
  );
  for (const [i, productId] of p.slice(0, 4).entries()) {
    const [listingId] = await recordListings(s, src, moving, [`MLM90${i}`], {
      productId,
      userId: srcSub.id,
      batchId,
      productLabelId: i < 2 ? labels["热卖"] : null,
    });
    if (i === 0)
      await hostRows(
        s,
        sql`insert into meli_call_logs (tenant_id, id, account_group_id, listing_id, batch_id, method, path, creator_id)
          values (${src.tenantId}, gen_random_uuid(), ${moving}, ${listingId}, ${batchId}, 'POST', '/items', ${src.userId})`,
      );
  }
  await recordListings(s, src, staying, ["MLM999"], { productId: p[3] });
  await hostRows(
    s,
    sql`insert into meli_size_charts (tenant_id, id, account_group_id, chart_id, site, domain_id, name, chart_type)
      values (${src.tenantId}, gen_random_uuid(), ${moving}, 'C1', 1, 'MLM-SHOES', '鞋码', 'BRAND')`,
  );
  orderId = (await seedOrder(s, src, nickname)).id;
  await hostRows(
    s,
    sql`update order_items set product_id = ${p[0]}::uuid where tenant_id = ${src.tenantId} and order_id = ${orderId}::uuid`,
  );
}, 180_000);
afterAll(() => s?.close());

describe("GetTenantMeliAccountInfo", () => {
  it("answers the tenant's shop groups with their shops, what would move with each, and its users", async () => {
    const res = await s.api("POST", "/api/Hosted/GetTenantMeliAccountInfo", { token: admin, body: { tenantId: src.tenantId } });
    expect(res.status, res.raw).toBe(200);
    const info = res.body.result;
    expect(info.tenantName).toBe(src.tenantName);
    expect(info.users.map((u: { id: string }) => u.id)).toEqual([src.userId, srcSub.id]);
    const g = info.groups.find((x: { groupId: string }) => x.groupId === moving);
    expect(g).toMatchObject({ custId: movingCust, listingCount: 4, productCount: 4, ownerId: src.userId, ownerName: "boss", sites: [1] });
    expect(g.accounts).toEqual([
      expect.objectContaining({ site: 1, siteCode: "MLM", custId: movingCust, ownerName: "boss", isEnabled: true }),
    ]);
    expect(info.groups.find((x: { groupId: string }) => x.groupId === staying)).toMatchObject({ listingCount: 1, productCount: 1 });
  });
});

describe("MigrateAccount", () => {
  it("refuses a seller the destination has already, changing nothing", async () => {
    await hostRows(
      s,
      sql`insert into meli_account_groups (tenant_id, id, owner_id, cust_id, site_code, name, access_token, refresh_token, token_expires_at)
        values (${dest.tenantId}, gen_random_uuid(), ${dest.userId}, ${stayingCust}, 'MLM', 'dup', 'x', 'x', now())`,
    );
    const res = await s.api("POST", "/api/Hosted/MigrateAccount", {
      token: admin,
      body: { srcTenantId: src.tenantId, destTenantId: dest.tenantId, groupIds: [staying] },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain("同一卖家只能属于一个公司");
    await hostRows(s, sql`delete from meli_account_groups where tenant_id = ${dest.tenantId} and cust_id = ${stayingCust}`);
    expect(await countOf(s, "meli_account_groups", src.tenantId)).toBe(2);
  });

  it("moves a shop group with its listings and products: the source has none of it, the destination all, ids consistent", async () => {
    const titles = await hostRows<{ id: string; title: string }>(
      s,
      sql`select id::text, title->>'zh' as title from products where tenant_id = ${src.tenantId}`,
    );
    const titleOf = Object.fromEntries(titles.map((t) => [t.id, t.title]));
    // Chosen by site, the staying seller protected.
    const { task } = await runTask(s, admin, "POST", "/api/Hosted/MigrateAccount", {
      body: { srcTenantId: src.tenantId, destTenantId: dest.tenantId, sites: [1], protectedCustIds: [stayingCust], isDeleteProduct: true },
    });
    expect(task.taskRemark).toContain("店铺组 1 个");
    expect(task.taskRemark).toContain("在线商品 4 个");

    // The source: none of the group; its products gone but the one the staying shop lists.
    const tied = sql`and account_group_id = ${moving}::uuid`;
    for (const table of ["listings", "publish_batches", "meli_call_logs", "meli_size_charts", "orders"])
      expect(await countOf(s, table, src.tenantId, tied), table).toBe(0);
    expect(await countOf(s, "meli_account_groups", src.tenantId, sql`and id = ${moving}::uuid`)).toBe(0);
    expect(await countOf(s, "meli_accounts", src.tenantId, sql`and group_id = ${moving}::uuid`)).toBe(0);
    expect(await countOf(s, "order_items", src.tenantId)).toBe(0);
    const left = await hostRows<{ id: string }>(s, sql`select id::text from products where tenant_id = ${src.tenantId} order by id`);
    expect(left.map((r) => r.id).sort()).toEqual([p[3], p[4]].sort());
    expect(await countOf(s, "listings", src.tenantId, sql`and account_group_id = ${staying}::uuid and product_id = ${p[3]}::uuid`)).toBe(1);

    // The destination: all of it, owned by its main account, pointing at its own rows.
    for (const table of ["listings", "publish_batches", "meli_call_logs", "meli_size_charts", "orders"])
      expect(await countOf(s, table, dest.tenantId, tied), table).toBe(table === "listings" ? 4 : 1);
    const [group] = await hostRows<{ owner: string }>(
      s,
      sql`select owner_id::text as owner from meli_account_groups where tenant_id = ${dest.tenantId} and id = ${moving}::uuid`,
    );
    expect(group.owner).toBe(dest.userId);
    const listed = await hostRows<{ user: string; title: string | null; label: string | null; batch: string }>(
      s,
      sql`select l.user_id::text as user, p.title->>'zh' as title, lb.name as label, l.batch_id::text as batch from listings l
        left join products p on p.tenant_id = l.tenant_id and p.id = l.product_id
        left join product_labels lb on lb.tenant_id = l.tenant_id and lb.id = l.product_label_id
        where l.tenant_id = ${dest.tenantId} order by l.item_id`,
    );
    expect(listed.map((l) => l.title)).toEqual(p.slice(0, 4).map((id) => titleOf[id]));
    expect(listed.map((l) => l.label)).toEqual(["热卖", "热卖", null, null]);
    expect(new Set(listed.map((l) => l.user))).toEqual(new Set([dest.userId]));
    const [destHot] = await hostRows<{ id: string; n: number }>(
      s,
      sql`select l.id::text, (select count(*)::int from products p where p.tenant_id = l.tenant_id and p.label_id = l.id) as n
        from product_labels l where l.tenant_id = ${dest.tenantId} and l.name = '热卖'`,
    );
    expect(destHot.n).toBe(2);
    const [line] = await hostRows<{ title: string }>(
      s,
      sql`select p.title->>'zh' as title from order_items i join products p on p.tenant_id = i.tenant_id and p.id = i.product_id
        where i.tenant_id = ${dest.tenantId} and i.order_id = ${orderId}::uuid`,
    );
    expect(line.title).toBe(titleOf[p[0]]);

    // Nothing in the destination names a source row, nor the source a moved one.
    expect(await pointersInto(s, src.tenantId, dest.tenantId)).toEqual([]);
    expect((await uuidsIn(s, src.tenantId)).has(moving)).toBe(false);

    // The destination works the shop: its list shows it and its listings, its token pair reads the seller.
    const shops = await s.api("GET", "/api/MeliAccount/GetAccounts", { token: dest.token });
    expect(shops.body.result.items.map((a: { custId: string }) => a.custId)).toEqual([movingCust]);
    const srcShops = await s.api("GET", "/api/MeliAccount/GetAccounts", { token: src.token });
    expect(srcShops.body.result.items.map((a: { custId: string }) => a.custId)).toEqual([stayingCust]);
    const page = await s.api("POST", "/api/MeliStat/GetMeliStatsByPage", { token: dest.token, body: {} });
    expect(page.body.result.totalCount).toBe(4);
    const me = await s.deps.meli.shop({ tenantId: dest.tenantId, groupId: moving }).send<{ id: number }>("GET", "/users/me");
    expect(String(me.id)).toBe(movingCust);
    await expect(s.deps.meli.shop({ tenantId: src.tenantId, groupId: moving }).send("GET", "/users/me")).rejects.toThrow();
  });

  it("without isMigrateStat moves the group alone: its listings leave the source, no product is copied", async () => {
    const third = await s.createTenant(uniqueName("mthr"));
    const { groupId, custId } = await connect(src, uniqueName("MIGC"));
    await recordListings(s, src, groupId, ["MLM777"], { productId: p[4] });
    await runTask(s, admin, "POST", "/api/Hosted/MigrateAccount", {
      body: {
        srcTenantId: src.tenantId,
        destTenantId: third.tenantId,
        accountGroupId: groupId,
        isMigrateStat: false,
        isDeleteProduct: true,
      },
    });
    expect(await countOf(s, "meli_account_groups", third.tenantId, sql`and cust_id = ${custId}`)).toBe(1);
    expect(await countOf(s, "listings", third.tenantId)).toBe(0);
    expect(await countOf(s, "products", third.tenantId)).toBe(0);
    expect(await countOf(s, "listings", src.tenantId, sql`and account_group_id = ${groupId}::uuid`)).toBe(0);
    expect(await countOf(s, "products", src.tenantId, sql`and id = ${p[4]}::uuid`)).toBe(1);
  });
});

describe("RemoveMeliAccount", () => {
  it("removes a shop group named by one of its shops, with its listings; products stay", async () => {
    const [account] = await hostRows<{ id: string }>(
      s,
      sql`select id::text from meli_accounts where tenant_id = ${src.tenantId} and group_id = ${staying}::uuid`,
    );
    const { task } = await runTask(s, admin, "POST", "/api/Hosted/RemoveMeliAccount", {
      body: { tenantId: src.tenantId, selfIds: [account.id] },
    });
    expect(task.taskRemark).toContain("店铺组 1 个");
    expect(await countOf(s, "meli_account_groups", src.tenantId)).toBe(0);
    expect(await countOf(s, "meli_accounts", src.tenantId)).toBe(0);
    expect(await countOf(s, "listings", src.tenantId)).toBe(0);
    expect(await countOf(s, "products", src.tenantId, sql`and id = ${p[3]}::uuid`)).toBe(1);
    const info = await s.api("POST", "/api/Hosted/GetTenantMeliAccountInfo", { token: admin, body: { tenantId: src.tenantId } });
    expect(info.body.result.groups).toEqual([]);
  });
});
