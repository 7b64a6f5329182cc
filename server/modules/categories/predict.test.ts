// PredictMeliCategory through HTTP against the sandbox's domain discovery (which needs a seller's token): refused
// clearly without a connected shop, then predictions for a title and for a product joined with the synced tree, and bad
// input. Then AckCategory / AckAttr: refused without a translation service, and with a loopback LibreTranslate (its
// real wire format) the Chinese names filled, kept by a re-sync, and searched in the tree. Last, a Chinese title: translated
// into the site's language first with a translation service, else matched against the categories' Chinese names.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { categoryTrees, predict } from "../../sandbox/categories.ts";
import { rebuildSiteTree, refreshFullZh } from "./store.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import type { CategoryTreeNode } from "#shared/contract/category.ts";
import {
  chineseBigrams,
  isChineseTitle,
  NO_SHOP_FOR_PREDICTION,
  NOTE_NO_CHINESE_NAMES,
  NOTE_NO_SHOP,
  NOTE_NO_TRANSLATOR,
} from "./predict.ts";

let s: TestServer;
let host: string;
let A: TestTenant;
let B: TestTenant;
let fake: Server;
let fakeUrl: string;
const translated: { source: string; target: string; q: string[] }[] = [];
/** What the loopback LibreTranslate answers for Chinese titles into Spanish. */
const toSpanish: Record<string, string> = { "三星手机壳 硅胶 黑色": "Funda de silicona para celular Samsung negro" };

async function finished(taskId: string) {
  for (let i = 0; i < 1500; i++) {
    const [t] = rowsOf<{ taskStatus: number; taskRemark: string | null }>(
      await inScope(s.database.db, hostAllScope, (tx) =>
        tx.execute(sql`select task_status as "taskStatus", task_remark as "taskRemark" from task_infos
          where tenant_id = ${HOST_TENANT_ID} and id = ${taskId}`),
      ),
    );
    if (t.taskStatus === TaskStatus.Succeeded || t.taskStatus === TaskStatus.Failed) return t;
    await new Promise((r) => setTimeout(r, 40));
  }
  throw new Error("category task did not finish");
}

const predictCall = (token: string, body: unknown) => s.api("POST", "/api/Product/PredictMeliCategory", { token, body });

beforeAll(async () => {
  fake = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.method === "GET" && req.url === "/languages") {
        res.end(JSON.stringify(["en", "es", "pt", "zh"].map((code) => ({ code, name: code, targets: ["en", "es", "pt", "zh"] }))));
        return;
      }
      const body = JSON.parse(raw);
      translated.push(body);
      if (body.q.some((t: string) => t.includes("拒绝"))) {
        res.statusCode = 400;
        res.end(JSON.stringify({ error: `${body.source} is not supported` }));
        return;
      }
      const out = body.target === "zh" ? body.q.map((t: string) => `中${t}`) : body.q.map((t: string) => toSpanish[t] ?? t);
      res.end(JSON.stringify({ translatedText: out }));
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  s = await startTestServer();
  host = await s.adminToken();
  A = await s.createTenant();
  B = await s.createTenant();
  // Mexico's and Brazil's trees with attributes (no fees: not needed here).
  const res = await s.api("POST", "/api/MeliCategory/UpdateAllCategory", { token: host, body: { sites: [1, 2], withFees: false } });
  expect((await finished(res.body.result.taskId)).taskStatus).toBe(TaskStatus.Succeeded);
  // The glossary's Chinese names cleared: these tests are about the translation service and names set by hand.
  await inScope(s.database.db, hostAllScope, async (tx) => {
    await tx.execute(sql`update meli_categories set zh = null, full_zh = null`);
    for (const site of [1, 2]) await rebuildSiteTree(tx, site);
  });
}, 120_000);
afterAll(async () => {
  await s?.close();
  await new Promise((r) => fake.close(r));
});

describe("PredictMeliCategory", () => {
  it("says a shop is needed when the tenant has none", async () => {
    const res = await predictCall(A.token, { site: 1, title: "Funda para celular" });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(NO_SHOP_FOR_PREDICTION);
  });

  it("predicts for a title and for a product, joined with the synced categories", async () => {
    const page = await connectShop(s, A.token, { nickname: "PREDICTSELLER", site: "MLM", sites: [1] });
    expect(page.ok, page.message).toBe(true);
    const title = "Funda de silicona para celular Samsung negro";
    const res = await predictCall(A.token, { site: 1, title, limit: 3 });
    expect(res.status, res.raw).toBe(200);
    const tree = categoryTrees(s.deps.sandbox!.store.seed).MLM;
    const expected = predict(tree, title, 3);
    expect(expected.length).toBeGreaterThan(0);
    const result = res.body.result;
    expect(result).toMatchObject({ title, site: 1 });
    expect(result.items.map((i: { cateId: string }) => i.cateId)).toEqual(expected.map((p) => p.category_id));
    const first = result.items[0];
    const c = tree.byId.get(first.cateId)!;
    expect(first).toMatchObject({
      name: c.name,
      fullName: c.path.map((p) => p.name).join(" > "),
      domainId: expected[0].domain_id,
      known: true,
      selectable: true,
    });
    expect(first.attributes).toEqual(
      expected[0].attributes.map((a) => {
        const x = a as { id: string; name: string; value_id: string; value_name: string };
        return { id: x.id, name: x.name, valueId: x.value_id, valueName: x.value_name };
      }),
    );

    // From a product: its title in the site's language (Portuguese for Brazil), though a Chinese title exists.
    const created = await s.api("POST", "/api/Product/CreateOrUpdateProduct", {
      token: A.token,
      body: { title: { zh: "手机壳", pt: "Capa de celular transparente", es: "Funda transparente" } },
    });
    expect(created.status, created.raw).toBe(200);
    const byProduct = await predictCall(A.token, { site: 2, productId: created.body.result.id });
    expect(byProduct.status, byProduct.raw).toBe(200);
    expect(byProduct.body.result.title).toBe("Capa de celular transparente");
    const mlb = categoryTrees(s.deps.sandbox!.store.seed).MLB;
    expect(byProduct.body.result.items.map((i: { cateId: string }) => i.cateId)).toEqual(
      predict(mlb, "Capa de celular transparente", 4).map((p) => p.category_id),
    );
    expect(byProduct.body.result.items.every((i: { known: boolean }) => i.known)).toBe(true);

    // Another tenant's product is not found; a sub-account may predict with its tenant's shop.
    const other = await predictCall(B.token, { site: 1, productId: created.body.result.id });
    expect(other.status).toBe(404);
    const sub = await s.createSubUser(A);
    const subRes = await predictCall(sub.token, { site: 1, title: "Zapatillas deportivas" });
    expect(subRes.status, subRes.raw).toBe(200);
  });

  it("marks a prediction not in the synced tree, and refuses bad input", async () => {
    // Chile's tree is not synced here: predictions come back with Mercado Libre's names only.
    const res = await predictCall(A.token, { site: "cl", title: "Funda para celular" });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.items.length).toBeGreaterThan(0);
    for (const i of res.body.result.items) expect(i).toMatchObject({ known: false, selectable: false, fullName: i.name });
    for (const body of [
      { site: 1 },
      { site: 9, title: "x" },
      { site: 1, title: "" },
      { site: 1, title: "x", limit: 20 },
      { site: 1, productId: "not-a-guid" },
    ]) {
      const bad = await predictCall(A.token, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
  });
});

/** Creates the setting, or updates it when it exists. */
async function setSetting(key: string, value: string) {
  const held = await s.api("GET", "/api/SystemConfigSetting/Get", { token: host, query: { key } });
  const id = held.status === 200 ? held.body.result.id : undefined;
  const res = await s.api("POST", "/api/SystemConfigSetting/CreateOrUpdate", { token: host, body: { id, name: key, key, value } });
  expect(res.status, res.raw).toBe(200);
}

describe("AckCategory and AckAttr (Chinese names)", () => {
  it("refuses without a translation service", async () => {
    const res = await s.api("GET", "/api/MeliCategory/AckCategory", { token: host, query: { site: 1 } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain("翻译服务未配置");
  });

  it("fills the categories' Chinese names and paths, once per distinct name, and the tree carries them", async () => {
    await setSetting("Translate.Provider", "libretranslate");
    await setSetting("Translate.Url", fakeUrl);
    const res = await s.api("GET", "/api/MeliCategory/AckCategory", { token: host, query: { site: 1 } });
    expect(res.status, res.raw).toBe(200);
    const t = await finished(res.body.result.taskId);
    expect(t.taskStatus, t.taskRemark ?? "").toBe(TaskStatus.Succeeded);
    expect(t.taskRemark).toBe("已为 311 个类目补充中文名（墨西哥）");
    const sent = translated.flatMap((r) => r.q);
    expect(new Set(sent).size).toBe(sent.length);
    expect(translated.every((r) => r.source === "es" && r.target === "zh")).toBe(true);
    const tree = (await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: A.token, query: { site: 1 } })).body.result
      .tree as CategoryTreeNode[];
    const leaf = tree[0].children![0];
    expect(leaf.zh).toBe(`中${leaf.name}`);
    const [row] = await s
      .api("GET", "/api/MeliCategory/GetCategoryBySiteId", { token: A.token, query: { siteId: 1, parentId: tree[0].id } })
      .then((r) => r.body.result);
    expect(row.fullZh).toBe(`中${tree[0].name} > 中${row.name}`);
    // Brazil was not asked.
    const br = (await s.api("GET", "/api/MeliCategory/GetAllCategory", { token: A.token, query: { site: 2 } })).body.result.tree;
    expect(br[0].zh).toBeUndefined();
  });

  it("fills attribute and value names, and a re-sync of unchanged attributes keeps them", async () => {
    translated.length = 0;
    const res = await s.api("GET", "/api/MeliCategory/AckAttr", { token: host, query: { site: "bl" } });
    const t = await finished(res.body.result.taskId);
    expect(t.taskStatus, t.taskRemark ?? "").toBe(TaskStatus.Succeeded);
    expect(translated.every((r) => r.source === "pt")).toBe(true);
    const leaf = categoryTrees(s.deps.sandbox!.store.seed).MLB.all.find((c) => c.leaf && c.attributes.some((a) => a.id === "GENDER"))!;
    const read = async () =>
      (await s.api("GET", "/api/MeliCategory/GetAttributes", { token: A.token, query: { site: 2, cateId: leaf.id } })).body.result;
    const gender = (await read()).attributes.find((a: { id: string }) => a.id === "GENDER");
    expect(gender.zh).toBe("中Gênero");
    expect(gender.values[0]).toMatchObject({ name: "Masculino", zh: "中Masculino" });
    const sync = await s.api("PUT", "/api/MeliCategory/UpdateAllMeliAttr", { token: host, query: { site: 2 } });
    expect((await finished(sync.body.result.taskId)).taskStatus).toBe(TaskStatus.Succeeded);
    expect((await read()).attributes.find((a: { id: string }) => a.id === "GENDER").zh).toBe("中Gênero");
  });
});

describe("PredictMeliCategory with a Chinese title", () => {
  const mlm = () => categoryTrees(s.deps.sandbox!.store.seed).MLM;
  const idOf = (name: string) => mlm().all.find((c) => c.name === name)!.id;
  const ids = (res: { body: { result: { items: { cateId: string }[] } } }) => res.body.result.items.map((i) => i.cateId);

  it("tells Chinese titles and their two-character pieces", () => {
    expect(isChineseTitle("Funda para celular")).toBe(false);
    expect(isChineseTitle("iPhone 15 手机壳")).toBe(true);
    expect(chineseBigrams("三星 Galaxy 手机壳")).toEqual(["三星", "手机", "机壳"]);
  });

  it("with a translation service: translates into the site's language and asks Mercado Libre with that", async () => {
    // The service was configured by the Ack tests above; tenant A has a connected shop.
    translated.length = 0;
    const title = "三星手机壳 硅胶 黑色";
    const res = await predictCall(A.token, { site: 1, title, limit: 3 });
    expect(res.status, res.raw).toBe(200);
    const spanish = toSpanish[title];
    expect(translated).toEqual([expect.objectContaining({ q: [title], source: "zh", target: "es" })]);
    expect(res.body.result).toMatchObject({ title, site: 1, method: "translated", translatedTitle: spanish, note: null });
    expect(ids(res)).toEqual(predict(mlm(), spanish, 3).map((p) => p.category_id));
    expect(res.body.result.items[0]).toMatchObject({ known: true, selectable: true, fullZh: expect.stringMatching(/^中/) });
  });

  it("a failed translation, or no shop, falls back to the Chinese names", async () => {
    const failed = await predictCall(A.token, { site: 1, title: "拒绝翻译的标题" });
    expect(failed.status, failed.raw).toBe(200);
    expect(failed.body.result).toMatchObject({ method: "chineseNames", translatedTitle: null });
    expect(failed.body.result.note).toContain("翻译失败（翻译服务不支持该语言");
    // Tenant B has no shop: Mercado Libre cannot be asked, the Chinese names can.
    const noShop = await predictCall(B.token, { site: 1, title: "中Fundas para Samsung" });
    expect(noShop.status, noShop.raw).toBe(200);
    expect(noShop.body.result).toMatchObject({ method: "chineseNames", note: NOTE_NO_SHOP });
    expect(ids(noShop)[0]).toBe(idOf("Fundas para Samsung"));
  });

  it("without a translation service: matches the title against the Chinese names, best first, in one site", async () => {
    await setSetting("Translate.Provider", "");
    // Chinese names set by hand for the phone branch (a name set by hand stays; the Ack fills only missing ones).
    const zh: Record<string, string> = {
      "Celulares y Teléfonos": "手机和电话",
      "Accesorios para Celulares": "手机配件",
      "Fundas y Estuches": "手机壳",
      "Fundas para iPhone": "苹果手机壳",
      "Fundas para Samsung": "三星手机壳",
      "Fundas para Xiaomi": "小米手机壳",
    };
    await inScope(s.database.db, hostAllScope, async (tx) => {
      await tx.execute(
        sql`update meli_categories c set zh = v.zh from jsonb_to_recordset(${JSON.stringify(
          Object.entries(zh).map(([name, z]) => ({ name, zh: z })),
        )}::jsonb) as v(name text, zh text) where c.site = 1 and c.name = v.name`,
      );
      await refreshFullZh(tx, 1);
    });
    translated.length = 0;
    const res = await predictCall(A.token, { site: 1, title: "三星 Galaxy S23 手机壳 硅胶 防摔", limit: 3 });
    expect(res.status, res.raw).toBe(200);
    expect(translated).toEqual([]);
    expect(res.body.result).toMatchObject({ method: "chineseNames", translatedTitle: null, note: NOTE_NO_TRANSLATOR });
    // Samsung's cases hold 三星, 手机 and 机壳; iPhone's and Xiaomi's only 手机 and 机壳; all under 手机壳 (held whole).
    expect(ids(res)[0]).toBe(idOf("Fundas para Samsung"));
    expect(new Set(ids(res).slice(1))).toEqual(new Set([idOf("Fundas para iPhone"), idOf("Fundas para Xiaomi")]));
    expect(res.body.result.items[0]).toMatchObject({
      name: "Fundas para Samsung",
      fullZh: "手机和电话 > 手机配件 > 手机壳 > 三星手机壳",
      known: true,
      selectable: true,
      attributes: [],
    });

    // A category the host disabled is not offered.
    const samsung = idOf("Fundas para Samsung");
    const off = await s.api("POST", "/api/MeliCategory/UpdateAllCategoryStatus", {
      token: host,
      query: { site: 1 },
      body: { enable: false, cateIds: [samsung] },
    });
    expect(off.status, off.raw).toBe(200);
    const again = await predictCall(A.token, { site: 1, title: "三星 Galaxy S23 手机壳 硅胶 防摔", limit: 3 });
    expect(ids(again)).not.toContain(samsung);
    expect(new Set(ids(again).slice(0, 2))).toEqual(new Set([idOf("Fundas para iPhone"), idOf("Fundas para Xiaomi")]));
    await s.api("POST", "/api/MeliCategory/UpdateAllCategoryStatus", {
      token: host,
      query: { site: 1 },
      body: { enable: true, cateIds: [samsung] },
    });

    // A product with only a Chinese title is predicted from it.
    const created = await s.api("POST", "/api/Product/CreateOrUpdateProduct", { token: A.token, body: { title: { zh: "小米手机壳" } } });
    expect(created.status, created.raw).toBe(200);
    const byProduct = await predictCall(A.token, { site: 1, productId: created.body.result.id, limit: 1 });
    expect(byProduct.body.result).toMatchObject({ title: "小米手机壳", method: "chineseNames" });
    expect(ids(byProduct)).toEqual([idOf("Fundas para Xiaomi")]);
  });

  it("says why nothing can be predicted when the site has no Chinese names and there is no translation service", async () => {
    // Brazil's categories were never given Chinese names.
    const res = await predictCall(A.token, { site: 2, title: "手机壳" });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({ method: "chineseNames", items: [], note: NOTE_NO_CHINESE_NAMES });
    // A Spanish title still goes to Mercado Libre as it is.
    const direct = await predictCall(A.token, { site: 1, title: "Funda para celular" });
    expect(direct.body.result).toMatchObject({ method: "direct", translatedTitle: null, note: null });
  });
});
