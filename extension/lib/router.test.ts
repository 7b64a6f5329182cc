// The protocol's receiving side without a browser: envelope, sender rules, input validation, error shape.
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "#shared/api/errors.ts";
import { CHANNEL, loginInput } from "./protocol.ts";
import { createRouter, senderAllowed, type Handlers } from "./router.ts";

const options = { extensionId: "ext-id", extensionOrigin: "chrome-extension://ext-id/" };
const popup = { id: "ext-id", url: "chrome-extension://ext-id/popup.html" };
const contentScript = { id: "ext-id", url: "https://detail.1688.com/offer/1.html", tab: { id: 3 } };
const stranger = { id: "other-extension", url: "chrome-extension://other-extension/popup.html" };
const status = { loggedIn: false, userName: null, tenantName: null, serverUrl: "", tenant: "" };

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  return {
    login: vi.fn(async () => ({ ...status, loggedIn: true })),
    logout: vi.fn(async () => status),
    getStatus: vi.fn(async () => status),
    getUserInfo: vi.fn(async () => {
      throw new ApiError({ status: 401, serverMessage: "登录已失效，请重新登录" });
    }),
    collect: vi.fn(async () => ({ outcome: "collected" as const, message: "已采集", collectionId: "c1" })),
    isCollected: vi.fn(async () => false),
    waitingOrders: vi.fn(async () => null),
    getQueue: vi.fn(async () => ({ pending: 0 })),
    flushQueue: vi.fn(async () => ({ sent: 0, pending: 0 })),
    openSidePanel: vi.fn(async () => ({ opened: true })),
    panelTab: vi.fn(async () => null),
    openProduct: vi.fn(async () => {
      throw new Error("not in this test");
    }),
    saveProduct: vi.fn(async () => ({ outcome: "queued" as const, pending: 1, message: "queued" })),
    translateProduct: vi.fn(async () => {
      throw new Error("not in this test");
    }),
    predictWeight: vi.fn(async () => ({ weight: null, hasBasis: false, message: "", neighbours: [] })),
    predictCategory: vi.fn(async () => ({ title: "", site: 1, method: "direct" as const, translatedTitle: null, note: null, items: [] })),
    getCategoryTree: vi.fn(async () => ({ site: 1, version: null, tree: [] })),
    suggestCategory: vi.fn(async () => null),
    getAttributes: vi.fn(async () => {
      throw new Error("not in this test");
    }),
    getShopGroups: vi.fn(async () => []),
    getSizeCharts: vi.fn(async () => []),
    pullSizeCharts: vi.fn(async () => ({ count: 0, domains: 0 })),
    createSizeChart: vi.fn(async () => {
      throw new Error("not in this test");
    }),
    preflight: vi.fn(async () => ({ selected: 0, pairs: [], ok: 0, refused: 0, alreadyListed: 0 })),
    publish: vi.fn(async () => {
      throw new Error("not in this test");
    }),
    getBatch: vi.fn(async () => {
      throw new Error("not in this test");
    }),
    watchProgress: vi.fn(async () => ({ live: false })),
    getRecent: vi.fn(async () => []),
    getEdits: vi.fn(async () => ({ pending: 0 })),
    flushEdits: vi.fn(async () => ({ sent: 0, pending: 0 })),
    ...overrides,
  };
}
const msg = (type: string, data?: unknown) => ({ channel: CHANNEL, type, data });

describe("router", () => {
  it("leaves messages of other channels alone", async () => {
    const route = createRouter(handlers(), options);
    expect(await route({ type: "getStatus" }, popup)).toBeUndefined();
    expect(await route("hello", popup)).toBeUndefined();
    expect(await route(null, popup)).toBeUndefined();
  });

  it("answers {ok, data} from the handler", async () => {
    const h = handlers();
    const route = createRouter(h, options);
    expect(await route(msg("getStatus"), popup)).toEqual({ ok: true, data: status });
    expect(h.getStatus).toHaveBeenCalledOnce();
  });

  it("refuses unknown types, including inherited names", async () => {
    const route = createRouter(handlers(), options);
    expect(await route(msg("deleteEverything"), popup)).toMatchObject({ ok: false, error: { code: "UnknownMessage" } });
    expect(await route(msg("toString"), popup)).toMatchObject({ ok: false, error: { code: "UnknownMessage" } });
  });

  it("validates the input at the receiver and passes the parsed value on", async () => {
    const h = handlers();
    const route = createRouter(h, options);
    const bad = await route(msg("login", { serverUrl: "https://erp.example.com", userName: "", password: "x" }), popup);
    expect(bad).toEqual({ ok: false, error: { message: "请输入用户名", status: 400, code: "BadMessage" } });
    const extra = await route(msg("getStatus", { evil: true }), popup);
    expect(extra).toMatchObject({ ok: false, error: { code: "BadMessage" } });
    expect(h.login).not.toHaveBeenCalled();

    await route(msg("login", { serverUrl: " localhost:3000/ ", userName: " boss ", password: "p" }), popup);
    expect(h.login).toHaveBeenCalledWith({ serverUrl: "http://localhost:3000", tenant: "", userName: "boss", password: "p" }, popup);
  });

  it("lets only the extension's own pages log in or out; content scripts may read the status; strangers nothing", async () => {
    const route = createRouter(handlers(), options);
    const login = msg("login", { serverUrl: "erp.example.com", userName: "u", password: "p" });
    expect(await route(login, contentScript)).toMatchObject({ ok: false, error: { status: 403, code: "SenderRefused" } });
    expect(await route(msg("logout"), contentScript)).toMatchObject({ ok: false, error: { code: "SenderRefused" } });
    expect(await route(msg("getStatus"), contentScript)).toMatchObject({ ok: true });
    expect(await route(msg("getStatus"), stranger)).toMatchObject({ ok: false, error: { code: "SenderRefused" } });
    expect(senderAllowed("page", { id: "ext-id", url: "chrome-extension://ext-id/sidepanel.html" }, options)).toBe(true);
    expect(senderAllowed("page", { id: "ext-id" }, options)).toBe(false);
    // An extension page opened as a tab is still ours; a content script in a tab is not.
    expect(senderAllowed("page", { id: "ext-id", url: "chrome-extension://ext-id/popup.html", tab: { id: 7 } }, options)).toBe(true);
    expect(senderAllowed("page", contentScript, options)).toBe(false);
  });

  it("side panel messages: only extension pages may send them; a content script may only open the panel", async () => {
    const h = handlers();
    const route = createRouter(h, options);
    const panel = { id: "ext-id", url: "chrome-extension://ext-id/sidepanel.html" };
    const body = { id: "3f1c0c4e-8a51-4a2b-9b7e-1f2a3b4c5d6e", price: 12.5 };
    expect(await route(msg("saveProduct", body), contentScript)).toMatchObject({ ok: false, error: { code: "SenderRefused" } });
    expect(await route(msg("panelTab", { tabId: 3 }), contentScript)).toMatchObject({ ok: false, error: { code: "SenderRefused" } });
    expect(await route(msg("publish", { accountGroupId: body.id, sites: [1], productIds: [body.id] }), contentScript)).toMatchObject({
      ok: false,
      error: { code: "SenderRefused" },
    });
    expect(h.saveProduct).not.toHaveBeenCalled();
    expect(await route(msg("openSidePanel"), contentScript)).toEqual({ ok: true, data: { opened: true } });
    expect(h.openSidePanel).toHaveBeenCalledWith(undefined, contentScript);
    expect(await route(msg("saveProduct", body), panel)).toMatchObject({ ok: true, data: { outcome: "queued" } });
  });

  it("side panel messages are checked against the server's contract at the receiver", async () => {
    const h = handlers();
    const route = createRouter(h, options);
    const panel = { id: "ext-id", url: "chrome-extension://ext-id/sidepanel.html" };
    const id = "3f1c0c4e-8a51-4a2b-9b7e-1f2a3b4c5d6e";
    // The product's id is required (the panel never creates products); the contract's rules apply to the rest.
    expect(await route(msg("saveProduct", { price: 1 }), panel)).toMatchObject({ ok: false, error: { code: "BadMessage" } });
    expect(await route(msg("saveProduct", { id, price: -1 }), panel)).toMatchObject({ ok: false, error: { code: "BadMessage" } });
    expect(await route(msg("saveProduct", { id, size: "big" }), panel)).toMatchObject({ ok: false, error: { code: "BadMessage" } });
    expect(await route(msg("openProduct", {}), panel)).toEqual({
      ok: false,
      error: { message: "请指定标签页或商品", status: 400, code: "BadMessage" },
    });
    expect(await route(msg("openProduct", { tabId: -1 }), panel)).toMatchObject({ ok: false, error: { code: "BadMessage" } });
    expect(await route(msg("translateProduct", { productId: id, from: "zh", to: ["fr"] }), panel)).toMatchObject({
      ok: false,
      error: { code: "BadMessage" },
    });
    expect(await route(msg("publish", { accountGroupId: id, sites: [1, 1], productIds: [id] }), panel)).toMatchObject({
      ok: false,
      error: { code: "BadMessage" },
    });
    expect(await route(msg("getCategoryTree", { site: 9 }), panel)).toMatchObject({ ok: false, error: { code: "BadMessage" } });
    expect(h.saveProduct).not.toHaveBeenCalled();
    expect(h.translateProduct).not.toHaveBeenCalled();
    expect(h.publish).not.toHaveBeenCalled();

    // A valid body reaches the handler as the contract parsed it (the size normalised, the currency upper case).
    await route(msg("saveProduct", { id, size: "30 X 20 x 10", currency: "cny", title: { zh: "杯子" } }), panel);
    expect(h.saveProduct).toHaveBeenCalledWith(expect.objectContaining({ id, size: "30x20x10", currency: "CNY" }), panel);
  });

  it("turns a thrown ApiError into plain {message, status, code}", async () => {
    const route = createRouter(handlers(), options);
    expect(await route(msg("getUserInfo"), popup)).toEqual({
      ok: false,
      error: { message: "登录已失效，请重新登录", status: 401, code: null },
    });
  });
});

describe("server URL", () => {
  const parse = (serverUrl: string) => loginInput.safeParse({ serverUrl, userName: "u", password: "p" });
  it("adds a scheme and drops trailing slashes", () => {
    expect(parse("erp.example.com").data?.serverUrl).toBe("https://erp.example.com");
    expect(parse("127.0.0.1:8080/").data?.serverUrl).toBe("http://127.0.0.1:8080");
    expect(parse("https://erp.example.com/base/").data?.serverUrl).toBe("https://erp.example.com/base");
  });
  it("refuses what is not an http(s) address", () => {
    expect(parse("").success).toBe(false);
    expect(parse("ftp://erp.example.com").error?.issues[0].message).toBe("服务器地址必须以 http:// 或 https:// 开头");
    expect(parse("http://exa mple.com").success).toBe(false);
  });
});
