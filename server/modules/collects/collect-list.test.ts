// GetCollect past COLLECT_COUNT_CAP rows (issue 29): a title search finds a rare word through the trigram index and a
// common one through the sort's index, each with the right rows, count and pages; the count is exact where an index
// counts it alone and capped (totalCountCapped) under any other filter. Rows go straight into the table (one
// statement) so the tenant has more than the cap.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { COLLECT_COUNT_CAP } from "#shared/contract/collect.ts";
import { CollectStatus, PlatformType } from "#shared/contract/enums.ts";

type Page = { items: { id: string; title: Record<string, string>; price: string | null }[]; totalCount: number; totalCountCapped: boolean };

let s: TestServer;
let t: TestTenant;
let other: TestTenant;
let sub: { id: string; token: string };
/** The sub-account owns the first SUB_ROWS rows, the main account the rest. */
const ROWS = COLLECT_COUNT_CAP * 2 + 5;
const SUB_ROWS = COLLECT_COUNT_CAP + 102;

/**
 * `n` collections of `owners` (the first `firstOwnerRows` the first owner's) titled "x<g> …": every tenth has 连衣裙 too,
 * x7 and x1007 have 蓝牙耳机 too; row g is g minutes after 2026 began, price g, platform 1688.
 */
async function insertCollections(tenant: TestTenant, n: number, owners: [string, string], firstOwnerRows: number) {
  await inScope(s.database.db, { tenantId: tenant.tenantId }, (tx) =>
    tx.execute(`insert into collections (tenant_id, id, user_id, platform_type, item_id, source_url, title, title_text,
        price, currency, status, creation_time)
      select '${tenant.tenantId}', gen_random_uuid(), case when g <= ${firstOwnerRows} then '${owners[0]}' else '${owners[1]}' end::uuid,
        ${PlatformType.Alibaba1688}, 'i' || g, 'https://detail.1688.com/offer/' || g || '.html',
        jsonb_build_object('zh', w.title), w.title, g, 'CNY', ${CollectStatus.Collected},
        timestamptz '2026-01-01' + g * interval '1 minute'
      from generate_series(1, ${n}) g,
        lateral (select 'x' || g || case when g % 10 = 0 then ' 女装连衣裙' else '' end
          || case when g in (7, 1007) then ' 蓝牙耳机' else '' end as title) w`),
  );
}

async function list(token: string, body: Record<string, unknown> = {}): Promise<Page> {
  const res = await s.api("POST", "/api/Collect/GetCollect", { token, body: { maxResultCount: 1000, ...body } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as Page;
}
const ids = (p: Page) => p.items.map((i) => i.id);
const titles = (p: Page) => p.items.map((i) => i.title.zh);

beforeAll(async () => {
  s = await startTestServer();
  t = await s.createTenant();
  other = await s.createTenant();
  sub = await s.createSubUser(t);
  await insertCollections(t, ROWS, [sub.id, t.userId], SUB_ROWS);
  // Another tenant with the same titles: the trigram index holds every tenant's, the list only the caller's.
  await insertCollections(other, 20, [other.userId, other.userId], 20);
});
afterAll(() => s?.close());

describe("GetCollect title search past the count cap", () => {
  it("finds a rare word's rows only, sorted, counted exactly and paged without overlap", async () => {
    // "x100" (any case): x100 and x1000…x1009, newest first; the other tenant's x1…x20 hold none.
    const few = await list(t.token, { title: "X100" });
    expect(few).toMatchObject({ totalCount: 11, totalCountCapped: false });
    expect(titles(few).map((x) => x.split(" ")[0])).toEqual([...Array.from({ length: 10 }, (_, i) => `x${1009 - i}`), "x100"]);
    const paged = [
      ...ids(await list(t.token, { title: "x100", maxResultCount: 5 })),
      ...ids(await list(t.token, { title: "x100", maxResultCount: 5, skipCount: 5 })),
      ...ids(await list(t.token, { title: "x100", maxResultCount: 5, skipCount: 10 })),
    ];
    expect(paged).toEqual(ids(few));
    const cheapest = await list(t.token, { title: "x100", sorting: "price asc", maxResultCount: 2 });
    expect(titles(cheapest)).toEqual(["x100 女装连衣裙", "x1000 女装连衣裙"]);
    expect(cheapest.totalCount).toBe(11);
  });

  it("finds a rare Chinese word, and nothing for a word no title has", async () => {
    const rare = await list(t.token, { title: "蓝牙耳机" });
    expect(titles(rare)).toEqual(["x1007 蓝牙耳机", "x7 蓝牙耳机"]);
    expect(rare).toMatchObject({ totalCount: 2, totalCountCapped: false });
    expect(await list(t.token, { title: "不存在的词" })).toEqual({ items: [], totalCount: 0, totalCountCapped: false });
    expect((await list(other.token, { title: "蓝牙耳机" })).totalCount).toBe(1);
  });

  it("pages a common word in the list's order, its count capped", async () => {
    // "X": every title (any case); 连衣裙: every tenth, 200 of them, under the cap.
    const common = await list(t.token, { title: "X", maxResultCount: 5 });
    expect(common).toMatchObject({ totalCount: COLLECT_COUNT_CAP, totalCountCapped: true });
    expect(ids(common)).toEqual(ids(await list(t.token, { maxResultCount: 5 })));
    const deep = await list(t.token, { title: "x", maxResultCount: 5, skipCount: ROWS - 3 });
    expect(titles(deep).map((x) => x.split(" ")[0])).toEqual(["x3", "x2", "x1"]);
    const byPrice = await list(t.token, { title: "x", sorting: "price desc", maxResultCount: 2 });
    expect(titles(byPrice)).toEqual([`x${ROWS}`, `x${ROWS - 1}`]);
    const dresses = await list(t.token, { title: "连衣裙" });
    expect(dresses).toMatchObject({ totalCount: Math.floor(ROWS / 10), totalCountCapped: false });
    expect(dresses.items.every((i) => i.title.zh.endsWith("女装连衣裙"))).toBe(true);
  });

  it("keeps a sub-account's title search within its own collections", async () => {
    const own = await list(sub.token, { title: "x100" });
    // The sub-account holds x1…x1102: x100 and x1000…x1009 are its, all eleven.
    expect(own.totalCount).toBe(11);
    const mainOnly = await list(t.token, { title: "x200", userId: t.userId });
    // x200 and x2000…x2005 are the main account's; x200 is the sub-account's.
    expect(titles(mainOnly).map((x) => x.split(" ")[0])).toEqual(["x2005", "x2004", "x2003", "x2002", "x2001", "x2000"]);
  });
});

describe("GetCollect's count", () => {
  it("is exact where one index counts it: no filter, dates, the owner, the status, a sku, ids", async () => {
    expect(await list(t.token, { maxResultCount: 1 })).toMatchObject({ totalCount: ROWS, totalCountCapped: false });
    expect(await list(t.token, { maxResultCount: 1, status: CollectStatus.Collected })).toMatchObject({
      totalCount: ROWS,
      totalCountCapped: false,
    });
    expect(await list(t.token, { maxResultCount: 1, startDate: "2026-01-01T00:00:00Z", endDate: "2026-02-01T00:00:00Z" })).toMatchObject({
      totalCount: ROWS,
      totalCountCapped: false,
    });
    expect(await list(t.token, { maxResultCount: 1, userId: sub.id })).toMatchObject({ totalCount: SUB_ROWS, totalCountCapped: false });
    expect(await list(sub.token, { maxResultCount: 1 })).toMatchObject({ totalCount: SUB_ROWS, totalCountCapped: false });
    expect(await list(t.token, { sku: "i5" })).toMatchObject({ totalCount: 1, totalCountCapped: false });
    const some = ids(await list(t.token, { maxResultCount: 3 }));
    expect(await list(t.token, { ids: some })).toMatchObject({ totalCount: 3, totalCountCapped: false });
  });

  it("stops at the cap under a filter the index cannot count, and still pages past it", async () => {
    const capped = { totalCount: COLLECT_COUNT_CAP, totalCountCapped: true };
    expect(await list(t.token, { maxResultCount: 1, platformType: PlatformType.Alibaba1688 })).toMatchObject(capped);
    expect(await list(t.token, { maxResultCount: 1, currrency: "cny" })).toMatchObject(capped);
    expect(await list(t.token, { maxResultCount: 1, minPrice: 1 })).toMatchObject(capped);
    expect(await list(t.token, { maxResultCount: 1, hasInfringement: false })).toMatchObject(capped);
    expect(await list(sub.token, { maxResultCount: 1, status: CollectStatus.Collected })).toMatchObject(capped);
    expect(await list(t.token, { maxResultCount: 1, userId: sub.id, status: CollectStatus.Collected })).toMatchObject(capped);
    // Under the cap the same filters count exactly.
    expect(await list(t.token, { maxResultCount: 1, minPrice: ROWS - 9 })).toMatchObject({ totalCount: 10, totalCountCapped: false });
    // Past the cap: the sub-account's last rows (x1…x1102, newest first), the same as the uncapped list's.
    const deep = await list(sub.token, { status: CollectStatus.Collected, skipCount: SUB_ROWS - 2, maxResultCount: 5 });
    expect(titles(deep)).toEqual(["x2", "x1"]);
    expect(ids(deep)).toEqual(ids(await list(sub.token, { skipCount: SUB_ROWS - 2, maxResultCount: 5 })));
  });
});
