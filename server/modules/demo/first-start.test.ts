// A first start on the built-in sandbox: the demo tenant gets its shop, collections, products, labels and a flagged
// product through the API, and the category trees are synced as a host task; with DEMO_DATA=0 the tenant stays empty.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { HOST_TENANT_ID, taskInfos, tenants, users } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer } from "../../testing/harness.ts";
import { CollectStatus, TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { Api } from "#shared/api/index.ts";
import { DEMO_TENANT, DEMO_USER } from "../../bootstrap.ts";
import { apiAs, injectFetch } from "./api-as.ts";
import { DEMO_COLLECTS, DEMO_LABELS, DEMO_PRODUCTS, DEMO_SHOP } from "./demo-content.ts";
import { createFirstStart, DEMO_JOB } from "./first-start.ts";
import { DEMO_IMAGE_PREFIX } from "./demo-images.ts";

async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 240_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: still ${JSON.stringify(v)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function demoUser(s: TestServer) {
  const [row] = await inScope(s.database.db, hostAllScope, (tx) =>
    tx
      .select({ tenantId: tenants.id, userId: users.id })
      .from(tenants)
      .innerJoin(users, and(eq(users.tenantId, tenants.id), eq(users.userName, DEMO_USER)))
      .where(eq(tenants.name, DEMO_TENANT)),
  );
  return row;
}

describe("first start with the demo content on", () => {
  let s: TestServer;
  let demo: Api;
  beforeAll(async () => {
    s = await startTestServer({ demoData: true });
    const who = await demoUser(s);
    expect(who).toBeDefined();
    demo = await apiAs(injectFetch(s.app), s.deps, who!);
  });
  afterAll(() => s?.close());

  it("gives the demo tenant a shop, collections, products, labels and one flagged product", async () => {
    // The last step: the screening flags a product.
    const products = await until(
      "flagged product",
      () => demo.product.getProductsByPage({ maxResultCount: 100 }),
      (p) => p.items.some((i) => i.infringementWord),
    );
    expect(products.totalCount).toBe(DEMO_PRODUCTS);
    expect(products.items.filter((i) => i.infringementWord)).toHaveLength(1);
    expect(new Set(products.items.map((i) => i.labelName).filter(Boolean))).toEqual(new Set(DEMO_LABELS));

    const shops = await demo.meliAccount.getAccounts({ MaxResultCount: 10 });
    expect(shops.items.map((a) => a.name)).toContain(DEMO_SHOP);

    const collects = await demo.collect.getCollect({ maxResultCount: 100 });
    expect(collects.totalCount).toBe(DEMO_COLLECTS);
  });

  it("shows the moved collections as 已导入, offers no undo of its labelling, and pictures the products itself", async () => {
    await until(
      "flagged product",
      () => demo.product.getProductsByPage({ maxResultCount: 100 }),
      (p) => p.items.some((i) => i.infringementWord),
    );
    // The job ends after the screening: wait for it to be done, so the undo record is final.
    await until(
      "demo job",
      async () =>
        rowsOf<{ n: number }>(
          await s.database.db.execute(sql`select count(*)::int as n from pgboss.job where name = ${DEMO_JOB} and state = 'completed'`),
        )[0].n,
      (n) => n === 1,
    );
    const migrated = await demo.collect.getCollect({ status: CollectStatus.Migrated, maxResultCount: 100 });
    expect(migrated.totalCount).toBe(DEMO_PRODUCTS);
    const waiting = await demo.collect.getCollect({ status: CollectStatus.Collected, maxResultCount: 100 });
    expect(waiting.totalCount).toBe(DEMO_COLLECTS - DEMO_PRODUCTS);

    expect(await demo.product.getLastProductEdit()).toBeNull();

    const products = await demo.product.getProductsByPage({ maxResultCount: 100 });
    const pictures = products.items.map((p) => p.image);
    const base = `${s.deps.config.publicUrl.replace(/\/$/, "")}${DEMO_IMAGE_PREFIX}`;
    for (const picture of pictures) expect(picture?.startsWith(base), String(picture)).toBe(true);
    const served = await s.app.inject({ method: "GET", url: new URL(pictures[0]!).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.rawPayload.subarray(1, 4).toString("ascii")).toBe("PNG");
  });

  it("syncs the category trees as a host task, so a tenant reads a site's categories at once", async () => {
    const task = await until(
      "category sync task",
      () =>
        inScope(s.database.db, hostAllScope, (tx) =>
          tx
            .select({ status: taskInfos.taskStatus, remark: taskInfos.taskRemark })
            .from(taskInfos)
            .where(and(eq(taskInfos.tenantId, HOST_TENANT_ID), eq(taskInfos.taskType, TaskType.SyncCategories))),
        ),
      (rows) => rows.length === 1 && rows[0].status !== TaskStatus.Pending && rows[0].status !== TaskStatus.Running,
    );
    expect(task[0].status, task[0].remark ?? "").toBe(TaskStatus.Succeeded);
    const roots = await demo.meliCategory.getCategoryBySiteId({ siteId: 1 });
    expect(roots.length).toBeGreaterThan(5);
  });
});

describe("first start with DEMO_DATA=0", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  it("adds nothing to the demo tenant", async () => {
    const owner = await s.createTenant();
    const firstStart = createFirstStart(s.app, { ...s.deps, config: { ...s.deps.config, demoData: false } });
    await firstStart.queue({
      adminCreated: true,
      demo: {
        tenantId: owner.tenantId,
        userId: owner.userId,
        tenantName: owner.tenantName,
        userName: owner.userName,
        password: owner.password,
      },
    });
    const api = await apiAs(injectFetch(s.app), s.deps, owner);
    // Long enough for a queued job to have started (the queue polls every 0.5 s).
    await new Promise((r) => setTimeout(r, 3000));
    expect((await api.collect.getCollect({})).totalCount).toBe(0);
    expect((await api.meliAccount.getAccounts({})).totalCount).toBe(0);
    const queued = await s.database.db.execute(sql`select count(*)::int as n from pgboss.job where name = ${DEMO_JOB}`);
    expect(rowsOf<{ n: number }>(queued)[0].n).toBe(0);
  });
});
