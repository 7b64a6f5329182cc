// The host's category sync screen reads: GetCategorySyncStatus (every site, zeros before the first sync, counts and
// times after it) and GetCategoriesByPage (searched in the site's name, the Chinese name and the id); both host-only.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import type { CategorySiteStatus, MeliCategory } from "#shared/contract/category.ts";

let s: TestServer;
let host: string;
let T: TestTenant;

const db = <R>(q: ReturnType<typeof sql>) => inScope(s.database.db, hostAllScope, async (tx) => rowsOf<R>(await tx.execute(q)));

async function syncFinished(taskId: string) {
  const until = Date.now() + 120_000;
  for (;;) {
    const [t] = await db<{ status: number }>(
      sql`select task_status as status from task_infos where tenant_id = ${HOST_TENANT_ID} and id = ${taskId}`,
    );
    if (t.status === TaskStatus.Succeeded || t.status === TaskStatus.Failed) return t.status;
    if (Date.now() > until) throw new Error("category sync did not finish");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const status = async () => {
  const res = await s.api("GET", "/api/MeliCategory/GetCategorySyncStatus", { token: host });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as CategorySiteStatus[];
};

beforeAll(async () => {
  s = await startTestServer();
  host = await s.adminToken();
  T = await s.createTenant();
});
afterAll(() => s?.close());

describe("category sync screen", () => {
  it("shows every site unsynced, then its counts and times after a sync", async () => {
    const before = await status();
    expect(before.map((r) => r.site)).toEqual([1, 2, 3, 4, 5]);
    expect(before[0]).toMatchObject({ version: null, categoryCount: 0, attributeCount: 0, feeCount: 0, syncTime: null });

    const res = await s.api("POST", "/api/MeliCategory/UpdateAllCategory", { token: host, body: { sites: [1] } });
    expect(res.status, res.raw).toBe(200);
    expect(await syncFinished(res.body.result.taskId)).toBe(TaskStatus.Succeeded);

    const [mx, bl] = await status();
    const [counts] = await db<{ all: number; leaves: number }>(
      sql`select count(*)::int as "all", count(*) filter (where is_leaf)::int as leaves from meli_categories where site = 1`,
    );
    expect(mx.categoryCount).toBe(counts.all);
    expect(mx.leafCount).toBe(counts.leaves);
    expect(mx.attributeCount).toBeGreaterThan(0);
    expect(mx.feeCount).toBeGreaterThan(0);
    expect(mx.version).toEqual(expect.any(String));
    expect(mx.syncTime && mx.attrSyncTime && mx.feeSyncTime).toBeTruthy();
    expect(bl).toMatchObject({ categoryCount: 0, syncTime: null });
  });

  it("pages the site's categories searched in the name, the Chinese name and the id", async () => {
    const [first] = await db<{ cateId: string; name: string }>(
      sql`select cate_id as "cateId", name from meli_categories where site = 1 order by cate_id limit 1`,
    );
    await db(sql`update meli_categories set zh = '测试类目' where site = 1 and cate_id = ${first.cateId}`);
    const page = async (query: Record<string, unknown>) => {
      const res = await s.api("GET", "/api/MeliCategory/GetCategoriesByPage", { token: host, query: { site: 1, ...query } });
      expect(res.status, res.raw).toBe(200);
      return res.body.result as { items: MeliCategory[]; totalCount: number };
    };
    const all = await page({ MaxResultCount: 5 });
    expect(all.items).toHaveLength(5);
    expect(all.totalCount).toBe((await status())[0].categoryCount);

    const byZh = await page({ Filter: "测试" });
    expect(byZh.items.map((c) => [c.cateId, c.name, c.zh])).toEqual([[first.cateId, first.name, "测试类目"]]);
    expect((await page({ Filter: first.cateId })).items.map((c) => c.cateId)).toContain(first.cateId);
    expect((await page({ Filter: first.name.toUpperCase() })).items.map((c) => c.cateId)).toContain(first.cateId);
    expect(await page({ Filter: "100%_no" })).toEqual({ items: [], totalCount: 0 });

    const bad = await s.api("GET", "/api/MeliCategory/GetCategoriesByPage", { token: host, query: { site: 9 } });
    expect(bad.status).toBe(400);
  });

  it("is the host's only: a tenant gets 403", async () => {
    for (const [path, query] of [
      ["/api/MeliCategory/GetCategorySyncStatus", undefined],
      ["/api/MeliCategory/GetCategoriesByPage", { site: 1 }],
    ] as const) {
      const res = await s.api("GET", path, { token: T.token, query });
      expect(res.status, path).toBe(403);
    }
  });
});
