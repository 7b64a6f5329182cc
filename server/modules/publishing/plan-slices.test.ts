// A large publish never holds the database or the event loop for its whole planning (issue 29: while 10,000 products
// were planned in Publish's transaction, /health and other tenants' calls waited 18 s on PGlite). The plans are made in
// slices of short transactions before the call's own (plan-slices.ts): a /health sent once the first slice is planned
// is answered before the publish answers, and the batch still holds every product. Within a slice too, the event loop
// comes round between products once a turn's work has run (turns.ts): counted here with a clock that makes every
// product's planning a turn long, so no wall-clock time is asserted.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, until } from "../../testing/publish-kit.ts";
import { preflight } from "#shared/publish/preflight.ts";
import { TURN_MS } from "../../turns.ts";
import { PLAN_SLICE } from "./plan-slices.ts";

// The pre-flight as it is, its calls counted.
vi.mock("#shared/publish/preflight.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("#shared/publish/preflight.ts")>();
  return { ...real, preflight: vi.fn(real.preflight) };
});

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

  it("gives the event loop back between products however long each takes to plan", async () => {
    // Each reading of the clock a turn's work later than the one before: every product's planning spends a turn.
    const realNow = performance.now.bind(performance);
    let readings = 0;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => realNow() + TURN_MS * readings++);
    const planned = vi.mocked(preflight);
    planned.mockClear();
    // A turn of the event loop (setImmediate runs once per turn): the most pre-flights run between two turns.
    let most = 0;
    let seen = 0;
    let ticking = true;
    const tick = () => {
      most = Math.max(most, planned.mock.calls.length - seen);
      seen = planned.mock.calls.length;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    try {
      const res = await s.api("POST", "/api/MeliStatNew/Publish", {
        token: t.token,
        body: { accountGroupId: group, sites: [1], filter: {}, isAllowDuplicate: true },
        headers: { "idempotency-key": randomUUID() },
      });
      expect(res.status, res.raw).toBe(200);
      expect(res.body.result).toMatchObject({ total: PRODUCTS, skipped: PRODUCTS });
    } finally {
      ticking = false;
      clock.mockRestore();
    }
    // Every product planned (in the slices), one pair (one site) at most between two turns: before, a whole slice.
    expect(planned.mock.calls.length).toBeGreaterThanOrEqual(PRODUCTS);
    expect(most).toBe(1);
  }, 180_000);
});
