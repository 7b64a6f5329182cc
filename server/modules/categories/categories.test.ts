// The category area through HTTP against the in-process sandbox: the host syncs every site's tree with attributes and
// fees as a job whose task record shows progress; the stored rows match the sandbox (counts, parents and children,
// leaves with attributes, fees); a second sync changes nothing; GetAllCategory's tree, version, ETag and 304;
// "Invalid site ID"; host-only writes; status, refer, the category fetch by site id, attributes on demand, a failed
// category counted without failing the sync, removal, and the tenant role's read-only access.
import { brotliDecompressSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { categoryTrees } from "../../sandbox/categories.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import type { CategoryTreeNode } from "#shared/contract/category.ts";

let s: TestServer;
let host: string;
let T: TestTenant;
const codes = ["MLM", "MLB", "MLC", "MCO", "CBT"] as const;
const trees = () => categoryTrees(s.deps.sandbox!.store.seed);

type Task = { taskStatus: number; progress: number; taskRemark: string | null; content: string };

async function task(id: string): Promise<Task> {
  const [t] = rowsOf<Task>(
    await inScope(s.database.db, hostAllScope, (tx) =>
      tx.execute(sql`select task_status as "taskStatus", progress, task_remark as "taskRemark", content
        from task_infos where tenant_id = ${HOST_TENANT_ID} and id = ${id}`),
    ),
  );
  return t;
}

/** Waits for the task to end. */
async function finished(id: string, timeoutMs = 120_000): Promise<Task> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const t = await task(id);
    if (t.taskStatus === TaskStatus.Succeeded || t.taskStatus === TaskStatus.Failed) return t;
    if (Date.now() > until) throw new Error(`category task ${id} did not finish: ${JSON.stringify(t)}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

async function startSync(body: Record<string, unknown> = {}) {
  const res = await s.api("POST", "/api/MeliCategory/UpdateAllCategory", { token: host, body });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as { taskId: string; started: boolean };
}

const db = <T>(q: ReturnType<typeof sql>) => inScope(s.database.db, hostAllScope, async (tx) => rowsOf<T>(await tx.execute(q)));

const flatten = (nodes: CategoryTreeNode[]): CategoryTreeNode[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

let versions: Record<number, string>;

beforeAll(async () => {
  s = await startTestServer();
  host = await s.adminToken();
  T = await s.createTenant();
  // Every progress a category task records, in order (sampling the row could miss them on a busy machine).
  await s.database.db.execute(sql`create table test_task_progress (seq serial, task_id uuid, progress int)`);
  await s.database.db.execute(sql`grant insert, select on test_task_progress to public`);
  await s.database.db.execute(sql`grant usage on sequence test_task_progress_seq_seq to public`);
  await s.database.db.execute(sql`create function test_log_progress() returns trigger language plpgsql security definer as $$
    begin insert into test_task_progress (task_id, progress) values (new.id, new.progress); return new; end $$`);
  await s.database.db.execute(sql`create trigger test_task_progress after update on task_infos for each row
    when (new.task_type = 9 and new.progress is distinct from old.progress) execute function test_log_progress()`);
});
afterAll(() => s?.close());

describe("category sync", () => {
  it("syncs every site's tree with attributes and fees as a job with progress", async () => {
    const { taskId, started } = await startSync();
    expect(started).toBe(true);
    // A second request while it runs answers the same task.
    const again = await startSync({ sites: [1] });
    expect(again).toEqual({ taskId, started: false });
    const t = await finished(taskId);
    expect(t.taskStatus, t.taskRemark ?? "").toBe(TaskStatus.Succeeded);
    expect(t.progress).toBe(100);
    expect(t.content).toContain("全部站点");
    const seen = (await db<{ progress: number }>(sql`select progress from test_task_progress where task_id = ${taskId} order by seq`)).map(
      (r) => r.progress,
    );
    // The trees (0-10 %), then a step per batch of 100 leaves for attributes and fees, never backwards.
    expect(seen.slice(0, 5)).toEqual([2, 4, 6, 8, 10]);
    expect(seen.filter((p) => p > 10 && p < 100).length, `progress: ${seen}`).toBeGreaterThan(20);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(seen[seen.length - 1]).toBe(100);
    expect(t.taskRemark).toContain("墨西哥：311 个类目（新增或变更 311，下架 0），属性 234 个类目，费率 234 个类目");

    for (const [i, code] of codes.entries()) {
      const site = i + 1;
      const tree = trees()[code];
      const rows = await db<{
        cateId: string;
        pId: string | null;
        level: number;
        isLeaf: boolean;
        fullName: string;
        classicFee: string | null;
        premiumFee: string | null;
        variantKeys: string[];
      }>(
        sql`select cate_id as "cateId", p_id as "pId", level, is_leaf as "isLeaf", full_name as "fullName",
          classic_fee as "classicFee", premium_fee as "premiumFee", variant_keys as "variantKeys"
          from meli_categories where site = ${site}`,
      );
      expect(rows.length).toBe(tree.all.length);
      const byId = new Map(rows.map((r) => [r.cateId, r]));
      for (const c of tree.all) {
        const r = byId.get(c.id)!;
        expect(r, c.id).toBeTruthy();
        expect(r.pId).toBe(c.parentId);
        expect(r.level).toBe(c.level);
        expect(r.isLeaf).toBe(c.leaf);
        expect(r.fullName).toBe(c.path.map((p) => p.name).join(" > "));
        if (r.pId) expect(byId.get(r.pId)!.level).toBe(r.level - 1);
        if (c.leaf) {
          expect(Number(r.classicFee)).toBe(c.feePercent.gold_special);
          expect(Number(r.premiumFee)).toBe(c.feePercent.gold_pro);
          expect(r.variantKeys).toEqual(c.attributes.filter((a) => a.tags.allow_variations && !a.tags.hidden).map((a) => a.id));
        } else {
          expect(
            rows.some((x) => x.pId === c.id),
            `${c.id} has children`,
          ).toBe(true);
        }
      }
      const [attrs] = await db<{ n: number; empty: number }>(
        sql`select count(*)::int as n, count(*) filter (where attribute_count = 0)::int as empty
          from meli_category_attributes where site = ${site}`,
      );
      expect(attrs).toEqual({ n: tree.all.filter((c) => c.leaf).length, empty: 0 });
    }
    const [genders] = await db<{ n: number }>(sql`select count(*)::int as n from meli_gender_mappings where gender_attr_id = 'GENDER'`);
    expect(genders.n).toBeGreaterThan(0);
    versions = Object.fromEntries(
      (await db<{ site: number; version: string }>(sql`select site, version from meli_category_sites`)).map((r) => [r.site, r.version]),
    );
    expect(Object.keys(versions)).toHaveLength(5);
  }, 180_000);

  it("a second sync changes nothing: same rows, same versions", async () => {
    const before = await db<{ stamp: string }>(
      sql`select md5(string_agg(site || cate_id || coalesce(last_modification_time::text, '') || variant_keys::text, ',' order by site, cate_id)) as stamp
        from meli_categories`,
    );
    const attrsBefore = await db<{ stamp: string }>(
      sql`select md5(string_agg(site || cate_id || sync_time::text, ',' order by site, cate_id)) as stamp from meli_category_attributes`,
    );
    const { taskId } = await startSync();
    const t = await finished(taskId);
    expect(t.taskStatus).toBe(TaskStatus.Succeeded);
    expect(t.taskRemark).toContain("（新增或变更 0，下架 0）");
    expect(
      await db(
        sql`select md5(string_agg(site || cate_id || coalesce(last_modification_time::text, '') || variant_keys::text, ',' order by site, cate_id)) as stamp from meli_categories`,
      ),
    ).toEqual(before);
    expect(
      await db(
        sql`select md5(string_agg(site || cate_id || sync_time::text, ',' order by site, cate_id)) as stamp from meli_category_attributes`,
      ),
    ).toEqual(attrsBefore);
    const after = Object.fromEntries(
      (await db<{ site: number; version: string }>(sql`select site, version from meli_category_sites`)).map((r) => [r.site, r.version]),
    );
    expect(after).toEqual(versions);
  }, 180_000);

  it("counts a category Mercado Libre fails on and finishes the rest; a dropped category becomes removed", async () => {
    const leaf = trees().MLC.all.find((c) => c.leaf)!;
    // Past the adapter's retries: every attempt fails.
    s.deps.sandbox!.control.inject({ path: `/categories/${leaf.id}/attributes`, status: 404, times: 1 });
    await db(sql`insert into meli_categories (site, cate_id, level, name, p_id, is_leaf, full_name, path_name, listing_allowed)
      values (3, 'MLC999999999', 1, 'Vieja', null, true, 'Vieja', 'MLC999999999', true)`);
    const { taskId } = await startSync({ sites: ["cl"], withFees: false });
    const t = await finished(taskId);
    // A partial sync is not a success: failed, with the remark naming what was done and what failed.
    expect(t.taskStatus).toBe(TaskStatus.Failed);
    expect(t.progress).toBe(100);
    expect(t.content).toBe("同步美客多类目：智利（类目树、属性）");
    expect(t.taskRemark).toContain("下架 1");
    expect(t.taskRemark).toContain(`失败 1 项：${leaf.id} 属性读取失败`);
    const [old] = await db<{ meliStatus: string }>(
      sql`select meli_status as "meliStatus" from meli_categories where cate_id = 'MLC999999999'`,
    );
    expect(old.meliStatus).toBe("removed");
    const res = await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: T.token, query: { site: 3 } });
    expect(flatten(res.body.result.tree).some((n) => n.id === "MLC999999999")).toBe(false);
  }, 120_000);
});

describe("GetAllCategory", () => {
  it("answers the picker's tree: enabled nodes, leaves marked, full names, a version and an ETag", async () => {
    const res = await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: T.token, query: { site: 1 } });
    expect(res.status, res.raw).toBe(200);
    const answer = res.body.result;
    expect(answer).toMatchObject({ site: 1, version: versions[1], notModified: false, nodeCount: 311 });
    expect(res.headers.etag).toBe(`"${versions[1]}"`);
    const nodes = flatten(answer.tree);
    expect(nodes).toHaveLength(311);
    const tree = trees().MLM;
    for (const n of nodes) {
      const c = tree.byId.get(n.id)!;
      expect(n.name).toBe(c.name);
      expect(n.fullName).toBe(c.path.map((p) => p.name).join(" > "));
      // The glossary names every category of the built-in sandbox in Chinese.
      if (c.leaf) expect(n).toEqual({ id: c.id, name: c.name, fullName: n.fullName, isLeaf: true, zh: expect.any(String) });
      else expect(n.children!.map((x) => x.id)).toEqual(c.children.map((x) => x.id));
    }
    expect(answer.tree.map((n: CategoryTreeNode) => n.id)).toEqual(tree.roots.map((c) => c.id));
    // The same tree by Mercado Libre's site id and by our site code.
    for (const site of ["MLM", "mx"]) {
      const same = await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: T.token, query: { site } });
      expect(same.body.result.version).toBe(versions[1]);
    }
    // Compressed as the browser asks (the tree is the largest answer): the same JSON once decoded.
    const br = await s.app.inject({
      method: "GET",
      url: "/api/MeliCategory/GetAllCategory?site=1",
      headers: { authorization: `Bearer ${T.token}`, "accept-encoding": "br, gzip" },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString("utf8"))).toEqual(res.body);
  });

  it("names every category of every site in Chinese from the glossary, with no translation service", async () => {
    const [left] = await db<{ n: number; all: number }>(
      sql`select count(*) filter (where zh is null)::int as n, count(*)::int as "all" from meli_categories
        where meli_status = 'enabled'`,
    );
    expect(left.all).toBeGreaterThan(1000);
    expect(left.n).toBe(0);
    // The picker's Chinese search over a fresh tree: 手机 finds the phone branch, 女装 the women's clothing.
    for (const [site, word, name] of [
      [1, "手机", "Celulares y Smartphones"],
      [2, "女装", "Roupas Femininas"],
      [5, "手机壳", "Cellphone Cases"],
    ] as const) {
      const res = await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: T.token, query: { site } });
      const found = flatten(res.body.result.tree).filter((n) => n.zh?.includes(word));
      expect(found.map((n) => n.name)).toContain(name);
    }
  });

  it("answers 304 to If-None-Match and notModified to the current version", async () => {
    const etag = `"${versions[2]}"`;
    const res = await s.api("GET", "/api/MeliCategory/GetAllCategory", {
      token: T.token,
      query: { site: 2 },
      headers: { "if-none-match": etag },
    });
    expect(res.status).toBe(304);
    expect(res.raw).toBe("");
    const v = await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: T.token, query: { site: 2, version: versions[2] } });
    expect(v.body.result).toMatchObject({ site: 2, version: versions[2], notModified: true, tree: null });
    const stale = await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: T.token, query: { site: 2, version: "0000" } });
    expect(stale.body.result.notModified).toBe(false);
    expect(stale.body.result.tree.length).toBeGreaterThan(0);
  });

  it('rejects a bad site with "Invalid site ID"', async () => {
    for (const site of ["9", "0", "abc", "MLA", "1.5"]) {
      const res = await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: T.token, query: { site } });
      expect(res.status, site).toBe(400);
      expect(res.body.error.validationErrors).toEqual([{ message: "site: Invalid site ID", members: ["site"] }]);
    }
    const missing = await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: T.token });
    expect(missing.body.error.validationErrors[0].message).toBe("The parameter site cannot be null.");
    const fetch = await s.api("GET", "/api/MeliCategory/GetCategoryBySiteId", { token: T.token, query: { siteId: "7" } });
    expect(fetch.status).toBe(400);
    expect(fetch.body.error.details).toContain("Invalid site ID");
  });

  it("answers an empty tree without a version for a site never synced", async () => {
    const fresh = await startTestServer();
    try {
      const t = await fresh.createTenant();
      const res = await fresh.api("GET", "/api/MeliCategory/GetAllCategory", { token: t.token, query: { site: 4 } });
      expect(res.body.result).toEqual({ site: 4, version: null, syncTime: null, nodeCount: 0, notModified: false, tree: [] });
    } finally {
      await fresh.close();
    }
  });
});

describe("the category fetch by site id and attributes", () => {
  it("lists the roots and a node's children with the spec's fields", async () => {
    const tree = trees().MCO;
    const roots = await s.api("GET", "/api/MeliCategory/GetCategoryBySiteId", { token: T.token, query: { siteId: 4 } });
    expect(roots.body.result.map((c: { cateId: string }) => c.cateId)).toEqual(tree.roots.map((c) => c.id));
    const parent = tree.roots[0];
    const kids = await s.api("GET", "/api/MeliCategory/GetCategoryBySiteId", {
      token: T.token,
      query: { siteId: "co", parentId: parent.id },
    });
    expect(kids.body.result.map((c: { cateId: string }) => c.cateId)).toEqual(parent.children.map((c) => c.id));
    expect(Object.keys(kids.body.result[0]).sort()).toEqual(
      [
        "id",
        "site",
        "cateId",
        "level",
        "name",
        "zh",
        "pId",
        "isLeaf",
        "fullZh",
        "fullName",
        "alias",
        "pathName",
        "classicFee",
        "premiumFee",
        "enable",
        "variantKeys",
        "domain",
        "listingAllowed",
        "meliStatus",
        "maxTitleLength",
        "maxPictures",
        "minimumPrice",
        "currency",
        "syncTime",
      ].sort(),
    );
    expect(kids.body.result[0]).toMatchObject({ site: 4, pId: parent.id, level: 2, pathName: `${parent.id}/${parent.children[0].id}` });
    const unknown = await s.api("GET", "/api/MeliCategory/GetCategoryBySiteId", { token: T.token, query: { siteId: 4, parentId: "MCO1" } });
    expect(unknown.status).toBe(404);
  });

  it("answers a leaf's attributes in the spec's shape, and reads them on demand when never read", async () => {
    const leaf = trees().MLB.all.find((c) => c.leaf && c.attributes.some((a) => a.id === "GENDER"))!;
    const res = await s.api("GET", "/api/MeliCategory/GetAttributes", { token: T.token, query: { site: 2, cateId: leaf.id } });
    expect(res.status, res.raw).toBe(200);
    const a = res.body.result;
    expect(a).toMatchObject({ site: 2, cateId: leaf.id, isLeaf: true });
    expect(a.attributes.map((x: { id: string }) => x.id)).toEqual(leaf.attributes.map((x) => x.id));
    const brand = a.attributes.find((x: { id: string }) => x.id === "BRAND");
    expect(brand).toMatchObject({ modelType: 1, isRequired: true, alias: "brand", zh: null, valueType: "string" });
    expect(brand.tags).toEqual(["required", "catalog_required"]);
    const gender = a.attributes.find((x: { id: string }) => x.id === "GENDER");
    expect(gender.values[0]).toEqual({ id: expect.any(String), name: "Masculino", zh: null });
    const sku = a.attributes.find((x: { id: string }) => x.id === "SELLER_SKU");
    expect(sku).toMatchObject({ modelType: 3, alias: "sku" });

    await db(sql`delete from meli_category_attributes where site = 2 and cate_id = ${leaf.id}`);
    const calls = () => s.deps.sandbox!.control.calls()["GET /categories/:id/attributes"] ?? 0;
    const before = calls();
    const again = await s.api("GET", "/api/MeliCategory/GetAttributes", { token: T.token, query: { site: 2, cateId: leaf.id } });
    expect(again.status, again.raw).toBe(200);
    expect(calls()).toBe(before + 1);
    expect(again.body.result.attributes).toHaveLength(leaf.attributes.length);
    expect(again.body.result.syncTime).not.toBeNull();

    const one = await s.api("GET", "/api/MeliCategory/UpdateMeliAttrOne", { token: host, query: { site: 2, cateid: leaf.id } });
    expect(one.status, one.raw).toBe(200);
    expect(one.body.result.attributes).toHaveLength(leaf.attributes.length);

    const missing = await s.api("GET", "/api/MeliCategory/GetAttributes", { token: T.token, query: { site: 2, cateId: "MLB1" } });
    expect(missing.status).toBe(404);
    const bad = await s.api("GET", "/api/MeliCategory/GetAttributes", { token: T.token, query: { site: 2, cateId: "x; drop" } });
    expect(bad.status).toBe(400);
  });
});

describe("the host's writes", () => {
  it("refuses every write to a tenant (403) and lets the tenant role only read the tables", async () => {
    const leaf = trees().MLM.all.find((c) => c.leaf)!;
    const writes: [string, string, Record<string, unknown>, unknown][] = [
      ["POST", "/api/MeliCategory/UpdateAllCategory", {}, {}],
      ["POST", "/api/MeliCategory/UpdateAllCategoryStatus", { site: 1 }, { enable: false, all: true }],
      ["PUT", "/api/MeliCategory/UpdateRefer", { site: 1, cateId: leaf.id, refer: "x" }, undefined],
      ["PUT", "/api/MeliCategory/UpdateAllMeliAttr", { site: 1 }, undefined],
      ["GET", "/api/MeliCategory/UpdateAllCateFee", { site: 1 }, undefined],
      ["GET", "/api/MeliCategory/UpdateMeliAttrOne", { site: 1, cateId: leaf.id }, undefined],
      ["GET", "/api/MeliCategory/AckCategory", {}, undefined],
      ["GET", "/api/MeliCategory/AckAttr", {}, undefined],
    ];
    for (const [method, url, query, body] of writes) {
      const res = await s.api(method, url, { token: T.token, query: query as never, body });
      expect(res.status, `${method} ${url}`).toBe(403);
    }
    // Row-level security: erp_app reads categories and cannot write them, whatever the code forgets.
    const asTenant = (q: ReturnType<typeof sql>) =>
      inScope(s.database.db, { tenantId: T.tenantId }, (tx) => tx.execute(q)).then(
        (r) => rowsOf(r),
        (e: { cause?: { message?: string }; message: string }) => new Error(e.cause?.message ?? e.message),
      );
    expect(((await asTenant(sql`select count(*)::int as n from meli_categories`)) as { n: number }[])[0].n).toBeGreaterThan(1500);
    const updated = await asTenant(sql`update meli_categories set name = 'x' returning cate_id`);
    expect(updated).toEqual([]);
    const inserted = await asTenant(sql`insert into meli_category_sites (site, version, tree) values (9, 'x', '[]')`);
    expect(inserted).toBeInstanceOf(Error);
    expect(String(inserted)).toContain("row-level security");
  });

  it("UpdateAllCategoryStatus hides a subtree from the picker and brings it back with the same version", async () => {
    const root = trees().MLM.roots[1];
    const res = await s.api("POST", "/api/MeliCategory/UpdateAllCategoryStatus", {
      token: host,
      query: { site: 1 },
      body: { enable: false, cateIds: [root.id] },
    });
    expect(res.status, res.raw).toBe(200);
    const under = trees().MLM.all.filter((c) => c.path.some((p) => p.id === root.id)).length;
    expect(res.body.result.count).toBe(under);
    expect(res.body.result.version).not.toBe(versions[1]);
    const tree = (await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: T.token, query: { site: 1 } })).body.result;
    expect(flatten(tree.tree)).toHaveLength(311 - under);
    expect(tree.tree.some((n: CategoryTreeNode) => n.id === root.id)).toBe(false);
    const hidden = await s.api("GET", "/api/MeliCategory/GetCategoryBySiteId", {
      token: T.token,
      query: { siteId: 1, includeDisabled: true },
    });
    expect(hidden.body.result.find((c: { cateId: string }) => c.cateId === root.id).enable).toBe(false);
    // Every category of the site only with an explicit all (issue 29: no ids disabled a whole site).
    for (const body of [{ enable: true }, { enable: true, all: false }, { enable: true, all: true, cateIds: [root.id] }]) {
      const refused = await s.api("POST", "/api/MeliCategory/UpdateAllCategoryStatus", { token: host, query: { site: 1 }, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.raw).toMatch(/all/);
    }
    const stillHidden = await s.api("GET", "/api/MeliCategory/GetCategoryBySiteId", {
      token: T.token,
      query: { siteId: 1, includeDisabled: true },
    });
    expect(stillHidden.body.result.find((c: { cateId: string }) => c.cateId === root.id).enable).toBe(false);
    const back = await s.api("POST", "/api/MeliCategory/UpdateAllCategoryStatus", {
      token: host,
      query: { site: 1 },
      body: { enable: true, all: true },
    });
    expect(back.body.result).toEqual({ count: under, version: versions[1] });
    const none = await s.api("POST", "/api/MeliCategory/UpdateAllCategoryStatus", {
      token: host,
      query: { site: 1 },
      body: { enable: true, cateIds: ["MLM1"] },
    });
    expect(none.status).toBe(404);
  });

  it("UpdateRefer sets the alias the picker searches, and clears it", async () => {
    const leaf = trees().MLM.all.find((c) => c.leaf)!;
    const res = await s.api("PUT", "/api/MeliCategory/UpdateRefer", {
      token: host,
      query: { site: 1, cateid: leaf.id, refer: " 手机壳 " },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({ cateId: leaf.id, alias: "手机壳" });
    const tree = (await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: T.token, query: { site: 1 } })).body.result;
    expect(tree.version).not.toBe(versions[1]);
    expect(flatten(tree.tree).find((n) => n.id === leaf.id)!.alias).toBe("手机壳");
    const cleared = await s.api("PUT", "/api/MeliCategory/UpdateRefer", { token: host, query: { site: 1, cateId: leaf.id, refer: "" } });
    expect(cleared.body.result.alias).toBeNull();
    const again = (await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: T.token, query: { site: 1, version: versions[1] } }))
      .body.result;
    expect(again.notModified).toBe(true);
    const unknown = await s.api("PUT", "/api/MeliCategory/UpdateRefer", { token: host, query: { site: 1, cateId: "MLM1", refer: "x" } });
    expect(unknown.status).toBe(404);
  });

  it("UpdateAllCateFee and UpdateAllMeliAttr run as jobs for one site", async () => {
    const fee = await s.api("GET", "/api/MeliCategory/UpdateAllCateFee", { token: host, query: { site: 5 } });
    expect(fee.status, fee.raw).toBe(200);
    const t = await finished(fee.body.result.taskId);
    expect(t.content).toBe("同步美客多类目：跨境（CBT）（费率）");
    expect(t.taskRemark).toBe("跨境（CBT）：费率 234 个类目");
    const attr = await s.api("PUT", "/api/MeliCategory/UpdateAllMeliAttr", { token: host, query: { site: "cbt" } });
    const t2 = await finished(attr.body.result.taskId);
    expect(t2.taskRemark).toBe("跨境（CBT）：属性 234 个类目");
  }, 120_000);
});
