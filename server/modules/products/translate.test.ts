// TranslateProduct through the real HTTP stack and job queue, against a loopback LibreTranslate speaking its real wire
// format: the clear refusal without a configured service, titles (and descriptions) written in the target language
// from each product's source language, the task record's progress, the products marked edited, undo restoring the
// titles and statuses, and visibility.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products, taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { ProductStatus, TaskStatus } from "#shared/contract/enums.ts";
import { sourceLanguage } from "./translate.ts";

let s: TestServer;
let host: string;
let fake: Server;
let fakeUrl: string;
const requests: { source: string; target: string; q: string[]; format: string }[] = [];
/** The request (by how many were answered before it) the loopback service refuses once; null: none. */
let refuseAt: number | null = null;

beforeAll(async () => {
  // LibreTranslate: GET /languages, POST /translate {q: [...], source, target, format} → {translatedText: [...]}.
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
      if (refuseAt !== null && requests.length === refuseAt) {
        // Busy for longer than the client waits: the job fails as retryable and the queue runs it again.
        refuseAt = null;
        res.statusCode = 429;
        res.setHeader("retry-after", "3600");
        res.end(JSON.stringify({ error: "Slowdown: too many requests" }));
        return;
      }
      requests.push(body);
      res.end(JSON.stringify({ translatedText: body.q.map((t: string) => `[${body.target}] ${t}`) }));
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  s = await startTestServer();
  host = await s.adminToken();
});
afterAll(async () => {
  await s?.close();
  await new Promise((r) => fake.close(r));
});

async function setSetting(key: string, value: string) {
  const list = await s.api("GET", "/api/SystemConfigSetting/GetList", { token: host, query: { Search: key, MaxResultCount: 100 } });
  const existing = (list.body.result?.items ?? []).find((x: { key: string }) => x.key === key);
  const res = await s.api("POST", "/api/SystemConfigSetting/CreateOrUpdate", {
    token: host,
    body: { id: existing?.id ?? null, name: key, key, value },
  });
  expect(res.status, res.raw).toBe(200);
}

async function insert(t: TestTenant, owner: string, rows: Partial<typeof products.$inferInsert>[]) {
  const values = rows.map((r) => ({ tenantId: t.tenantId, id: randomUUID(), userId: owner, ...r }));
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) => tx.insert(products).values(values));
  return values.map((v) => v.id);
}
const read = (t: TestTenant, ids: string[]) =>
  inScope(s.database.db, { tenantId: t.tenantId }, (tx) => tx.select().from(products).where(inArray(products.id, ids)));

async function finished(t: TestTenant, taskId: string) {
  for (let i = 0; i < 200; i++) {
    const [task] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.select().from(taskInfos).where(eq(taskInfos.id, taskId)),
    );
    if (task.taskStatus === TaskStatus.Succeeded || task.taskStatus === TaskStatus.Failed) return task;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("translation task did not finish");
}

const { Unedited, Ready, Archived } = ProductStatus;
const translate = (token: string, body: unknown) => s.api("POST", "/api/Product/TranslateProduct", { token, body });

describe("TranslateProduct", () => {
  it("says clearly when no translation service is configured, and changes nothing", async () => {
    const t = await s.createTenant();
    const [id] = await insert(t, t.userId, [{ title: { zh: "手机壳" } }]);
    const res = await translate(t.token, { productIds: [id], to: "es" });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain("翻译服务未配置");
    expect((await read(t, [id]))[0].title).toEqual({ zh: "手机壳" });
    const last = await s.api("GET", "/api/Product/GetLastProductEdit", { token: t.token });
    expect(last.body.result).toBeNull();
  });

  it("translates titles and descriptions from each product's language, reports progress, and undoes", async () => {
    await setSetting("Translate.Provider", "libretranslate");
    await setSetting("Translate.Url", fakeUrl);
    const t = await s.createTenant();
    const ids = await insert(t, t.userId, [
      { title: { zh: "红色 手机壳" }, description: { zh: "<p>好</p>" } },
      { title: { en: "Winter coat", es: "Abrigo" }, description: {} },
      { title: { pt: "Sapato" }, status: ProductStatus.Archived },
      { title: {} },
    ]);
    requests.length = 0;
    const res = await translate(t.token, { productIds: ids, to: "es", isContainsDescription: true });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.count).toBe(4);
    const task = await finished(t, res.body.result.taskId);
    expect(task.taskStatus).toBe(TaskStatus.Succeeded);
    expect(task.progress).toBe(100);
    expect(task.taskRemark).toContain("已翻译 3 个商品");
    const rows = new Map((await read(t, ids)).map((r) => [r.id, r]));
    expect(rows.get(ids[0])!.title).toEqual({ zh: "红色 手机壳", es: "[es] 红色 手机壳" });
    expect(rows.get(ids[0])!.description).toEqual({ zh: "<p>好</p>", es: "[es] <p>好</p>" });
    expect(rows.get(ids[1])!.title).toEqual({ en: "Winter coat", es: "[es] Winter coat" });
    expect(rows.get(ids[2])!.title).toEqual({ pt: "Sapato", es: "[es] Sapato" });
    expect(rows.get(ids[3])!.title).toEqual({});
    expect(rows.get(ids[2])!.searchText).toContain("[es] sapato");
    expect(requests.some((r) => r.format === "html" && r.q.includes("<p>好</p>"))).toBe(true);
    // A translated product is edited; a status the user chose stays; nothing translated, nothing changes.
    expect(ids.map((id) => rows.get(id)!.status)).toEqual([Ready, Ready, Archived, Unedited]);

    const undo = await s.api("POST", "/api/Product/UndoProductEdit", { token: t.token, body: { id: res.body.result.editId } });
    expect(undo.status, undo.raw).toBe(200);
    const restored = new Map((await read(t, ids)).map((r) => [r.id, r]));
    expect(restored.get(ids[0])!.title).toEqual({ zh: "红色 手机壳" });
    expect(restored.get(ids[0])!.description).toEqual({ zh: "<p>好</p>" });
    expect(restored.get(ids[1])!.title).toEqual({ en: "Winter coat", es: "Abrigo" });
    expect(ids.map((id) => restored.get(id)!.status)).toEqual([Unedited, Unedited, Archived, Unedited]);
  });

  it("translates from the asked language only, never another tenant's or another user's products", async () => {
    const t = await s.createTenant();
    const other = await s.createTenant();
    const sub = await s.createSubUser(t);
    const [mine, subs] = [
      await insert(t, t.userId, [{ title: { zh: "杯子", en: "Cup" } }]),
      await insert(t, sub.id, [{ title: { en: "Mug" } }]),
    ];
    const [foreign] = await insert(other, other.userId, [{ title: { en: "Plate" } }]);
    const res = await translate(sub.token, { filter: {}, from: "en", to: "pt" });
    expect(res.body.result.count).toBe(1);
    await finished(t, res.body.result.taskId);
    expect((await read(t, subs))[0].title).toEqual({ en: "Mug", pt: "[pt] Mug" });
    expect((await read(t, mine))[0].title).toEqual({ zh: "杯子", en: "Cup" });
    const byOther = await translate(other.token, { productIds: mine, to: "pt" });
    expect(byOther.body.result).toEqual({ count: 0, editId: null, taskId: null });
    expect((await read(other, [foreign]))[0].title).toEqual({ en: "Plate" });
  });

  it("walks a large selection in batches, goes on after the last batch written when retried, and undoes every row", async () => {
    const t = await s.createTenant();
    const ids = await insert(
      t,
      t.userId,
      Array.from({ length: 120 }, (_, i) => ({ title: { en: `Lamp ${i}` }, status: i % 2 ? Unedited : Archived })),
    );
    requests.length = 0;
    refuseAt = 1;
    const res = await translate(t.token, { filter: {}, to: "pt" });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.count).toBe(120);
    // The undo button follows the edit at once, before any row is written.
    const early = await s.api("GET", "/api/Product/GetLastProductEdit", { token: t.token });
    expect(early.body.result).toMatchObject({ id: res.body.result.editId, kind: "TranslateProduct", canUndo: true });
    const task = await finished(t, res.body.result.taskId);
    expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Succeeded);
    expect(task.taskRemark).toContain("已翻译 120 个商品");
    // Three batches of at most 50, each sent once: the refused second one again, the first not again.
    expect(requests.map((r) => r.q.length)).toEqual([50, 50, 20]);
    expect(new Set(requests.flatMap((r) => r.q)).size).toBe(120);
    const rows = await read(t, ids);
    expect(rows.every((r) => (r.title as Record<string, string>).pt === `[pt] ${(r.title as Record<string, string>).en}`)).toBe(true);
    const last = await s.api("GET", "/api/Product/GetLastProductEdit", { token: t.token });
    expect(last.body.result).toMatchObject({ id: res.body.result.editId, rowCount: 120 });

    const undo = await s.api("POST", "/api/Product/UndoProductEdit", { token: t.token, body: { id: res.body.result.editId } });
    expect(undo.status, undo.raw).toBe(200);
    const restored = new Map((await read(t, ids)).map((r) => [r.id, r]));
    ids.forEach((id, i) => {
      expect(restored.get(id)!.title).toEqual({ en: `Lamp ${i}` });
      expect(restored.get(id)!.status).toBe(i % 2 ? Unedited : Archived);
    });
  });

  it("refuses bad input", async () => {
    const t = await s.createTenant();
    for (const body of [
      { productIds: [randomUUID()], to: "fr" },
      { to: "es" },
      { productIds: [], to: "es" },
      { productIds: [randomUUID()], from: "es", to: "es" },
      { productIds: [randomUUID()], to: "es", thirdPlatformType: 9 },
    ]) {
      const res = await translate(t.token, body);
      expect([400, 403], JSON.stringify(body)).toContain(res.status);
    }
    const other = await translate(t.token, { productIds: [randomUUID()], to: "es", thirdPlatformType: 2 });
    expect(other.status).toBe(403);
    expect(other.body.error.message).toContain("未配置");
  });

  it("picks the source language", () => {
    expect(sourceLanguage({ es: "a", zh: "b" }, null, "en")).toBe("zh");
    expect(sourceLanguage({ es: "a", en: " " }, null, "es")).toBeNull();
    expect(sourceLanguage({ es: "a", fr: "b" }, null, "es")).toBe("fr");
    expect(sourceLanguage({ es: "a" }, "zh", "en")).toBeNull();
  });
});
