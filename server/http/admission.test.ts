// The admission of calls: a tenant's share and the bulk-edit turn are given in arrival order, one tenant's full share
// or queue of bulk edits never holds up another tenant, and a wait past its limit (or past the queue's length) answers
// 503 with Retry-After instead of waiting without bound.
import { describe, expect, it } from "vitest";
import { AppError } from "./errors.ts";
import { createAdmission, KeyedSemaphore, type AdmissionLimits } from "./admission.ts";

const limits: AdmissionLimits = { tenantShare: 2, tenantWaitMs: 1_000, bulkSlots: 2, bulkWaitMs: 1_000, bulkQueue: 3 };

/** Whether a promise has settled by the next turn of the event loop. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setImmediate(r));
  return done;
}

describe("KeyedSemaphore", () => {
  it("gives at most `limit` slots per key, the next one to the first waiter, and other keys are not held up", async () => {
    const sem = new KeyedSemaphore(2, 1_000, 10, "busy");
    const a1 = await sem.acquire("a");
    await sem.acquire("a");
    const order: string[] = [];
    const a3 = sem.acquire("a").then((r) => (order.push("a3"), r));
    const a4 = sem.acquire("a").then((r) => (order.push("a4"), r));
    expect(await settled(a3)).toBe(false);
    expect(await settled(sem.acquire("b"))).toBe(true); // another key has its own slots
    expect(sem.load("a")).toEqual({ running: 2, waiting: 2 });
    a1();
    a1(); // a second release of the same slot changes nothing
    await a3;
    expect(await settled(a4)).toBe(false);
    expect(order).toEqual(["a3"]);
    expect(sem.load("a")).toEqual({ running: 2, waiting: 1 });
    (await a3)();
    await a4;
    expect(order).toEqual(["a3", "a4"]);
  });

  it("answers 503 with Retry-After when the wait passes its limit, and the slot is not lost", async () => {
    const sem = new KeyedSemaphore(1, 50, 10, "服务器繁忙，请稍后重试");
    const first = await sem.acquire("a");
    const started = Date.now();
    const err = await sem.acquire("a").catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 503, message: "服务器繁忙，请稍后重试", retryAfterHeader: 2 });
    expect(sem.load("a")).toEqual({ running: 1, waiting: 0 });
    first();
    expect(sem.load("a")).toEqual({ running: 0, waiting: 0 });
    expect(await settled(sem.acquire("a"))).toBe(true);
  });

  it("answers 503 at once when the queue is full", async () => {
    const sem = new KeyedSemaphore(1, 10_000, 2, "排队过多");
    const first = await sem.acquire("a");
    const w1 = sem.acquire("a");
    const w2 = sem.acquire("a");
    await expect(sem.acquire("a")).rejects.toMatchObject({ status: 503, message: "排队过多" });
    first();
    (await w1)();
    (await w2)();
    expect(sem.load("a")).toEqual({ running: 0, waiting: 0 });
  });
});

describe("createAdmission", () => {
  it("runs one bulk edit at a time per tenant while another tenant's bulk edit runs beside it", async () => {
    const admission = createAdmission(limits);
    const a1 = await admission.enter("A", true);
    const a2 = admission.enter("A", true);
    const b1 = admission.enter("B", true);
    expect(await settled(a2)).toBe(false);
    expect(await settled(b1)).toBe(true);
    a1();
    expect(await settled(a2)).toBe(true);
    (await a2)();
    (await b1)();
  });

  it("bounds the bulk edits over all tenants, and plain calls still pass", async () => {
    const admission = createAdmission(limits);
    const a = await admission.enter("A", true);
    const b = await admission.enter("B", true);
    const c = admission.enter("C", true);
    expect(await settled(c)).toBe(false); // two bulk slots overall
    expect(await settled(admission.enter("C", false))).toBe(true);
    a();
    (await c)();
    b();
  });

  it("keeps one tenant to its share: its next call waits, another tenant's does not", async () => {
    const admission = createAdmission(limits);
    const held = [await admission.enter("A", false), await admission.enter("A", false)];
    const third = admission.enter("A", false);
    expect(await settled(third)).toBe(false);
    const other = admission.enter("B", false);
    expect(await settled(other)).toBe(true);
    held[0]();
    (await third)();
    held[1]();
    (await other)();
  });

  it("a bulk edit refused while waiting for its tenant's share gives back its bulk turn", async () => {
    const admission = createAdmission({ ...limits, tenantShare: 1, tenantWaitMs: 30 });
    const plain = await admission.enter("A", false);
    await expect(admission.enter("A", true)).rejects.toMatchObject({ status: 503 });
    plain();
    // The refused edit's turn and slot were released: the next edit of A gets in at once.
    expect(await settled(admission.enter("A", true))).toBe(true);
  });
});
