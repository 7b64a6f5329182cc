// The shared client against the real server over real HTTP (app.listen on 127.0.0.1, Node's fetch). The only
// stand-ins are fetch wrappers: one records what went over the wire before passing it to the real fetch, one drops the
// first answer of a call (the work done, the answer lost) to show the retry with the same Idempotency-Key.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../server/testing/harness.ts";
import { pricesOfSku, seedPricedProducts } from "../../server/testing/product-kit.ts";
import { createApi, type Api } from "./index.ts";
import { ApiError, errorFromBody, messages } from "./errors.ts";
import { REQUEST_TIMEOUT_MS, TENANT_PLACEHOLDER } from "./client.ts";
import { toCallResult } from "./call-result.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;
let baseUrl: string;

type Sent = { method: string; url: string; headers: Record<string, string> };
let sent: Sent[] = [];
const recordingFetch: typeof fetch = (input, init) => {
  const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
  sent.push({ method: init?.method ?? "GET", url: String(input), headers });
  return fetch(input, init);
};

const state = { token: null as string | null, tenant: null as string | null };
const onUnauthorized = vi.fn();
let api: Api;

beforeAll(async () => {
  s = await startTestServer();
  await s.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
  a = await s.createTenant();
  b = await s.createTenant();
  api = createApi({ baseUrl, getToken: () => state.token, getTenant: async () => state.tenant, onUnauthorized, fetch: recordingFetch });
});
afterAll(() => s?.close());

beforeEach(() => {
  sent = [];
  onUnauthorized.mockClear();
  state.token = a.token;
  state.tenant = a.tenantName;
});

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error("the call did not fail");
}

describe("token", () => {
  it("logs in with the password grant (form-encoded, Erp_App, scope Erp) and the token works", async () => {
    state.token = null;
    const answer = await api.token.login({ username: a.userName, password: a.password, tenant: a.tenantName });
    expect(answer).toMatchObject({ token_type: "Bearer", expires_in: expect.any(Number) });
    expect(answer.refresh_token).toBeUndefined();
    expect(sent[0].url).toBe(`${baseUrl}/connect/token`);
    expect(sent[0].headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(sent[0].headers.authorization).toBeUndefined();
    expect(sent[0].headers.__tenant).toBe(a.tenantName);
    state.token = answer.access_token;
    const me = await api.user.getUserInfo();
    expect(me).toMatchObject({ userName: "boss", tenantName: a.tenantName, isMainAccount: true });
  });

  it("uses the stored tenant when the login names none, and offline_access gives a refresh token that rotates", async () => {
    state.token = null;
    const answer = await api.token.login({ username: a.userName, password: a.password, offlineAccess: true });
    expect(answer.refresh_token).toBeTruthy();
    expect(answer.scope).toBe("Erp offline_access");
    const next = await api.token.refresh(answer.refresh_token!);
    expect(next.access_token).toBeTruthy();
    expect(next.refresh_token).not.toBe(answer.refresh_token);
    state.token = next.access_token;
    expect((await api.user.getMyInfo()).tenantId).toBe(a.tenantId);
  });

  it("a wrong password is an ApiError 400 carrying the server's OAuth description", async () => {
    const e = await failure(api.token.login({ username: a.userName, password: "wrong-password1", tenant: a.tenantName }));
    expect(e.status).toBe(400);
    expect(e.code).toBe("invalid_grant");
    expect(e.message).toBe(e.serverMessage);
    expect(e.message).toBeTruthy();
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it("the host logs in without a tenant: the placeholder tenant is not sent", async () => {
    const answer = await api.token.login({ username: "admin", password: "Admin123456", tenant: TENANT_PLACEHOLDER });
    expect(answer.access_token).toBeTruthy();
    expect(sent[0].headers.__tenant).toBeUndefined();
  });

  it("a missing user name or refresh token throws before any request", async () => {
    const e = await failure(api.token.login({ username: null as unknown as string, password: "x" }));
    expect(e.message).toBe("The parameter username cannot be null.");
    const r = await failure(api.token.refresh(undefined as unknown as string));
    expect(r.message).toBe("The parameter refreshToken cannot be null.");
    expect(sent).toHaveLength(0);
  });

  it("429 from the token endpoint reads 访问太多，请稍候访问!", async () => {
    // The server holds on to its limiter, so the test changes what that limiter answers: every login waits a minute.
    const limiter = s.deps.loginLimiter;
    const hit = limiter.hit;
    limiter.hit = () => 60;
    try {
      const e = await failure(api.token.login({ username: a.userName, password: a.password }));
      expect(e.status).toBe(429);
      expect(e.message).toBe("访问太多，请稍候访问!");
    } finally {
      limiter.hit = hit;
    }
  });
});

describe("calls", () => {
  it("sends the bearer token and answers the body's result", async () => {
    const me = await api.user.getMyInfo();
    expect(me).toMatchObject({ userName: "boss", tenantId: a.tenantId, isMainAccount: true });
    expect(sent[0]).toMatchObject({ method: "GET", url: `${baseUrl}/api/User/GetMyInfo` });
    expect(sent[0].headers.authorization).toBe(`Bearer ${a.token}`);
  });

  it("POST with a JSON body, then GET with query parameters", async () => {
    const name = uniqueName("sub");
    const created = await api.user.createSubUser({ userName: name, pwd: "Sub12345x", remark: "客户端测试" });
    expect(created).toMatchObject({ userName: name, remark: "客户端测试", isActive: true });
    expect(sent[0].headers["content-type"]).toBe("application/json");

    const page = await api.user.getSubUsers({ Search: name, MaxResultCount: 5, SkipCount: 0, IsActive: true });
    expect(page.totalCount).toBe(1);
    expect(page.items[0].id).toBe(created.id);
    const url = new URL(sent[1].url);
    expect(url.searchParams.get("Search")).toBe(name);
    expect(url.searchParams.get("IsActive")).toBe("true");

    const one = await api.user.getSubUserById({ id: created.id });
    expect(one.userName).toBe(name);
  });

  it("dates travel as ISO strings", async () => {
    const start = new Date("2020-01-01T00:00:00Z");
    const rows = await api.user.getSubUserStaticInfo({ StartDate: start, EndDate: new Date() });
    expect(Array.isArray(rows)).toBe(true);
    expect(new URL(sent[0].url).searchParams.get("StartDate")).toBe("2020-01-01T00:00:00.000Z");
  });

  it("204 answers undefined", async () => {
    const sub = await api.user.createSubUser({ userName: uniqueName("sub"), pwd: "Sub12345x" });
    sent = [];
    const r = await api.user.enabled({ userId: sub.id, enable: false });
    expect(r).toBeUndefined();
    expect(sent[0].method).toBe("PUT");
    expect((await api.user.getSubUserById({ id: sub.id })).isActive).toBe(false);
  });

  it("401 calls onUnauthorized and throws", async () => {
    state.token = "not-a-token";
    const e = await failure(api.user.getUserInfo());
    expect(e.status).toBe(401);
    expect(e.notice).toBe(e.message);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized.mock.calls[0][0]).toBe(e);
  });

  it("403 carries the server's message", async () => {
    const sub = await s.createSubUser(a);
    state.token = sub.token;
    const e = await failure(api.user.getSubUsers());
    expect(e.status).toBe(403);
    expect(e.message).toBe("仅主账号可以执行此操作");
    expect(e.notice).toBe(e.message);
  });

  it("404 reads 公司未找到, the server's own text kept apart", async () => {
    const e = await failure(api.user.getSubUserById({ id: "00000000-0000-4000-8000-000000000000" }));
    expect(e.status).toBe(404);
    expect(e.message).toBe("公司未找到");
    expect(e.serverMessage).toBe("用户不存在");
  });

  it("400 shows the details (the server's validation messages), with validationErrors", async () => {
    const e = await failure(api.user.getSubUsers({ MaxResultCount: 5000 }));
    expect(e.status).toBe(400);
    expect(e.code).toBe("Validation");
    expect(e.message).toBe(e.details);
    expect(e.message).toContain("MaxResultCount");
    expect(e.validationErrors?.[0].members).toEqual(["MaxResultCount"]);
  });

  it("a status outside the catalogue (409) is thrown onward with the server's message and no notice", async () => {
    const sub = await api.user.createSubUser({ userName: uniqueName("sub"), pwd: "Sub12345x" });
    const e = await failure(api.user.updateUser({ id: sub.id, remark: "x", concurrencyStamp: "stale" }));
    expect(e.status).toBe(409);
    expect(e.notice).toBeNull();
    expect(e.message).toBe(e.serverMessage);
  });
});

describe("the __tenant header", () => {
  it("is sent when a tenant is stored", async () => {
    await api.user.getMyInfo();
    expect(sent[0].headers.__tenant).toBe(a.tenantName);
  });

  it("is never sent for the placeholder 11111111, nor when no tenant is stored", async () => {
    state.tenant = TENANT_PLACEHOLDER;
    expect((await api.user.getMyInfo()).tenantId).toBe(a.tenantId);
    state.tenant = null;
    await api.user.getMyInfo();
    expect(sent.map((r) => r.headers.__tenant)).toEqual([undefined, undefined]);
  });

  it("a call's own tenant option overrides the stored one (calls made before login)", async () => {
    state.token = null;
    state.tenant = null;
    // The reset-code request of another tenant's user goes to that tenant, whatever is stored.
    await api.account.sendPasswordResetCode({ email: "nobody@example.com" }, { tenant: b.tenantName });
    expect(sent[0].headers.__tenant).toBe(b.tenantName);
    state.token = a.token;
    state.tenant = b.tenantName;
    // null: no tenant header at all, so the token's own tenant applies.
    expect((await api.user.getMyInfo({ tenant: null })).tenantId).toBe(a.tenantId);
    expect(sent[1].headers.__tenant).toBeUndefined();
  });

  it("a tenant that does not match the token's is refused with 403", async () => {
    state.tenant = b.tenantName;
    const e = await failure(api.user.getMyInfo());
    expect(e.status).toBe(403);
    expect(e.message).toBe(e.serverMessage);
    expect(sent[0].headers.__tenant).toBe(b.tenantName);
  });
});

describe("required parameters", () => {
  it("a missing or null query parameter throws the spec's message and sends nothing", async () => {
    const e = await failure(api.user.getSubUserById({} as { id: string }));
    expect(e.message).toBe("The parameter id cannot be null.");
    expect(e.status).toBe(0);
    const f = await failure(api.user.enabled({ userId: a.userId, enable: null as unknown as boolean }));
    expect(f.message).toBe("The parameter enable cannot be null.");
    expect(sent).toHaveLength(0);
  });

  it("a missing body or required body field throws before sending; optional ones may be left out", async () => {
    const e = await failure(api.user.createSubUser(undefined as never));
    expect(e.message).toBe("The parameter input cannot be null.");
    const f = await failure(api.user.createSubUser({ userName: "x" } as never));
    expect(f.message).toBe("The parameter pwd cannot be null.");
    const g = await failure(api.user.changePwd({ newPwd: "Abc12345", oldPwd: null as unknown as string }));
    expect(g.message).toBe("The parameter oldPwd cannot be null.");
    expect(sent).toHaveLength(0);
  });
});

describe("time-out", () => {
  it("is 1,500,000 ms by default and armed on every request", async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(1_500_000);
    expect(api.client.timeoutMs).toBe(1_500_000);
    const spy = vi.spyOn(globalThis, "setTimeout");
    try {
      await api.user.getMyInfo();
      expect(spy.mock.calls.some((c) => c[1] === 1_500_000)).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it("aborts a request that outlives it", async () => {
    const slow: typeof fetch = async (input, init) => {
      await new Promise((r) => setTimeout(r, 100));
      return fetch(input, init);
    };
    const quick = createApi({ baseUrl, getToken: () => a.token, getTenant: () => null, fetch: slow, timeoutMs: 20 });
    const e = await failure(quick.user.getMyInfo());
    expect(e.code).toBe("Timeout");
    expect(e.status).toBe(0);
  });

  it("an unreachable server is a network error, not a crash", async () => {
    const nowhere = createApi({ baseUrl: "http://127.0.0.1:1", getToken: () => null, getTenant: () => null });
    const e = await failure(nowhere.user.getUserInfo());
    expect(e.code).toBe("NetworkError");
    expect(e.message).toBe(messages.network);
  });
});

describe("Idempotency-Key", () => {
  /** Three of tenant a's products at 10, 20 and 30, tagged by sku. */
  async function seedPrices() {
    const tag = uniqueName("idem-");
    await seedPricedProducts(s.database, a, tag, [10, 20, 30]);
    const prices = () => pricesOfSku(s.database, a, tag);
    return { tag, prices };
  }

  /** The real fetch, except that the first answer of each call named is lost on its way back (the work was done). */
  function losingFirstAnswer(path: string) {
    let lost = false;
    const losing: typeof fetch = async (input, init) => {
      const res = await recordingFetch(input, init);
      if (!lost && String(input).endsWith(path)) {
        lost = true;
        await res.text();
        throw new TypeError("fetch failed");
      }
      return res;
    };
    return createApi({ baseUrl, getToken: () => a.token, getTenant: () => null, fetch: losing, retryDelaysMs: [10, 10] });
  }

  it("a bulk edit whose answer was lost is sent again with the same key and changes the prices once", async () => {
    const { tag, prices } = await seedPrices();
    const flaky = losingFirstAnswer("/api/Product/BatchUpdateProductPrice");
    const result = await flaky.product.batchUpdateProductPrice({ filter: { sku: tag }, rate: 1.1 });
    expect(result.count).toBe(3);
    expect(sent).toHaveLength(2);
    expect(sent[0].headers["idempotency-key"]).toMatch(/^[0-9a-f]{32}$/);
    expect(sent[1].headers["idempotency-key"]).toBe(sent[0].headers["idempotency-key"]);
    expect(await prices()).toEqual(["11.00", "22.00", "33.00"]);
  });

  it("each call makes its own key unless the caller gives one; a call that takes none sends none and is not retried", async () => {
    const { tag, prices } = await seedPrices();
    await api.product.batchUpdateProductPrice({ filter: { sku: tag }, rate: 1.1 });
    await api.product.batchUpdateProductPrice({ filter: { sku: tag }, rate: 1.1 });
    expect(sent[0].headers["idempotency-key"]).not.toBe(sent[1].headers["idempotency-key"]);
    expect(await prices()).toEqual(["12.10", "24.20", "36.30"]);

    sent = [];
    const submitted = { filter: { sku: tag }, rate: 2 };
    const first = await api.product.batchUpdateProductPrice(submitted, { idempotencyKey: "dialog-submit-1" });
    const again = await api.product.batchUpdateProductPrice(submitted, { idempotencyKey: "dialog-submit-1" });
    expect(again).toEqual(first);
    expect(sent.map((r) => r.headers["idempotency-key"])).toEqual(["dialog-submit-1", "dialog-submit-1"]);
    expect(await prices()).toEqual(["24.20", "48.40", "72.60"]);

    sent = [];
    const e = await failure(losingFirstAnswer("/api/User/GetMyInfo").user.getMyInfo());
    expect(e.code).toBe("NetworkError");
    expect(sent).toHaveLength(1);
    expect(sent[0].headers["idempotency-key"]).toBeUndefined();
  });

  it("a refusal is not retried: the same key with another body answers the server's 422", async () => {
    const { tag } = await seedPrices();
    await api.product.batchUpdateProductPrice({ filter: { sku: tag }, rate: 1.1 }, { idempotencyKey: "dialog-submit-2" });
    sent = [];
    const e = await failure(api.product.batchUpdateProductPrice({ filter: { sku: tag }, rate: 3 }, { idempotencyKey: "dialog-submit-2" }));
    expect(e.status).toBe(422);
    expect(e.code).toBe("Idempotency.KeyReused");
    expect(sent).toHaveLength(1);
  });
});

describe("call result", () => {
  it("wraps success and failure as {data, hasError, code, error}", async () => {
    const ok = await toCallResult(api.user.getMyInfo());
    expect(ok).toMatchObject({ hasError: false, code: 200, error: null, data: { tenantId: a.tenantId } });
    state.token = "bad";
    const bad = await toCallResult(() => api.user.getMyInfo());
    expect(bad).toMatchObject({ hasError: true, code: 401, data: null, error: { code: "Unauthorized", message: expect.any(String) } });
    expect(bad.error).toHaveProperty("validationErrors");
  });
});

describe("the §8 messages for bodies the server may send", () => {
  it("maps each catalogued status", () => {
    const env = (message: string | null, details: string | null = null) => ({
      error: { code: null, message, details, data: {}, validationErrors: null },
    });
    expect(errorFromBody(403, env("")).message).toBe("暂无权限");
    expect(errorFromBody(403, env("不可以")).message).toBe("不可以");
    expect(errorFromBody(404, env("x")).message).toBe("公司未找到");
    expect(errorFromBody(429, null).message).toBe("访问太多，请稍候访问!");
    expect(errorFromBody(500, env("")).message).toBe("服务器内部错误");
    expect(errorFromBody(500, env("数据库不可用")).message).toBe("数据库不可用");
    expect(errorFromBody(400, env("Your request is not valid!", "a: b")).message).toBe("a: b");
    expect(errorFromBody(400, env("参数错误")).message).toBe("参数错误");
    expect(errorFromBody(502, "<html>bad gateway</html>").notice).toBeNull();
  });
});
