// A large publish never holds the database or the event loop for its whole planning (issue 29: while 10,000 products
// were planned in Publish's transaction, /health and other tenants' calls waited 18 s on PGlite). The plans are made in
// slices of short transactions before the call's own (plan-slices.ts): a /health sent once the first slice is planned
// is answered before the publish answers, and the batch still holds every product.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, until } from "../../testing/publish-kit.ts";
import { PLAN_SLICE } from "./plan-slices.ts";

let s: TestServer;
let t: TestTenant;
let group: string;
const PRODUCTS = PLAN_SLICE * 2 + 200;

beforeAll(async () => {
  s = await startTestServer();
  t = await s.createTenant();
  group = await connectPublishingShop(s, t, { nickname: "SLICESELLER", site: "MLM", sites: [1] }, []);
  // Products without a price: every pair is planned and skipped by the pre-flight, nothing is sent.
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.execute(`insert into products (tenant_id, id, user_id, status, title)
      select '${t.tenantId}', gen_random_uuid(), '${t.userId}', 1, jsonb_build_object('es', 'slice ' || g)
      from generate_series(1, ${PRODUCTS}) g`),
  );
}, 180_000);
afterAll(() => s?.close());

describe("planning a large publish", () => {
  it("lets /health through between its slices, before the publish answers", async () => {
    const order: string[] = [];
    let health: Promise<unknown> | null = null;
    const debug = vi.spyOn(s.deps.log, "debug").mockImplementation(((obj: unknown, msg?: string) => {
      if (msg === "publish: planned a slice" && !health) {
        order.push("first slice planned");
        health = s.api("GET", "/health").then((r) => order.push(`health ${r.status}`));
      }
    }) as never);
    try {
      const res = await s.api("POST", "/api/MeliStatNew/Publish", {
        token: t.token,
        body: { accountGroupId: group, sites: [1], filter: {} },
        headers: { "idempotency-key": randomUUID() },
      });
      order.push("publish answered");
      expect(res.status, res.raw).toBe(200);
      expect(res.body.result).toMatchObject({ total: PRODUCTS, skipped: PRODUCTS });
      await until(
        async () => health,
        (h) => h !== null,
        "the /health request",
      );
      await health;
      expect(order).toEqual(["first slice planned", "health 200", "publish answered"]);
    } finally {
      debug.mockRestore();
    }
  }, 180_000);
});
