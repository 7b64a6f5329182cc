// CopyProductsToTenant of 10,000 products with their labels, through the real HTTP stack and the job queue: the task's
// progress arrives live on the host's event stream, the copies carry the destination's labels of the same names and
// its owner, the source is untouched, nothing in the destination names a source id, and each tenant sees only its
// own. A second copy finds everything there; a move takes a user's products out of the source.
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db/client.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskStatus } from "#shared/contract/enums.ts";
import type { ProgressEvent } from "#shared/contract/events.ts";
import { openEventStream } from "../../testing/event-stream.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { countOf, hostRows, pointersInto, runTask, seedLabels, seedProducts, taskEnd } from "./transfer-kit.ts";

let s: TestServer;
let baseUrl: string;
let admin: string;
let src: TestTenant;
let dest: TestTenant;
let observer: TestTenant;
let seller: { id: string; token: string };
let sourceIds: string[];
const N = 10_000;
const SELLER_N = 2_000;

beforeAll(async () => {
  s = await startTestServer();
  await s.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
  admin = await s.adminToken();
  src = await s.createTenant(uniqueName("src"));
  dest = await s.createTenant(uniqueName("dst"));
  observer = await s.createTenant(uniqueName("obs"));
  seller = await s.createSubUser(src);
  const labels = await seedLabels(s, src, "类目", ["甲", "乙", "丙", "丁", "戊"]);
  await seedLabels(s, dest, "已有", ["丙"]);
  sourceIds = [
    ...(await seedProducts(s, src, src.userId, "main", N - SELLER_N, Object.values(labels))),
    ...(await seedProducts(s, src, seller.id, "seller", SELLER_N, [labels["甲"]])),
  ];
}, 120_000);
afterAll(() => s?.close());

/** Products per label name in a tenant (live ones; "" for none). */
async function byLabel(tenantId: string) {
  const rows = await hostRows<{ name: string; n: number }>(
    s,
    sql`select coalesce(l.name, '') as name, count(*)::int as n from products p
      left join product_labels l on l.tenant_id = p.tenant_id and l.id = p.label_id
      where p.tenant_id = ${tenantId}::uuid and not p.is_deleted group by 1 order by 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}

describe("CopyProductsToTenant", () => {
  it("copies 10,000 products with their labels as a task whose progress streams live", async () => {
    const stream = await openEventStream(baseUrl, admin);
    const destLabelBefore = await hostRows<{ id: string }>(
      s,
      sql`select id from product_labels where tenant_id = ${dest.tenantId} and name = '丙'`,
    );
    const { answer, task } = await runTask(s, admin, "GET", "/api/Hosted/CopyProductsToTenant", {
      query: { srcTenantId: src.tenantId, destTenantId: dest.tenantId },
    });
    expect(answer.total).toBe(N + 5);
    expect(task.progress).toBe(100);
    expect(task.taskRemark).toContain(`商品 ${N} 个`);
    expect(task.taskRemark).toContain("新增标签 4 个");

    // Live: the task's events arrive as its chunks commit, the last one its success.
    const done = await stream.waitFor(
      (f) =>
        f.event === "progress" &&
        (f.data as ProgressEvent).id === answer.taskId &&
        (f.data as ProgressEvent).status === TaskStatus.Succeeded,
    );
    const mine = stream.progress().filter((e) => e.id === answer.taskId);
    stream.close();
    expect((done.data as ProgressEvent).progress).toBe(100);
    expect(mine.some((e) => e.status === TaskStatus.Running && e.progress! > 0 && e.progress! < 100)).toBe(true);
    expect(mine.map((e) => e.progress!)).toEqual([...mine.map((e) => e.progress!)].sort((x, y) => x - y));

    // Every copy: the destination's owner, the destination's label of the same name (丙: the one it had).
    expect(await byLabel(dest.tenantId)).toEqual(await byLabel(src.tenantId));
    const owners = await hostRows<{ owner: string; n: number }>(
      s,
      sql`select user_id::text as owner, count(*)::int as n from products where tenant_id = ${dest.tenantId} group by 1`,
    );
    expect(owners).toEqual([{ owner: dest.userId, n: N }]);
    const bing = await hostRows<{ id: string }>(s, sql`select id from product_labels where tenant_id = ${dest.tenantId} and name = '丙'`);
    expect(bing).toEqual(destLabelBefore);
    const list = await s.api("POST", "/api/Product/GetProductsByPage", { token: dest.token, body: { maxResultCount: 1 } });
    expect(list.body.result.totalCount).toBe(N);

    // The source as it was; nothing in the destination names a source id.
    expect(await countOf(s, "products", src.tenantId)).toBe(N);
    expect(await pointersInto(s, src.tenantId, dest.tenantId)).toEqual([]);
  });

  it("keeps each tenant to its own: no one reads another's products, by list or by id", async () => {
    const [copy] = await hostRows<{ id: string }>(s, sql`select id::text from products where tenant_id = ${dest.tenantId} limit 1`);
    for (const [token, id] of [
      [dest.token, sourceIds[0]],
      [src.token, copy.id],
      [observer.token, copy.id],
      [observer.token, sourceIds[0]],
      [seller.token, copy.id],
    ] as const) {
      const res = await s.api("GET", "/api/Product/GetProductById", { token, query: { id } });
      expect(res.status).toBe(404);
    }
    const seen = await s.api("POST", "/api/Product/GetProductsByPage", { token: observer.token, body: { maxResultCount: 10 } });
    expect(seen.body.result.totalCount).toBe(0);
    const forged = await s.api("POST", "/api/Product/GetProductsByPage", { token: dest.token, tenant: src.tenantId, body: {} });
    expect(forged.status).toBe(403);
  });

  it("copies nothing twice: a second copy finds every product there", async () => {
    const { task } = await runTask(s, admin, "GET", "/api/Hosted/CopyProductsToTenant", {
      query: { srcTenantId: src.tenantId, destTenantId: dest.tenantId },
    });
    expect(task.taskRemark).toContain(`已存在而跳过的商品 ${N} 个`);
    expect(await countOf(s, "products", dest.tenantId)).toBe(N);
  });

  it("goes on after the last chunk it committed when a chunk fails: nothing copied twice, nothing missed", async () => {
    const again = await s.createTenant(uniqueName("rsm"));
    // The second chunk into this tenant fails until the trigger goes (counted by a sequence, which no rollback undoes).
    const db = s.database.db;
    await db.execute(sql.raw(`create sequence erp_test_copy_failures`));
    await db.execute(
      sql.raw(`create function erp_test_fail_copy() returns trigger language plpgsql security definer as $$
      begin
        if (select count(*) from products where tenant_id = '${again.tenantId}') > 5000 then
          perform nextval('erp_test_copy_failures');
          raise exception 'the test stops this chunk';
        end if;
        return null;
      end $$`),
    );
    await db.execute(
      sql.raw(`create trigger erp_test_fail_copy after insert on products for each statement execute function erp_test_fail_copy()`),
    );
    try {
      const res = await s.api("GET", "/api/Hosted/CopyProductsToTenant", {
        token: admin,
        query: { srcTenantId: src.tenantId, destTenantId: again.tenantId },
        headers: { "idempotency-key": uniqueName("k") },
      });
      expect(res.status, res.raw).toBe(200);
      for (let i = 0; ; i++) {
        const [f] = rowsOf<{ n: number }>(
          await db.execute(sql.raw(`select case when is_called then last_value else 0 end::int as n from erp_test_copy_failures`)),
        );
        if (f.n > 0) break;
        if (i > 1200) throw new Error("the second chunk never ran");
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await countOf(s, "products", again.tenantId)).toBe(5000);
    } finally {
      await db.execute(sql.raw(`drop trigger erp_test_fail_copy on products`));
      await db.execute(sql.raw(`drop function erp_test_fail_copy()`));
      await db.execute(sql.raw(`drop sequence erp_test_copy_failures`));
    }
    const [task] = await hostRows<{ id: string }>(s, sql`select id::text from task_infos where content like ${`%${again.tenantName}%`}`);
    const ended = await taskEnd(s, admin, task.id);
    expect(ended.taskStatus).toBe(TaskStatus.Succeeded);
    // Had the first chunk run again, its 5,000 would read "skipped".
    expect(ended.taskRemark).toContain(`商品 ${N} 个`);
    expect(ended.taskRemark).not.toContain("跳过");
    expect(await countOf(s, "products", again.tenantId)).toBe(N);
  });

  it("moves a user's products to a destination user with isDeleteSrc; the source's listings of them lose the link", async () => {
    const third = await s.createTenant(uniqueName("thr"));
    const thirdSeller = await s.createSubUser(third);
    const [listed] = await hostRows<{ id: string }>(
      s,
      sql`select id::text from products where tenant_id = ${src.tenantId} and user_id = ${seller.id} limit 1`,
    );
    await hostRows(
      s,
      sql`insert into listings (tenant_id, id, account_group_id, account_id, user_id, product_id, site, status)
        values (${src.tenantId}, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), ${seller.id}, ${listed.id}, 1, 4)`,
    );
    await runTask(s, admin, "GET", "/api/Hosted/CopyProductsToTenant", {
      query: {
        srcTenantId: src.tenantId,
        destTenantId: third.tenantId,
        srcUserId: seller.id,
        destUserId: thirdSeller.id,
        isDeleteSrc: true,
      },
    });
    expect(await countOf(s, "products", src.tenantId)).toBe(N - SELLER_N);
    expect(await countOf(s, "products", src.tenantId, sql`and user_id = ${seller.id}::uuid`)).toBe(0);
    expect(await countOf(s, "products", third.tenantId, sql`and user_id = ${thirdSeller.id}::uuid`)).toBe(SELLER_N);
    expect(await byLabel(third.tenantId)).toEqual({ 甲: SELLER_N });
    expect(await countOf(s, "listings", src.tenantId, sql`and product_id is null`)).toBe(1);
    // The owners' counters follow (the list's total reads them).
    const sellerList = await s.api("POST", "/api/Product/GetProductsByPage", { token: thirdSeller.token, body: { maxResultCount: 1 } });
    expect(sellerList.body.result.totalCount).toBe(SELLER_N);
  });
});
