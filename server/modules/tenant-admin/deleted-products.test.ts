// ReturnDelProduct and RemoveAllDelProduct: the host restores what a seller deleted in a time range (only that, only
// that tenant, with the live counts the product limit reads), and purges a tenant's deleted products for good, each as
// a task with progress; one maintenance task per tenant at a time.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { adminWorld, countRows, host, hostCall, seedListings, seedProducts, seedShop, waitForTask } from "./test-kit.ts";

let s: TestServer;
let admin: string;
let a: TestTenant;
let b: TestTenant;
let aSub: { id: string; token: string };

beforeAll(async () => {
  ({ s, admin, a, b, aSub } = await adminWorld("r"));
});
afterAll(() => s?.close());

const H = "/api/Hosted";
const at = (iso: string) => new Date(iso);
const deletedIds = async (t: TestTenant) =>
  (
    await host(s, async (tx) =>
      rowsOf<{ id: string }>(await tx.execute(sql`select id from products where tenant_id = ${t.tenantId}::uuid and is_deleted`)),
    )
  ).map((r) => r.id);
const liveCount = async (t: TestTenant, userId: string) => {
  const [r] = await host(s, async (tx) =>
    rowsOf<{ n: number | null }>(
      await tx.execute(sql`select count as n from product_counts where tenant_id = ${t.tenantId}::uuid and user_id = ${userId}::uuid`),
    ),
  );
  return Number(r?.n ?? 0);
};

describe("ReturnDelProduct", () => {
  it("restores only the tenant's products deleted in the range, of one owner when asked, and their live counts follow", async () => {
    const inRange = await seedProducts(s, a, 3, { deletionTime: at("2026-02-10T08:00:00Z") });
    const subInRange = await seedProducts(s, a, 2, { userId: aSub.id, deletionTime: at("2026-02-10T09:00:00Z") });
    const before = await seedProducts(s, a, 2, { deletionTime: at("2026-02-09T23:59:59Z") });
    const atEnd = await seedProducts(s, a, 1, { deletionTime: at("2026-02-11T00:00:00Z") });
    const live = await seedProducts(s, a, 4);
    const otherTenant = await seedProducts(s, b, 3, { deletionTime: at("2026-02-10T08:00:00Z") });
    expect(await liveCount(a, a.userId)).toBe(4);

    // One owner first: the sub-account's two.
    const range = { tenantId: a.tenantId, startTime: "2026-02-10T00:00:00Z", endTime: "2026-02-11T00:00:00Z" };
    const own = await hostCall(s, admin, "PUT", `${H}/ReturnDelProduct`, { ...range, userId: aSub.id });
    expect(own.status, own.raw).toBe(200);
    expect(own.body.result.total).toBe(2);
    const ownTask = await waitForTask(s, admin, own.body.result.taskId);
    expect(ownTask).toMatchObject({
      taskStatus: TaskStatus.Succeeded,
      taskType: TaskType.Maintenance,
      progress: 100,
      taskRemark: "已恢复 2 个商品",
    });
    expect(ownTask.content).toContain(a.tenantName);
    expect(await liveCount(a, aSub.id)).toBe(2);

    const all = await hostCall(s, admin, "PUT", `${H}/ReturnDelProduct`, range);
    expect(all.body.result.total).toBe(3);
    expect((await waitForTask(s, admin, all.body.result.taskId)).taskRemark).toBe("已恢复 3 个商品");

    expect((await deletedIds(a)).sort()).toEqual([...before, ...atEnd].sort());
    expect((await deletedIds(b)).sort()).toEqual([...otherTenant].sort());
    expect(await liveCount(a, a.userId)).toBe(4 + 3);
    const restored = await host(s, async (tx) =>
      rowsOf<{ id: string; deleter: string | null; time: string | null }>(
        await tx.execute(sql`select id, deleter_id as deleter, deletion_time as time from products
          where tenant_id = ${a.tenantId}::uuid and id in (${sql.join(
            [...inRange, ...subInRange].map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`),
      ),
    );
    expect(restored).toHaveLength(5);
    expect(restored.every((r) => r.deleter === null && r.time === null)).toBe(true);
    void live;

    // The seller sees them again in the product list.
    const list = await s.api("POST", "/api/Product/GetProductsByPage", { token: a.token, body: { skipCount: 0, maxResultCount: 100 } });
    expect(list.status, list.raw).toBe(200);
    expect(list.body.result.totalCount).toBe(4 + 5);

    // Running it again restores nothing more.
    const again = await hostCall(s, admin, "PUT", `${H}/ReturnDelProduct`, range);
    expect(again.body.result.total).toBe(0);
    expect((await waitForTask(s, admin, again.body.result.taskId)).taskRemark).toBe("已恢复 0 个商品");
  });

  it("refuses a second maintenance task of the tenant while one is queued, and starts it once that one ended", async () => {
    const release = s.holdJobs("tenantAdmin.task");
    const range = { tenantId: b.tenantId, startTime: "2026-02-01T00:00:00Z", endTime: "2026-03-01T00:00:00Z" };
    const first = await hostCall(s, admin, "PUT", `${H}/ReturnDelProduct`, range);
    expect(first.status, first.raw).toBe(200);
    const second = await hostCall(s, admin, "DELETE", `${H}/RemoveAllDelProduct`, { tenantId: b.tenantId });
    expect(second.status, second.raw).toBe(409);
    expect(second.body.error.message).toContain("已有维护任务在进行中");
    // Another tenant's task is not held up by it.
    const other = await hostCall(s, admin, "DELETE", `${H}/RemoveAllDelProduct`, { tenantId: a.tenantId });
    expect(other.status, other.raw).toBe(200);
    release();
    expect((await waitForTask(s, admin, first.body.result.taskId)).taskRemark).toBe("已恢复 3 个商品");
    await waitForTask(s, admin, other.body.result.taskId);
    expect((await hostCall(s, admin, "DELETE", `${H}/RemoveAllDelProduct`, { tenantId: b.tenantId })).status).toBe(200);
  });
});

describe("RemoveAllDelProduct", () => {
  it("deletes the tenant's deleted products for good, with their backups and links, and nothing else", async () => {
    const c = await s.createTenant(uniqueName("rc"));
    const d = await s.createTenant(uniqueName("rd"));
    const gone = await seedProducts(s, c, 5, { deletionTime: at("2026-01-05T00:00:00Z") });
    const kept = await seedProducts(s, c, 2);
    const otherDeleted = await seedProducts(s, d, 2, { deletionTime: at("2026-01-05T00:00:00Z") });
    const shop = await seedShop(s, c);
    const [linkedGone] = await seedListings(s, c, shop, 1, {
      creationTime: at("2026-01-01T00:00:00Z"),
      published: true,
      productId: gone[0],
    });
    const [linkedKept] = await seedListings(s, c, shop, 1, {
      creationTime: at("2026-01-01T00:00:00Z"),
      published: true,
      productId: kept[0],
    });
    const editId = randomUUID();
    await host(s, async (tx) => {
      await tx.execute(sql`insert into product_edit_backups (tenant_id, edit_id, product_id, before) values
        (${c.tenantId}::uuid, ${editId}::uuid, ${gone[1]}::uuid, '{}'), (${c.tenantId}::uuid, ${editId}::uuid, ${kept[1]}::uuid, '{}')`);
    });
    const collectedBefore = await countRows(s, "tenant_product_days", c.tenantId);

    const res = await hostCall(s, admin, "DELETE", `${H}/RemoveAllDelProduct`, { tenantId: c.tenantId });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.total).toBe(5);
    const task = await waitForTask(s, admin, res.body.result.taskId);
    expect(task).toMatchObject({ taskStatus: TaskStatus.Succeeded, taskType: TaskType.PurgeDeletedProducts, progress: 100 });
    expect(task.taskRemark).toBe("已彻底删除 5 个已删除的商品");

    expect(await countRows(s, "products", c.tenantId)).toBe(2);
    expect(await deletedIds(d)).toEqual(expect.arrayContaining(otherDeleted));
    const links = await host(s, async (tx) =>
      rowsOf<{ id: string; productId: string | null }>(
        await tx.execute(sql`select id, product_id as "productId" from listings where tenant_id = ${c.tenantId}::uuid`),
      ),
    );
    expect(Object.fromEntries(links.map((l) => [l.id, l.productId]))).toEqual({ [linkedGone]: null, [linkedKept]: kept[0] });
    expect(await countRows(s, "product_edit_backups", c.tenantId)).toBe(1);
    // What was collected stays counted in the statistics.
    expect(await countRows(s, "tenant_product_days", c.tenantId)).toBe(collectedBefore);
  });
});
