// Rate limits per seller and per app answering 429 (Retry-After, sometimes an empty body) on one-minute windows of the
// sandbox clock; forced errors; call counters; and the same controls over HTTP under /_sandbox.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type TestSandbox } from "../testing/sandbox-kit.ts";

let t: TestSandbox;

beforeEach(async () => {
  t = await startSandbox({ rateLimit: { perSellerPerMinute: 5 } });
});
afterEach(() => t.close());

const me = (token: string) => t.call("GET", "/users/me", { token });

describe("rate limits", () => {
  it("answers 429 with Retry-After past a seller's rate, and again 200 when the minute rolls over", async () => {
    const a = await t.connect("RATE_A");
    const b = await t.connect("RATE_B");
    for (let i = 0; i < 5; i++) expect((await me(a.access_token)).status).toBe(200);
    t.control.clock.advance(20_000);
    const over = await me(a.access_token);
    expect(over.status).toBe(429);
    expect(over.headers["retry-after"]).toBe("40");
    expect(over.body).toEqual({ message: "Too Many Requests", error: "local_rate_limited", status: 429, cause: [] });
    // Another seller has its own window.
    expect((await me(b.access_token)).status).toBe(200);
    t.control.clock.advance(40_000);
    expect((await me(a.access_token)).status).toBe(200);
  });

  it("sets one seller's limit apart, and can leave out Retry-After and the body", async () => {
    const a = await t.connect("RATE_C");
    const b = await t.connect("RATE_D");
    t.control.setRateLimit({ sellerId: a.user_id, perMinute: 1, retryAfter: false, emptyBodyEvery: 1 });
    expect((await me(a.access_token)).status).toBe(200);
    const over = await me(a.access_token);
    expect(over.status).toBe(429);
    expect(over.headers["retry-after"]).toBeUndefined();
    expect(over.raw).toBe("");
    for (let i = 0; i < 5; i++) expect((await me(b.access_token)).status).toBe(200);
  });

  it("limits the app across its sellers", async () => {
    const a = await t.connect("APP_A");
    const b = await t.connect("APP_B");
    t.control.setRateLimit({ perSellerPerMinute: 100, perAppPerMinute: 3 });
    expect((await me(a.access_token)).status).toBe(200);
    expect((await me(b.access_token)).status).toBe(200);
    expect((await me(a.access_token)).status).toBe(200);
    expect((await me(b.access_token)).status).toBe(429);
  });

  it("gives order searches their own lower limit", async () => {
    const a = await t.connect("ORDERS_RATE");
    t.control.setRateLimit({ perSellerPerMinute: 100, orderSearchPerMinute: 2 });
    const orders = () => t.call("GET", "/orders/search", { token: a.access_token, query: { seller: a.user_id } });
    expect((await orders()).status).toBe(200);
    expect((await orders()).status).toBe(200);
    expect((await orders()).status).toBe(429);
    expect((await me(a.access_token)).status).toBe(200);
  });
});

describe("forced errors", () => {
  it("answers the next N calls to a path with the status, then lets calls through", async () => {
    const a = await t.connect("INJECT_A");
    t.control.inject({ path: "/users/me", status: 503, times: 2 });
    expect((await me(a.access_token)).body).toMatchObject({ status: 503, error: "service_unavailable" });
    expect((await me(a.access_token)).status).toBe(503);
    expect((await me(a.access_token)).status).toBe(200);
  });

  it("matches method and pattern, sends the given body and headers, and applies before auth", async () => {
    t.control.inject({ method: "POST", path: /^\/items\/MLM\d+$/, status: 429, body: "", headers: { "Retry-After": "7" } });
    // Another method on the same path is not injected: it reaches auth (item reads are public, so a PUT).
    expect((await t.call("PUT", "/items/MLM1", { body: {} })).status).toBe(401);
    const hit = await t.call("POST", "/items/MLM1", { body: {} });
    expect(hit.status).toBe(429);
    expect(hit.raw).toBe("");
    expect(hit.headers["retry-after"]).toBe("7");
    t.control.inject({ path: "/not/a/route", status: 500, body: { message: "boom" } });
    expect((await t.call("GET", "/not/a/route")).body).toEqual({ message: "boom" });
    expect((await t.call("GET", "/not/a/route")).status).toBe(404);
    t.control.inject({ path: "/sites/MLM/categories", status: 500, body: { message: "boom" } });
    expect((await t.call("GET", "/sites/MLM/categories")).body).toEqual({ message: "boom" });
    expect((await t.call("GET", "/sites/MLM/categories")).status).toBe(200);
  });
});

describe("counters", () => {
  it("counts calls per endpoint pattern, whatever they answered", async () => {
    const a = await t.connect("COUNT_A");
    await me(a.access_token);
    await t.call("GET", "/items/MLM1", { token: a.access_token });
    await t.call("GET", "/items/MLM2", { token: a.access_token });
    await t.call("GET", "/items/MLM3");
    const calls = t.control.calls();
    expect(calls["GET /items/:id"]).toBe(3);
    expect(calls["GET /users/me"]).toBe(1);
    expect(calls["POST /oauth/token"]).toBe(1);
    expect(calls["POST /auth/authorization"]).toBe(1);
    t.control.resetCalls();
    expect(t.control.calls()).toEqual({});
  });
});

describe("the /_sandbox control endpoints", () => {
  it("move the clock, set limits, force errors, set the app, create sellers and orders, count, and reset", async () => {
    const clock = await t.call("POST", "/_sandbox/clock", { body: { advanceSeconds: 3600 } });
    expect(clock.body.now).toBe("2026-03-02T13:00:00.000Z");
    const seller = await t.call("POST", "/_sandbox/sellers", { body: { nickname: "HTTP_SELLER", site: "CBT", marketplaces: ["MLC"] } });
    expect(seller.body).toMatchObject({ nickname: "HTTP_SELLER", site_id: "CBT", marketplaces: [{ site_id: "MLC" }] });
    const order = await t.call("POST", "/_sandbox/orders", { body: { sellerId: seller.body.marketplaces[0].user_id } });
    expect(order.body).toMatchObject({ currency_id: "CLP", seller: { id: seller.body.marketplaces[0].user_id } });
    await t.call("POST", "/_sandbox/inject", { body: { path: "/sites", status: 502, times: 1 } });
    expect((await t.call("GET", "/sites")).status).toBe(502);
    expect(
      (await t.call("POST", "/_sandbox/app", { body: { clientId: "42", clientSecret: "pw", redirectUris: ["https://x.example/cb"] } }))
        .status,
    ).toBe(200);
    expect(t.control.app()).toMatchObject({ clientId: "42", clientSecret: "pw", redirectUris: ["https://x.example/cb"] });
    expect((await t.call("POST", "/_sandbox/rate-limit", { body: { perSellerPerMinute: 1 } })).status).toBe(200);
    const state = await t.call("GET", "/_sandbox/state");
    expect(state.body).toMatchObject({ now: "2026-03-02T13:00:00.000Z", app: { client_id: "42" }, calls: { "GET /sites": 1 } });
    expect((await t.call("GET", "/_sandbox/creations")).body).toEqual({ creations: [], duplicates: [] });
    expect((await t.call("POST", "/_sandbox/reset")).status).toBe(200);
    expect(t.control.seller(seller.body.id)).toBeNull();
    expect(t.control.app().clientId).not.toBe("42");
    expect(t.control.clock.now().toISOString()).toBe("2026-03-02T12:00:00.000Z");
  });

  it("are absent when adminRoutes is false", async () => {
    const closed = await startSandbox({ adminRoutes: false });
    try {
      expect((await closed.call("POST", "/_sandbox/reset")).status).toBe(404);
    } finally {
      await closed.close();
    }
  });
});
