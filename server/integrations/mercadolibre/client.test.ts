// The adapter against the sandbox (MERCADO-LIBRE.md, RELIABILITY.md §9 and §10): the refresh race (one refresh for
// 20 concurrent calls, within a process and across two clients), a 401 answered by one refresh, 429 with Retry-After
// (no call before it, in any client), back-off without it, the shared token bucket, Mercado Libre's errors as
// MeliApiError, and the category reads the category sync builds on.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { whileUserWaits } from "../../user-waiting.ts";
import { createMeliClient, type MeliClient, type MeliTuning } from "./client.ts";
import { MeliApiError } from "./errors.ts";
import { sleep } from "./rate-limit.ts";
import { sandboxFetch, type MeliFetch } from "./transport.ts";
import type { ShopRef } from "./tokens.ts";
import { getAllCategories, getCategory, getCategoryAttributes, getSiteCategories, predictCategory } from "./endpoints/categories.ts";
import { getListingPrices } from "./endpoints/fees.ts";
import { getMe } from "./endpoints/users.ts";

let s: TestServer;
let A: TestTenant;
let shop: ShopRef;
let sellerId: number;
let nickname: string;

/** Every request a client sends, with when it left and what came back. */
type Sent = { at: number; method: string; path: string; status: number; doneAt: number };

function recordingFetch(log: Sent[]): MeliFetch {
  const inner = sandboxFetch(s.deps.sandbox!);
  return async (url, init) => {
    const at = Date.now();
    const res = await inner(url, init);
    log.push({ at, method: init.method, path: new URL(url).pathname.replace("/sandbox/meli", ""), status: res.status, doneAt: Date.now() });
    return res;
  };
}

/** Another client on the same database, as a second worker process would have. */
function client(tuning: Partial<MeliTuning> = {}, log: Sent[] = []): MeliClient {
  const c = s.deps.config;
  return createMeliClient({
    apiUrl: c.meliApiUrl,
    authUrl: c.meliAuthUrl,
    clientId: c.meliClientId,
    clientSecret: c.meliClientSecret,
    fetch: recordingFetch(log),
    database: s.database,
    secrets: s.deps.secrets,
    tuning,
  });
}

const control = () => s.deps.sandbox!.control;
const expireInDatabase = (ref: ShopRef) =>
  inScope(s.database.db, { tenantId: ref.tenantId }, (tx) =>
    tx.execute(
      sql`update meli_account_groups set token_expires_at = now() - interval '1 minute' where tenant_id = ${ref.tenantId} and id = ${ref.groupId}`,
    ),
  );
const blockedUntil = async (key: string) =>
  rowsOf<{ b: boolean }>(
    await s.database.db.execute(
      sql`select coalesce(blocked_until > clock_timestamp(), false) as b from meli_rate_buckets where key = ${key}`,
    ),
  )[0]?.b ?? false;
const tokenVersion = async (ref: ShopRef) =>
  rowsOf<{ v: number }>(
    await inScope(s.database.db, { tenantId: ref.tenantId }, (tx) =>
      tx.execute(sql`select token_version as v from meli_account_groups where tenant_id = ${ref.tenantId} and id = ${ref.groupId}`),
    ),
  )[0].v;

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  nickname = uniqueName("ADAPTER").toUpperCase();
  const page = await connectShop(s, A.token, { nickname });
  expect(page.ok, page.message).toBe(true);
  shop = { tenantId: A.tenantId, groupId: page.params.get("groupId")! };
  sellerId = s.deps.sandbox!.store.userByNickname(nickname)!.id;
});
afterAll(() => s?.close());
beforeEach(() => {
  control().clearInjections();
  control().resetCalls();
});

describe("the refresh race (RELIABILITY.md §10)", () => {
  it("20 concurrent calls that find the token expired make exactly one refresh, and all succeed", async () => {
    await expireInDatabase(shop);
    control().clock.advance(7 * 3600_000); // expired at Mercado Libre too
    const before = await tokenVersion(shop);
    const meli = s.deps.meli.shop(shop);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => getMe(meli)));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(results.every((r) => r.status === "fulfilled" && r.value.nickname === nickname)).toBe(true);
    expect(control().callCount("POST /oauth/token")).toBe(1);
    expect(control().callCount("GET /users/me")).toBe(20);
    expect(await tokenVersion(shop)).toBe(before + 1);
  });

  it("across two clients (two workers) the database lease still allows one refresh", async () => {
    await expireInDatabase(shop);
    control().clock.advance(7 * 3600_000);
    const one = client().shop(shop);
    const two = client().shop(shop);
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => getMe(i % 2 ? one : two)));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(control().callCount("POST /oauth/token")).toBe(1);
  });

  it("a token Mercado Libre refuses early (401 invalid_token) is refreshed once for all callers, then retried once", async () => {
    control().clock.advance(7 * 3600_000); // expired at Mercado Libre only: our row still says valid
    const meli = s.deps.meli.shop(shop);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => getMe(meli)));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(control().callCount("POST /oauth/token")).toBe(1);
    expect(control().callCount("GET /users/me")).toBe(40);
    // A second 401 after the refresh is not retried again.
    control().inject({ path: "/users/me", status: 401, times: 2 });
    const err = await getMe(meli).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "reauthorize", status: 403 });
    expect(control().callCount("POST /oauth/token")).toBe(2);
  });
});

describe("429 (RELIABILITY.md §9)", () => {
  it("makes no call before Retry-After, in this client or another one sharing the database", async () => {
    const log: Sent[] = [];
    const first = client({}, log);
    const second = client({}, log);
    control().inject({ path: "/users/me", status: 429, headers: { "retry-after": "1" } });
    const call = getMe(first.shop(shop));
    // Once the 429 is recorded as the seller's back-off, another worker calls the same seller.
    while (!(await blockedUntil(`seller:${sellerId}`))) await new Promise((r) => setTimeout(r, 5));
    const other = getMe(second.shop(shop));
    await Promise.all([call, other]);
    const refused = log.find((e) => e.status === 429)!;
    const after = log.filter((e) => e.path === "/users/me" && e !== refused);
    expect(after).toHaveLength(2);
    for (const e of after) expect(e.at - refused.doneAt).toBeGreaterThanOrEqual(1000);
    expect(after.every((e) => e.status === 200)).toBe(true);
  });

  it("backs off exponentially without Retry-After, and gives up after the bounded attempts as retryable", async () => {
    const log: Sent[] = [];
    const meli = client({ backoffBaseMs: 100, maxAttempts: 4 }, log);
    control().setRateLimit({ retryAfter: false });
    try {
      control().inject({ path: "/users/me", status: 429, times: 3 });
      expect((await getMe(meli.shop(shop))).nickname).toBe(nickname);
      const gaps = log.slice(1).map((e, i) => e.at - log[i].doneAt);
      expect(gaps).toHaveLength(3);
      // Attempt n waits between half and all of 100 ms × 2^(n-1).
      gaps.forEach((g, i) => expect(g).toBeGreaterThanOrEqual(50 * 2 ** i - 2));
      control().inject({ path: "/users/me", status: 429, body: "", times: 4 });
      const err = await getMe(meli.shop(shop)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MeliApiError);
      expect(err).toMatchObject({ kind: "rate-limited", status: 429, retryable: true, message: "美客多请求过于频繁，请稍后重试" });
    } finally {
      control().setRateLimit({ retryAfter: true });
    }
  });

  it("does not wait out a Retry-After longer than the limit: the call fails as retryable with the wait", async () => {
    control().inject({ path: "/users/me", status: 429, headers: { "retry-after": "120" } });
    const err = await getMe(client().shop(shop)).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "rate-limited", retryAfterSeconds: 120, retryable: true });
  });
});

describe("the shared token bucket", () => {
  it("holds two clients together to the seller's rate through the database", async () => {
    const tuning = { sellerPerMinute: 600, sellerBurst: 2 }; // 10 a second
    const log: Sent[] = [];
    // A seller of its own, so no earlier call has moved its bucket.
    const other = uniqueName("BUCKET").toUpperCase();
    const page = await connectShop(s, A.token, { nickname: other });
    const ref = { tenantId: A.tenantId, groupId: page.params.get("groupId")! };
    const a = client(tuning, log).shop(ref);
    const b = client(tuning, log).shop(ref);
    log.length = 0;
    const started = Date.now();
    await Promise.all(Array.from({ length: 14 }, (_, i) => getMe(i % 2 ? a : b)));
    const elapsed = Date.now() - started;
    // 2 at once, then one every 100 ms: the 14th leaves at ≥ 1.2 s.
    expect(elapsed).toBeGreaterThanOrEqual(1195);
    // A call may leave late (a busy machine) but never before its slot: the i-th to leave, at ≥ (i − 1) × 100 ms.
    const times = log.map((e) => e.at).sort((x, y) => x - y);
    times.forEach((t, i) => expect(t - started, `call ${i}`).toBeGreaterThanOrEqual(Math.max(0, i - 1) * 100 - 5));
  });
});

describe("a 429's hold in this process", () => {
  it("is kept by the process's own clock: a step of the wall clock does not end it", async () => {
    const c = client();
    const key = `seller:${uniqueName("CLOCK")}`;
    await c.buckets.block(key, 5);
    // The wall clock jumps an hour ahead (a machine's clock set right): the hold still lasts its 5 s.
    const wallClock = Date.now;
    const stepped = vi.spyOn(Date, "now").mockImplementation(() => wallClock() + 3_600_000);
    const stop = new AbortController();
    try {
      const order: string[] = [];
      const held = c.buckets.hold([key], stop.signal).then(
        () => order.push("hold ended"),
        () => order.push("hold stopped"),
      );
      await sleep(200).then(() => order.push("200 ms passed"));
      stop.abort();
      await held;
      expect(order).toEqual(["200 ms passed", "hold stopped"]);
    } finally {
      stop.abort();
      stepped.mockRestore();
    }
  });
});

describe("a call a user waits on at the screen", () => {
  it("queues for its buckets a bounded time: past it, it gives its place back and says 美客多繁忙, sending nothing", async () => {
    const tuning = { sellerPerMinute: 60, sellerBurst: 1, userMaxWaitMs: 1_500 }; // one a second
    const log: Sent[] = [];
    const other = uniqueName("WAITING").toUpperCase();
    const page = await connectShop(s, A.token, { nickname: other });
    const ref = { tenantId: A.tenantId, groupId: page.params.get("groupId")! };
    const otherId = s.deps.sandbox!.store.userByNickname(other)!.id;
    const c = client(tuning, log);
    const key = `seller:${otherId}`;
    const bucket = { key, perMinute: 60, burst: 1 };
    // The seller is held back for the next 5 s (a 429's back-off; a job waits as long as it takes).
    await c.buckets.take([bucket]);
    await c.buckets.block(key, 5);
    const queuedUntil = async () =>
      Number(
        rowsOf<{ ms: number }>(
          await s.database.db.execute(sql`select extract(epoch from tat) * 1000 as ms from meli_rate_buckets where key = ${key}`),
        )[0].ms,
      );
    const before = await queuedUntil();
    log.length = 0;
    const err = await whileUserWaits(() => getMe(c.shop(ref))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeliApiError);
    expect(err).toMatchObject({ kind: "rate-limited", status: 429, retryable: true, message: "美客多繁忙，请稍后重试" });
    expect(log).toEqual([]);
    // Its place went back: the queue ends where it did before it asked.
    expect(await queuedUntil()).toBe(before);
    // A job's call (no user waiting) waits the hold out and goes.
    await expect(getMe(c.shop(ref))).resolves.toMatchObject({ nickname: other });
  });
});

describe("errors", () => {
  it("maps a validation error with cause[] to a 400 with Chinese text and Mercado Libre's words kept", async () => {
    control().inject({
      method: "GET",
      path: "/users/me",
      status: 400,
      body: {
        message: "Validation error",
        error: "validation_error",
        status: 400,
        cause: [
          {
            cause_id: 147,
            type: "error",
            code: "item.attributes.missing_required",
            references: ["item.attributes"],
            message: "The attributes [BRAND] are required for category MLM1055.",
          },
          { cause_id: 9, type: "warning", code: "item.title.length", references: ["item.title"], message: "Title is long" },
        ],
      },
    });
    const err = (await getMe(s.deps.meli.shop(shop)).catch((e: unknown) => e)) as MeliApiError;
    expect(err).toBeInstanceOf(MeliApiError);
    expect(err.status).toBe(400);
    expect(err.code).toBe("Meli.Validation");
    expect(err.message).toBe("美客多校验未通过：缺少类目必填属性：The attributes [BRAND] are required for category MLM1055.");
    expect(err.validationErrors).toEqual([
      { message: "缺少类目必填属性：The attributes [BRAND] are required for category MLM1055.", members: ["item.attributes"] },
    ]);
    expect(err.details).toContain("美客多返回 HTTP 400 validation_error: Validation error");
    expect(err.details).toContain("[warning] item.title.length(9) Title is long");
    expect(err.meli.cause).toHaveLength(2);
    expect(err.retryable).toBe(false);
  });

  it("maps 403, 404, an unreadable body and 5xx (retried for reads) to their kinds", async () => {
    control().inject({ path: "/users/me", status: 403, body: { message: "caller.forbidden", error: "forbidden", status: 403, cause: [] } });
    expect(await getMe(s.deps.meli.shop(shop)).catch((e) => e)).toMatchObject({
      kind: "forbidden",
      status: 403,
      message: "美客多拒绝访问（无权限执行此操作）：caller.forbidden",
    });
    const missing = await getCategory(s.deps.meli.public, "MLM999999999").catch((e) => e);
    expect(missing).toMatchObject({ kind: "not-found", status: 404, code: "Meli.NotFound" });
    expect(missing.details).toContain("Category not found");

    const log: Sent[] = [];
    const meli = client({ backoffBaseMs: 20, maxAttempts: 3 }, log);
    control().inject({ path: "/users/me", status: 503, times: 2 });
    expect((await getMe(meli.shop(shop))).nickname).toBe(nickname);
    expect(log.map((e) => e.status)).toEqual([503, 503, 200]);
    control().inject({ path: "/users/me", status: 500, body: "<html>oops</html>", times: 3 });
    const down = await getMe(meli.shop(shop)).catch((e) => e);
    expect(down).toMatchObject({ kind: "unavailable", status: 500, retryable: true, message: "美客多服务暂时不可用，请稍后重试" });
    expect(down.details).toContain("<html>oops</html>");

    control().inject({ path: "/users/me", status: 200, body: { unexpected: true } });
    expect(await getMe(meli.shop(shop)).catch((e) => e)).toMatchObject({ kind: "bad-response", retryable: true });
  });

  it("never retries a write whose outcome is unknown", async () => {
    const log: Sent[] = [];
    control().inject({ method: "POST", path: "/items", status: 502 });
    const err = await client({ backoffBaseMs: 10 }, log)
      .shop(shop)
      .send("POST", "/items", { body: { title: "x" } })
      .catch((e) => e);
    expect(err).toMatchObject({ kind: "unavailable" });
    expect(log.filter((e) => e.path === "/items")).toHaveLength(1);
  });

  it("sends the token requests form-encoded in the body", async () => {
    const sent: { body?: string | Buffer; headers: Record<string, string>; url: string }[] = [];
    const inner = sandboxFetch(s.deps.sandbox!);
    const c = s.deps.config;
    const spy = createMeliClient({
      apiUrl: c.meliApiUrl,
      authUrl: c.meliAuthUrl,
      clientId: c.meliClientId,
      clientSecret: c.meliClientSecret,
      database: s.database,
      secrets: s.deps.secrets,
      fetch: (url, init) => {
        sent.push({ url, body: init.body, headers: init.headers });
        return inner(url, init);
      },
    });
    const err = await spy.exchangeCode({ code: "TG-nope", redirectUri: "https://x/cb", codeVerifier: "v" }).catch((e) => e);
    expect(err).toMatchObject({ kind: "invalid-code", status: 400 });
    expect(sent[0].url).toBe(`${c.meliApiUrl}/oauth/token`);
    expect(sent[0].headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(String(sent[0].body)))).toMatchObject({
      grant_type: "authorization_code",
      client_id: c.meliClientId,
      client_secret: c.meliClientSecret,
      code: "TG-nope",
      redirect_uri: "https://x/cb",
      code_verifier: "v",
    });
    // Wrong app credentials are ours to fix, and said so.
    const wrong = createMeliClient({
      apiUrl: c.meliApiUrl,
      authUrl: c.meliAuthUrl,
      clientId: c.meliClientId,
      clientSecret: "nope",
      database: s.database,
      secrets: s.deps.secrets,
      fetch: inner,
    });
    expect(await wrong.exchangeCode({ code: "x", redirectUri: "https://x/cb", codeVerifier: "v" }).catch((e) => e)).toMatchObject({
      kind: "app-credentials",
      message: "美客多应用配置有误（client_id 或 client_secret 不正确），请联系平台管理员",
    });
  });
});

describe("category reads", () => {
  it("reads a site's roots, a category, its attributes, the whole tree (gzip), fees and predictions", async () => {
    const meli = s.deps.meli;
    const roots = await getSiteCategories(meli.public, "MLM");
    expect(roots.length).toBeGreaterThan(3);
    const all = await getAllCategories(meli.public, "MLM");
    const leaf = Object.values(all).find((c) => c.settings.listing_allowed && c.children_categories.length === 0)!;
    expect(Object.keys(all).length).toBeGreaterThan(roots.length);
    const one = await getCategory(meli.public, leaf.id);
    expect(one).toMatchObject({ id: leaf.id, name: leaf.name });
    expect(one.path_from_root.at(-1)!.id).toBe(leaf.id);
    const attributes = await getCategoryAttributes(meli.public, leaf.id);
    expect(attributes.some((a) => a.tags.required)).toBe(true);
    const fees = await getListingPrices(meli.public, "MLM", { price: 500, categoryId: leaf.id });
    expect(fees.map((f) => f.listing_type_id)).toEqual(expect.arrayContaining(["gold_special", "gold_pro"]));
    const classic = await getListingPrices(meli.public, "MLM", { price: 500, categoryId: leaf.id, listingTypeId: "gold_special" });
    expect(classic).toHaveLength(1);
    expect(classic[0].sale_fee_details?.percentage_fee).toBeGreaterThan(0);
    const bad = await getSiteCategories(meli.public, "MLX" as "MLM").catch((e) => e);
    expect(bad).toMatchObject({ kind: "not-found" });
    expect(bad.details).toContain("Invalid site_id: MLX");

    const predicted = await predictCategory(meli.shop(shop), "MLM", leaf.name, 3);
    expect(predicted.length).toBeGreaterThan(0);
    expect(predicted[0].category_id.startsWith("MLM")).toBe(true);
    const cbt = await predictCategory(meli.shop(shop), "CBT", leaf.name, 2);
    expect(cbt.every((p) => p.category_id.startsWith("CBT"))).toBe(true);
  });
});
