// Product labels and label groups through the real HTTP stack: the list with its counts (visible live products only,
// a sub-account's own), create / edit / batch (all or nothing, name swaps), unique names, groups and their deletion,
// deleting a label taking it off every product, bad input answered 400 with nothing changed, who may write (the main
// account; a sub-account reads), and tenant isolation (another tenant sees and changes none of the labels).
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productLabels, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { productLabelCalls } from "#shared/api/product-labels.ts";
import { MAX_PRODUCT_LABELS, type ProductLabel, type ProductLabelList } from "#shared/contract/product-label.ts";

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const L = "/api/ProductLabel";
type Sub = { id: string; token: string };

const getLabels = async (token: string): Promise<ProductLabelList> => {
  const res = await s.api("GET", `${L}/GetProductLabels`, { token });
  expect(res.status, res.raw).toBe(200);
  return res.body.result;
};
const save = (token: string, body: unknown) => s.api("POST", `${L}/CreateOrUpdateProductLabel`, { token, body });
const saveMany = (token: string, body: unknown) => s.api("POST", `${L}/CreateOrUpdateProductLabels`, { token, body });
const saveGroup = (token: string, body: unknown) => s.api("POST", `${L}/CreateOrUpdateProductLabelGroup`, { token, body });
const del = (token: string, id: string) => s.api("DELETE", `${L}/DeleteProductLabel`, { token, query: { id } });
const delGroup = (token: string, id: string) => s.api("DELETE", `${L}/DeleteProductLabelGroup`, { token, query: { id } });

async function label(token: string, body: Record<string, unknown>): Promise<ProductLabel> {
  const res = await save(token, body);
  expect(res.status, res.raw).toBe(200);
  return res.body.result;
}
async function group(token: string, body: Record<string, unknown>) {
  const res = await saveGroup(token, body);
  expect(res.status, res.raw).toBe(200);
  return res.body.result as { id: string; name: string; sort: number; productLabels: ProductLabel[] };
}

/** Inserts products straight into the table, answering their ids. */
async function addProducts(t: TestTenant, rows: { labelId?: string | null; userId?: string; isDeleted?: boolean }[]) {
  const values = rows.map((r) => ({
    tenantId: t.tenantId,
    id: randomUUID(),
    userId: r.userId ?? t.userId,
    title: { zh: "商品" },
    labelId: r.labelId ?? null,
    isDeleted: r.isDeleted ?? false,
  }));
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) => tx.insert(products).values(values));
  return values.map((v) => v.id);
}
const labelOf = async (t: TestTenant, ids: string[]) => {
  const rows = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.select({ id: products.id, labelId: products.labelId }).from(products).where(inArray(products.id, ids)),
  );
  return ids.map((id) => rows.find((r) => r.id === id)!.labelId);
};
const labelRows = (t: TestTenant) =>
  inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.select().from(productLabels).where(eq(productLabels.tenantId, t.tenantId)).orderBy(productLabels.name),
  );
const names = (l: { labels: ProductLabel[] }) => l.labels.map((x) => x.name);

describe("GetProductLabels", () => {
  let t: TestTenant;
  let sub: Sub;
  beforeAll(async () => {
    t = await s.createTenant();
    sub = await s.createSubUser(t);
  });

  it("is empty for a new tenant", async () => {
    expect(await getLabels(t.token)).toEqual({ labels: [], groups: [] });
  });

  it("lists labels by sort then name with the caller's live product counts, and groups with their labels", async () => {
    const g2 = await group(t.token, { name: "季节", sort: 2 });
    const g1 = await group(t.token, { name: "热度", sort: 1 });
    const hot = await label(t.token, { name: "爆款", sort: 1, groupId: g1.id });
    const b = await label(t.token, { name: "b-new", groupId: g1.id });
    const a = await label(t.token, { name: "a-new" });
    const winter = await label(t.token, { name: "冬季", sort: -5, groupId: g2.id });
    await addProducts(t, [
      { labelId: hot.id },
      { labelId: hot.id },
      { labelId: hot.id, isDeleted: true },
      { labelId: hot.id, userId: sub.id },
      { labelId: a.id, userId: sub.id },
      { labelId: null },
    ]);

    const main = await getLabels(t.token);
    expect(main.labels).toEqual([
      { id: winter.id, name: "冬季", sort: -5, groupId: g2.id, count: 0 },
      { id: a.id, name: "a-new", sort: 0, groupId: null, count: 1 },
      { id: b.id, name: "b-new", sort: 0, groupId: g1.id, count: 0 },
      { id: hot.id, name: "爆款", sort: 1, groupId: g1.id, count: 3 },
    ]);
    expect(main.groups).toEqual([
      { id: g1.id, name: "热度", sort: 1, productLabels: [main.labels[2], main.labels[3]] },
      { id: g2.id, name: "季节", sort: 2, productLabels: [main.labels[0]] },
    ]);

    // A sub-account reads the same labels with counts of its own products only.
    const mine = await getLabels(sub.token);
    expect(names(mine)).toEqual(names(main));
    expect(mine.labels.map((l) => l.count)).toEqual([0, 1, 0, 1]);
    expect(mine.groups.map((g) => g.id)).toEqual([g1.id, g2.id]);
  });

  it("counts no other tenant's products, even ones pointing at the label's id", async () => {
    const other = await s.createTenant();
    const l = await label(t.token, { name: "只属于t" });
    await addProducts(other, [{ labelId: l.id }, { labelId: l.id }]);
    expect((await getLabels(t.token)).labels.find((x) => x.id === l.id)!.count).toBe(0);
    expect(await getLabels(other.token)).toEqual({ labels: [], groups: [] });
  });

  it("needs a login", async () => {
    expect((await s.api("GET", `${L}/GetProductLabels`)).status).toBe(401);
    expect((await save("", { name: "x" })).status).toBe(401);
  });
});

describe("CreateOrUpdateProductLabel", () => {
  it("creates, then edits: a field left out keeps its value, groupId null ungroups", async () => {
    const t = await s.createTenant();
    const g = await group(t.token, { name: "G" });
    const created = await label(t.token, { name: "  新品  ", sort: 3, groupId: g.id.toUpperCase() });
    expect(created).toEqual({ id: expect.any(String), name: "新品", sort: 3, groupId: g.id, count: 0 });
    await addProducts(t, [{ labelId: created.id }]);

    const renamed = await label(t.token, { id: created.id, name: "新品2" });
    expect(renamed).toEqual({ id: created.id, name: "新品2", sort: 3, groupId: g.id, count: 1 });
    const ungrouped = await label(t.token, { id: created.id, name: "新品2", sort: 7, groupId: null });
    expect(ungrouped).toEqual({ id: created.id, name: "新品2", sort: 7, groupId: null, count: 1 });
    const [row] = await labelRows(t);
    expect(row).toMatchObject({ name: "新品2", creatorId: t.userId, lastModifierId: t.userId });
    expect(row.lastModificationTime).toBeInstanceOf(Date);
  });

  it("keeps names unique in the tenant (403, nothing changed); other tenants may use the same name", async () => {
    const t = await s.createTenant();
    const other = await s.createTenant();
    const a = await label(t.token, { name: "爆款" });
    const b = await label(t.token, { name: "清仓" });
    const dup = await save(t.token, { name: "爆款", sort: 9 });
    expect(dup.status).toBe(403);
    expect(dup.body.error).toMatchObject({ message: "标签名称已存在" });
    const rename = await save(t.token, { id: b.id, name: "爆款" });
    expect(rename.status).toBe(403);
    expect(rename.body.error.message).toBe("标签名称已存在");
    // Saving a label under its own name is no clash.
    expect((await save(t.token, { id: a.id, name: "爆款", sort: 2 })).status).toBe(200);
    expect((await getLabels(t.token)).labels.map((l) => [l.name, l.sort])).toEqual([
      ["清仓", 0],
      ["爆款", 2],
    ]);
    expect((await save(other.token, { name: "爆款" })).status).toBe(200);
  });

  it("answers 404 for an unknown label or group, and another tenant's, changing nothing", async () => {
    const t = await s.createTenant();
    const other = await s.createTenant();
    const theirs = await label(other.token, { name: "他们的" });
    const theirGroup = await group(other.token, { name: "他们的组" });
    const mine = await label(t.token, { name: "我的" });
    for (const body of [
      { id: randomUUID(), name: "x" },
      { id: theirs.id, name: "被改了" },
      { name: "新", groupId: randomUUID() },
      { name: "新", groupId: theirGroup.id },
      { id: mine.id, name: "我的", groupId: theirGroup.id },
    ]) {
      const res = await save(t.token, body);
      expect(res.status, JSON.stringify(body)).toBe(404);
    }
    expect(await getLabels(t.token)).toEqual({ labels: [{ ...mine }], groups: [] });
    expect(names(await getLabels(other.token))).toEqual(["他们的"]);
  });

  it("answers bad input with 400 and changes nothing", async () => {
    const t = await s.createTenant();
    await label(t.token, { name: "keep" });
    for (const body of [
      {},
      { name: "" },
      { name: "   " },
      { name: "x".repeat(51) },
      { name: "line\nbreak" },
      { name: 42 },
      { name: "ok", sort: 1.5 },
      { name: "ok", sort: "1" },
      { name: "ok", sort: 2_000_000 },
      { name: "ok", id: "not-a-guid" },
      { name: "ok", groupId: "nope" },
      [{ name: "ok" }],
    ]) {
      const res = await save(t.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ message: expect.any(String) });
    }
    expect(names(await getLabels(t.token))).toEqual(["keep"]);
  });
});

describe("CreateOrUpdateProductLabels", () => {
  it("creates and edits several at once, answering them in request order", async () => {
    const t = await s.createTenant();
    const x = await label(t.token, { name: "x" });
    const res = await saveMany(t.token, [{ name: "c", sort: 1 }, { id: x.id, name: "x2" }, { name: "a" }]);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.map((l: ProductLabel) => l.name)).toEqual(["c", "x2", "a"]);
    expect(res.body.result[1].id).toBe(x.id);
    expect(names(await getLabels(t.token))).toEqual(["a", "x2", "c"]);
  });

  it("swaps names between labels", async () => {
    const t = await s.createTenant();
    const a = await label(t.token, { name: "A" });
    const b = await label(t.token, { name: "B" });
    const c = await label(t.token, { name: "C" });
    const res = await saveMany(t.token, [{ id: a.id, name: "B" }, { id: b.id, name: "C" }, { id: c.id, name: "A" }, { name: "D" }]);
    expect(res.status, res.raw).toBe(200);
    const byId = new Map((await getLabels(t.token)).labels.map((l) => [l.id, l.name]));
    expect([byId.get(a.id), byId.get(b.id), byId.get(c.id)]).toEqual(["B", "C", "A"]);
    expect(byId.size).toBe(4);
  });

  it("is all or nothing", async () => {
    const t = await s.createTenant();
    const keep = await label(t.token, { name: "keep", sort: 1 });
    // A name given up by a label of the same batch is free for another.
    const moved = await saveMany(t.token, [{ name: "new" }, { id: keep.id, name: "keep2" }, { name: "keep" }]);
    expect(moved.status, moved.raw).toBe(200);
    expect(names(await getLabels(t.token))).toEqual(["keep", "new", "keep2"]);
    const before = await labelRows(t);

    const bad = [
      [{ name: "n1" }, { name: "keep" }], // name taken
      [{ name: "n1" }, { id: randomUUID(), name: "n2" }], // unknown label
      [{ name: "n1" }, { name: "n2", groupId: randomUUID() }], // unknown group
      [{ name: "n1" }, { name: "n1" }], // the same name twice
      [
        { id: keep.id, name: "n1" },
        { id: keep.id, name: "n2" },
      ], // the same label twice
      [{ name: "n1" }, { name: "" }], // invalid item
      [],
    ];
    const status = [403, 404, 404, 400, 400, 400, 400];
    for (const [i, body] of bad.entries()) {
      const res = await saveMany(t.token, body);
      expect(res.status, JSON.stringify(body)).toBe(status[i]);
    }
    expect(await labelRows(t)).toEqual(before);
  });

  it("refuses to pass the per-tenant limit, adding nothing", async () => {
    const t = await s.createTenant();
    await label(t.token, { name: "first" });
    const many = Array.from({ length: MAX_PRODUCT_LABELS }, (_, i) => ({ name: `l${i}` }));
    const res = await saveMany(t.token, many);
    expect(res.status).toBe(400);
    expect(names(await getLabels(t.token))).toEqual(["first"]);
    expect((await saveMany(t.token, many.slice(1))).status).toBe(200);
    expect((await getLabels(t.token)).labels).toHaveLength(MAX_PRODUCT_LABELS);
  });
});

describe("DeleteProductLabel", () => {
  it("deletes the label and takes it off every product of the tenant carrying it", async () => {
    const t = await s.createTenant();
    const sub = await s.createSubUser(t);
    const gone = await label(t.token, { name: "gone" });
    const stays = await label(t.token, { name: "stays" });
    const ids = await addProducts(t, [
      { labelId: gone.id },
      { labelId: gone.id, userId: sub.id },
      { labelId: gone.id, isDeleted: true },
      { labelId: stays.id },
      { labelId: null },
    ]);
    const res = await del(t.token, gone.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toEqual({ count: 3 });
    expect(await labelOf(t, ids)).toEqual([null, null, null, stays.id, null]);
    expect((await getLabels(t.token)).labels).toEqual([{ ...stays, count: 1 }]);
    const [touched] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.select().from(products).where(eq(products.id, ids[0])),
    );
    expect(touched.lastModifierId).toBe(t.userId);
    // Deleting again: it is gone.
    expect((await del(t.token, gone.id)).status).toBe(404);
  });

  it("answers 404 for another tenant's label and changes nothing there", async () => {
    const t = await s.createTenant();
    const other = await s.createTenant();
    const theirs = await label(other.token, { name: "theirs" });
    const ids = await addProducts(other, [{ labelId: theirs.id }]);
    // A product of t pointing at the other tenant's label id is not t's business either.
    const mine = await addProducts(t, [{ labelId: theirs.id }]);
    const res = await del(t.token, theirs.id);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("标签不存在");
    expect(await labelOf(other, ids)).toEqual([theirs.id]);
    expect(await labelOf(t, mine)).toEqual([theirs.id]);
    expect((await getLabels(other.token)).labels).toEqual([{ ...theirs, count: 1 }]);
  });

  it("answers bad input with 400", async () => {
    const t = await s.createTenant();
    const l = await label(t.token, { name: "l" });
    expect((await del(t.token, "not-a-guid")).status).toBe(400);
    expect((await s.api("DELETE", `${L}/DeleteProductLabel`, { token: t.token })).status).toBe(400);
    expect(names(await getLabels(t.token))).toEqual([l.name]);
  });
});

describe("label groups", () => {
  it("creates, renames and re-sorts a group; names unique in the tenant", async () => {
    const t = await s.createTenant();
    const g = await group(t.token, { name: "组一" });
    expect(g).toEqual({ id: expect.any(String), name: "组一", sort: 0, productLabels: [] });
    const l = await label(t.token, { name: "在组里", groupId: g.id });
    const edited = await group(t.token, { id: g.id, name: "组1", sort: 4 });
    expect(edited).toEqual({ id: g.id, name: "组1", sort: 4, productLabels: [l] });
    expect(await group(t.token, { id: g.id, name: "组1" })).toMatchObject({ sort: 4 });
    await group(t.token, { name: "组二" });
    const dup = await saveGroup(t.token, { name: "组1" });
    expect(dup.status).toBe(403);
    expect(dup.body.error.message).toBe("标签分组名称已存在");
    expect((await saveGroup(t.token, { id: g.id, name: "组二" })).status).toBe(403);
    expect((await saveGroup(t.token, { id: randomUUID(), name: "x" })).status).toBe(404);
    for (const body of [{}, { name: "" }, { name: "a\tb" }, { name: "ok", sort: "x" }, { name: "ok", id: 1 }]) {
      expect((await saveGroup(t.token, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await getLabels(t.token)).groups.map((g) => [g.name, g.sort])).toEqual([
      ["组二", 0],
      ["组1", 4],
    ]);
  });

  it("deleting a group leaves its labels ungrouped", async () => {
    const t = await s.createTenant();
    const g = await group(t.token, { name: "G" });
    const keepGroup = await group(t.token, { name: "H" });
    const a = await label(t.token, { name: "a", groupId: g.id });
    const b = await label(t.token, { name: "b", groupId: g.id });
    const c = await label(t.token, { name: "c", groupId: keepGroup.id });
    const res = await delGroup(t.token, g.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toEqual({ count: 2 });
    const after = await getLabels(t.token);
    expect(after.labels.map((l) => [l.id, l.groupId])).toEqual([
      [a.id, null],
      [b.id, null],
      [c.id, keepGroup.id],
    ]);
    expect(after.groups.map((x) => x.id)).toEqual([keepGroup.id]);
    expect((await delGroup(t.token, g.id)).status).toBe(404);
    expect((await delGroup(t.token, "bad")).status).toBe(400);
  });

  it("another tenant can neither see, edit nor delete a group", async () => {
    const t = await s.createTenant();
    const other = await s.createTenant();
    const g = await group(t.token, { name: "私有" });
    await label(t.token, { name: "私有标签", groupId: g.id });
    expect((await getLabels(other.token)).groups).toEqual([]);
    expect((await saveGroup(other.token, { id: g.id, name: "改名" })).status).toBe(404);
    expect((await delGroup(other.token, g.id)).status).toBe(404);
    const mine = await getLabels(t.token);
    expect(mine.groups.map((x) => [x.name, x.productLabels.length])).toEqual([["私有", 1]]);
  });
});

describe("who may write", () => {
  it("a sub-account reads the labels but every write is 403 and changes nothing", async () => {
    const t = await s.createTenant();
    const sub = await s.createSubUser(t);
    const g = await group(t.token, { name: "G" });
    const l = await label(t.token, { name: "L", groupId: g.id });
    const ids = await addProducts(t, [{ labelId: l.id, userId: sub.id }]);
    const before = await getLabels(t.token);
    expect(await getLabels(sub.token)).toEqual(before);

    for (const res of [
      await save(sub.token, { name: "fromsub" }),
      await save(sub.token, { id: l.id, name: "renamed" }),
      await saveMany(sub.token, [{ name: "fromsub" }]),
      await del(sub.token, l.id),
      await saveGroup(sub.token, { name: "fromsub" }),
      await saveGroup(sub.token, { id: g.id, name: "renamed" }),
      await delGroup(sub.token, g.id),
    ]) {
      expect(res.status, res.raw).toBe(403);
      expect(res.body.error.message).toBe("仅主账号可以维护标签");
    }
    expect(await getLabels(t.token)).toEqual(before);
    expect(await labelOf(t, ids)).toEqual([l.id]);
  });
});

describe("client", () => {
  it("has a function for every ProductLabel call this file registers, and names only registered calls", () => {
    const key = (m: string, u: string) => `${m.toUpperCase()} ${u.toLowerCase()}`;
    const server = s.app.calls
      .filter((c) => c.group === "ProductLabel" && !/LinkProductLabel$/i.test(c.name))
      .map((c) => key(c.method, c.url))
      .sort();
    const client = Object.values(productLabelCalls)
      .map((c) => key(c.method, c.path))
      .sort();
    expect(client).toEqual(server);
    expect(server).toHaveLength(6);
  });
});
