// The host's maintenance calls through the real HTTP stack: who may call them, bad input (the error envelope, nothing
// changed), the caches and the shared rate state, the index and counter check, and the marketplace call log.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import { uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { envelopeProblem } from "../../testing/security-kit.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import { adminWorld, countRows, host, hostCall, MISSING_GUID, seedCallLogs, seedProducts, seedShop, waitForTask } from "./test-kit.ts";

let s: TestServer;
let admin: string;
let a: TestTenant;
let b: TestTenant;
let aSub: { id: string; token: string };

beforeAll(async () => {
  ({ s, admin, a, b, aSub } = await adminWorld("t"));
});
afterAll(() => s?.close());

const H = "/api/Hosted";
const calls: [string, string, Record<string, string>?, unknown?][] = [
  ["PUT", `${H}/ReturnDelProduct`, { tenantId: MISSING_GUID, startTime: "2026-01-01", endTime: "2026-01-02" }],
  ["DELETE", `${H}/RemoveAllDelProduct`, { tenantId: MISSING_GUID }],
  ["DELETE", `${H}/ClearMeliStat`, { TenantId: MISSING_GUID }],
  ["DELETE", `${H}/ClearTenantInfo`, { tenantId: MISSING_GUID, confirmTenantName: "x" }],
  ["POST", `${H}/RemoveTenantCache`, { CacheKey: "DownHosts" }],
  ["GET", `${H}/RemoveDist`],
  ["PUT", `${H}/CreateTenantMongoIndex`],
  ["POST", `${H}/GetStatLogStatics`, undefined, {}],
  ["GET", `${H}/GetTenantStatisticsInfo`],
];

describe("access", () => {
  it.each(calls)("%s %s: 403 for a tenant's main account and a sub-account, 401 without a token", async (method, url, query, body) => {
    for (const token of [a.token, aSub.token]) {
      const res = await s.api(method, url, { token, query, body, headers: { "idempotency-key": randomUUID() } });
      expect(res.status, res.raw).toBe(403);
      expect(res.body.error.message).toBe("仅平台管理员可以执行此操作");
      expect(envelopeProblem(res)).toBeNull();
    }
    expect((await s.api(method, url, { query, body })).status).toBe(401);
  });
});

function expectRefused(res: { status: number; body: any; headers: Record<string, unknown> }, status: number, text?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(envelopeProblem(res as never)).toBeNull();
  if (text) expect(`${res.body.error.message} ${res.body.error.details ?? ""}`).toContain(text);
}

describe("bad input: the error envelope, no task and nothing changed", () => {
  it("refuses missing, malformed and reversed parameters, an unknown tenant or user, and the host itself", async () => {
    await seedProducts(s, a, 2, { deletionTime: new Date("2026-01-01T10:00:00Z") });
    const before = await countRows(s, "task_infos", HOST_TENANT_ID);
    const cases: [string, string, Record<string, string>, number, string?][] = [
      ["PUT", "ReturnDelProduct", { tenantId: a.tenantId, startTime: "2026-01-01" }, 400, "endTime"],
      ["PUT", "ReturnDelProduct", { tenantId: "nope", startTime: "2026-01-01", endTime: "2026-01-02" }, 400, "tenantId"],
      [
        "PUT",
        "ReturnDelProduct",
        { tenantId: a.tenantId, startTime: "2026-01-02", endTime: "2026-01-01" },
        400,
        "结束时间必须晚于开始时间",
      ],
      ["PUT", "ReturnDelProduct", { tenantId: a.tenantId, startTime: "2026-02-31", endTime: "2026-03-01" }, 400, "startTime"],
      ["PUT", "ReturnDelProduct", { tenantId: MISSING_GUID, startTime: "2026-01-01", endTime: "2026-01-02" }, 404, "公司未找到"],
      [
        "PUT",
        "ReturnDelProduct",
        { tenantId: a.tenantId, userId: b.userId, startTime: "2026-01-01", endTime: "2026-01-02" },
        404,
        "用户不存在",
      ],
      ["PUT", "ReturnDelProduct", { tenantId: HOST_TENANT_ID, startTime: "2026-01-01", endTime: "2026-01-02" }, 400],
      ["DELETE", "RemoveAllDelProduct", {}, 400, "tenantId"],
      ["DELETE", "RemoveAllDelProduct", { tenantId: MISSING_GUID }, 404],
      ["DELETE", "ClearMeliStat", { TenantId: a.tenantId, BeforeTime: "yesterday" }, 400, "BeforeTime"],
      ["DELETE", "ClearTenantInfo", { tenantId: a.tenantId }, 400, "confirmTenantName"],
      ["DELETE", "ClearTenantInfo", { tenantId: a.tenantId, confirmTenantName: b.tenantName }, 400, "公司名称"],
      ["DELETE", "ClearTenantInfo", { tenantId: a.tenantId, confirmTenantName: a.tenantName.toUpperCase() }, 400],
      ["DELETE", "ClearTenantInfo", { tenantId: HOST_TENANT_ID, confirmTenantName: "admin" }, 400],
      ["POST", "RemoveTenantCache", {}, 400, "CacheKey"],
      ["POST", "RemoveTenantCache", { CacheKey: "Everything" }, 400, "CacheKey"],
      ["POST", "RemoveTenantCache", { CacheKey: "ShopToken" }, 400, "TenantId"],
      ["POST", "RemoveTenantCache", { CacheKey: "ListingFees", AccountGroupId: MISSING_GUID }, 400, "AccountGroupId"],
      ["POST", "RemoveTenantCache", { TenantId: a.tenantId, AccountGroupId: MISSING_GUID }, 404, "店铺分组不存在"],
      ["PUT", "CreateTenantMongoIndex", { TenantId: MISSING_GUID }, 404],
      ["GET", "GetTenantStatisticsInfo", { StartDate: "2026-02-01", EndDate: "2026-01-01" }, 400, "结束日期不能早于开始日期"],
      ["GET", "GetTenantStatisticsInfo", { StartDate: "2024-01-01", EndDate: "2026-01-01" }, 400, "366"],
      ["GET", "GetTenantStatisticsInfo", { TenantId: MISSING_GUID }, 404],
      ["GET", "GetTenantStatisticsInfo", { Sorting: "drop table" }, 400, "Sorting"],
      ["GET", "GetTenantStatisticsInfo", { MaxResultCount: "0" }, 400, "MaxResultCount"],
    ];
    for (const [method, name, query, status, text] of cases) {
      const res = await hostCall(s, admin, method, `${H}/${name}`, query);
      expectRefused(res, status, text);
    }
    for (const body of [{ status: 3 }, { startTime: "2026-01-02", endTime: "2026-01-01" }, { tenantId: 5 }, []]) {
      expectRefused(await s.api("POST", `${H}/GetStatLogStatics`, { token: admin, body }), 400);
    }
    expect(await countRows(s, "task_infos", HOST_TENANT_ID)).toBe(before);
    expect(await countRows(s, "products", a.tenantId, sql`is_deleted`)).toBe(2);
  });
});

describe("RemoveTenantCache", () => {
  it("expires the tenant's shop tokens (one group's with AccountGroupId), leaving the other tenant's", async () => {
    const one = await seedShop(s, a);
    const two = await seedShop(s, a);
    const other = await seedShop(s, b);
    const expired = async (groupId: string) => {
      const [r] = await host(s, async (tx) =>
        rowsOf<{ stale: boolean }>(
          await tx.execute(sql`select token_expires_at <= now() as stale from meli_account_groups where id = ${groupId}::uuid`),
        ),
      );
      return r.stale;
    };
    let res = await s.api("POST", `${H}/RemoveTenantCache`, {
      token: admin,
      query: { CacheKey: "ShopToken", TenantId: a.tenantId, AccountGroupId: one.groupId },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.cleared).toEqual([{ cacheKey: "ShopToken", name: "店铺访问令牌", count: 1 }]);
    expect([await expired(one.groupId), await expired(two.groupId), await expired(other.groupId)]).toEqual([true, false, false]);

    res = await s.api("POST", `${H}/RemoveTenantCache`, { token: admin, query: { TenantId: a.tenantId } });
    expect(res.body.result.cleared).toEqual([{ cacheKey: "ShopToken", name: "店铺访问令牌", count: 2 }]);
    expect([await expired(two.groupId), await expired(other.groupId)]).toEqual([true, false]);
  });

  it("clears the platform's fee and picture size caches and this process's down hosts", async () => {
    await host(s, async (tx) => {
      await tx.execute(sql`insert into meli_listing_fees (site, cate_id, listing_type, percentage_fee, currency)
        values (1, 'MLM1', 'gold_special', 13.5, 'MXN'), (1, 'MLM2', 'gold_special', 13.5, 'MXN')`);
      await tx.execute(sql`insert into image_sizes (url_hash, url, width, height) values ('h1', 'https://x/1.jpg', 800, 800)`);
    });
    const clear = async (CacheKey: string) =>
      (await s.api("POST", `${H}/RemoveTenantCache`, { token: admin, query: { CacheKey } })).body.result.cleared[0];
    expect(await clear("ListingFees")).toEqual({ cacheKey: "ListingFees", name: "美客多费用", count: 2 });
    expect(await clear("ImageSizes")).toEqual({ cacheKey: "ImageSizes", name: "图片尺寸", count: 1 });
    expect(await clear("DownHosts")).toMatchObject({ cacheKey: "DownHosts", count: 0 });
    const [left] = await host(s, async (tx) =>
      rowsOf<{ fees: number; sizes: number }>(
        await tx.execute(
          sql`select (select count(*) from meli_listing_fees)::int as fees, (select count(*) from image_sizes)::int as sizes`,
        ),
      ),
    );
    expect(left).toEqual({ fees: 0, sizes: 0 });
  });
});

describe("RemoveDist", () => {
  it("drops idle rate buckets, keeps those in force, and releases expired refresh leases", async () => {
    const shop = await seedShop(s, a);
    await host(s, async (tx) => {
      await tx.execute(sql`insert into meli_rate_buckets (key, tat, blocked_until, interval_ms, burst_ms) values
        ('idle', now() - interval '1 hour', null, 100, 1000),
        ('idle-old-block', now() - interval '1 hour', now() - interval '1 minute', 100, 1000),
        ('blocked', now() - interval '1 hour', now() + interval '1 hour', 100, 1000),
        ('queued', now() + interval '1 hour', null, 100, 1000)`);
      await tx.execute(sql`update meli_account_groups set refresh_lease_until = now() - interval '1 minute', refresh_lease_id = gen_random_uuid()
        where id = ${shop.groupId}::uuid`);
    });
    const res = await s.api("GET", `${H}/RemoveDist`, { token: admin });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toEqual({ removedBuckets: 2, keptBuckets: 2, clearedLeases: 1 });
    const keys = await host(s, async (tx) =>
      rowsOf<{ key: string }>(await tx.execute(sql`select key from meli_rate_buckets order by key`)),
    );
    expect(keys.map((k) => k.key)).toEqual(["blocked", "queued"]);
    expect((await s.api("GET", `${H}/RemoveDist`, { token: admin })).body.result).toEqual({
      removedBuckets: 0,
      keptBuckets: 2,
      clearedLeases: 0,
    });
  });
});

describe("CreateTenantMongoIndex", () => {
  it("recreates a missing index from its migration, refreshes statistics, and corrects the tenant's counters", async () => {
    await seedProducts(s, b, 3);
    await host(s, async (tx) => {
      await tx.execute(sql`update product_counts set count = 99 where tenant_id = ${b.tenantId}::uuid`);
      await tx.execute(sql`update tenants set sub_account_count = 7 where id = ${b.tenantId}::uuid`);
    });
    // As the tables' owner, as a lost index would be.
    await s.database.db.execute(sql`drop index products_deleted_idx`);
    const res = await s.api("PUT", `${H}/CreateTenantMongoIndex`, { token: admin, query: { TenantId: b.tenantId } });
    expect(res.status, res.raw).toBe(200);
    const r = res.body.result;
    const productsCheck = r.tables.find((t: { table: string }) => t.table === "products");
    expect(productsCheck).toMatchObject({ recreated: ["products_deleted_idx"], missing: [], reindexed: [] });
    expect(productsCheck.rows).toBeGreaterThanOrEqual(3);
    expect(r.tables.map((t: { table: string }) => t.table)).toContain("tenant_product_days");
    expect(r.counters).toEqual([
      { name: expect.stringContaining("product_counts"), checked: 1, fixed: 1 },
      { name: expect.stringContaining("sub_account_count"), checked: 1, fixed: 1 },
    ]);
    expect(r.messages.join("\n")).toContain("products_deleted_idx");
    const [after] = await host(s, async (tx) =>
      rowsOf<{ idx: number; n: number; subs: number }>(
        await tx.execute(sql`select (select count(*) from pg_indexes where indexname = 'products_deleted_idx')::int as idx,
          (select count from product_counts where tenant_id = ${b.tenantId}::uuid and user_id = ${b.userId}::uuid) as n,
          (select sub_account_count from tenants where id = ${b.tenantId}::uuid) as subs`),
      ),
    );
    expect(after).toEqual({ idx: 1, n: 3, subs: 0 });
    // Nothing left to do the second time; without a tenant only the tables are checked.
    const again = (await s.api("PUT", `${H}/CreateTenantMongoIndex`, { token: admin, query: { TenantId: b.tenantId } })).body.result;
    expect(again.counters.map((c: { fixed: number }) => c.fixed)).toEqual([0, 0]);
    expect(again.tables.every((t: { recreated: string[]; missing: string[] }) => !t.recreated.length && !t.missing.length)).toBe(true);
    expect((await s.api("PUT", `${H}/CreateTenantMongoIndex`, { token: admin })).body.result.counters).toEqual([]);
  });
});

describe("ClearMeliStat and GetStatLogStatics", () => {
  it("counts the call log per tenant over a period and by outcome, then clears one tenant's (before a time) as a task", async () => {
    const c = await s.createTenant(uniqueName("tc"));
    const d = await s.createTenant(uniqueName("td"));
    await seedCallLogs(s, c, 5, { status: 200, creationTime: new Date("2026-03-01T10:00:00Z") });
    await seedCallLogs(s, c, 2, { status: 429, creationTime: new Date("2026-03-02T10:00:00Z") });
    await seedCallLogs(s, c, 1, { status: null, creationTime: new Date("2026-03-03T10:00:00Z") });
    await seedCallLogs(s, d, 3, { status: 201, creationTime: new Date("2026-03-02T10:00:00Z") });
    const stats = async (body: object) => {
      const res = await s.api("POST", `${H}/GetStatLogStatics`, { token: admin, body });
      expect(res.status, res.raw).toBe(200);
      return (res.body.result as { tenantId: string; tenantName: string; count: number }[]).filter((r) =>
        [c.tenantId, d.tenantId].includes(r.tenantId),
      );
    };
    expect(await stats({})).toEqual([
      { tenantId: c.tenantId, tenantName: c.tenantName, count: 8 },
      { tenantId: d.tenantId, tenantName: d.tenantName, count: 3 },
    ]);
    expect(await stats({ status: 2 })).toEqual([{ tenantId: c.tenantId, tenantName: c.tenantName, count: 3 }]);
    expect(await stats({ status: 1, startTime: "2026-03-02", endTime: "2026-03-03" })).toEqual([
      { tenantId: d.tenantId, tenantName: d.tenantName, count: 3 },
    ]);
    expect(await stats({ tenantId: d.tenantId })).toEqual([{ tenantId: d.tenantId, tenantName: d.tenantName, count: 3 }]);

    const key = randomUUID();
    const first = await hostCall(s, admin, "DELETE", `${H}/ClearMeliStat`, { TenantId: c.tenantId, BeforeTime: "2026-03-03" }, { key });
    expect(first.status, first.raw).toBe(200);
    expect(first.body.result.total).toBe(7);
    // The same request again (a retry) answers the same task instead of starting another.
    const retry = await hostCall(s, admin, "DELETE", `${H}/ClearMeliStat`, { TenantId: c.tenantId, BeforeTime: "2026-03-03" }, { key });
    expect(retry.body.result.taskId).toBe(first.body.result.taskId);
    const task = await waitForTask(s, admin, first.body.result.taskId);
    expect(task).toMatchObject({ taskStatus: TaskStatus.Succeeded, progress: 100, taskRemark: "已清除 7 条美客多调用日志" });
    expect(await countRows(s, "meli_call_logs", c.tenantId)).toBe(1);
    expect(await countRows(s, "meli_call_logs", d.tenantId)).toBe(3);
  });
});
