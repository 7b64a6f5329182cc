// The background's message handling end to end in Node: WXT's fakeBrowser for the extension APIs (storage, runtime
// messaging), the real server over real HTTP, the real storage items, session and router.
import { fakeBrowser } from "../../testing/fake-browser.ts";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, startTestServer, type TestServer, type TestTenant } from "../../../server/testing/harness.ts";
import { listen, sendMessage } from "../../lib/messaging.ts";
import { CHANNEL, MessageError, type Reply, type Status } from "../../lib/protocol.ts";
import { createRouter } from "../../lib/router.ts";
import { defineStorageItems } from "../../lib/storage.ts";
import { createHandlers } from "./messages.ts";
import { createCollector } from "./collector.ts";
import { createEdits } from "./edits.ts";
import { createPanel } from "./panel.ts";
import { createProgressWatch } from "./progress.ts";
import { createSession } from "./session.ts";

let s: TestServer;
let a: TestTenant;
let serverUrl: string;
let route: ReturnType<typeof createRouter>;
const items = defineStorageItems();
const popup = { id: fakeBrowser.runtime.id, url: fakeBrowser.runtime.getURL("/popup.html") };
const contentScript = { id: fakeBrowser.runtime.id, url: "https://detail.1688.com/offer/1.html", tab: { id: 7 } };

beforeAll(async () => {
  fakeBrowser.reset();
  s = await startTestServer();
  await s.app.listen({ port: 0, host: "127.0.0.1" });
  serverUrl = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
  a = await s.createTenant();
  const session = createSession({ items });
  const services = {
    session,
    collector: createCollector({ session, items }),
    panel: createPanel({ session, items }),
    edits: createEdits({ session, items }),
    progress: createProgressWatch({ session, push: () => undefined }),
    openSidePanel: async () => false,
  };
  route = createRouter(createHandlers(services), {
    extensionId: fakeBrowser.runtime.id,
    extensionOrigin: fakeBrowser.runtime.getURL("/"),
  });
});
afterAll(() => s?.close());

const send = async <T = Status>(type: string, data?: unknown, sender: object = popup) =>
  (await route({ channel: CHANNEL, type, data }, sender)) as Reply<T>;
const stored = async () => fakeBrowser.storage.local.get(["serverUrl", "tenant", "session"]);

describe("background messages", () => {
  it("getStatus: logged out at first", async () => {
    expect(await send("getStatus")).toEqual({
      ok: true,
      data: { loggedIn: false, userName: null, tenantName: null, serverUrl: "", tenant: "" },
    });
  });

  it("login: a wrong password answers the server's message and stores nothing", async () => {
    const r = await send("login", { serverUrl, tenant: a.tenantName, userName: "boss", password: "Wrong12345" });
    expect(r).toMatchObject({ ok: false, error: { status: 400, code: "invalid_grant" } });
    expect(r.ok || r.error.message).toBeTruthy();
    expect(await stored()).toEqual({});
  });

  it("login: an unreachable server is a readable error", async () => {
    const r = await send("login", { serverUrl: "http://127.0.0.1:1", tenant: a.tenantName, userName: "boss", password: a.password });
    expect(r).toMatchObject({ ok: false, error: { code: "NetworkError", message: "无法连接服务器，请检查服务器地址和网络" } });
  });

  it("login: logs in through the shared client and keeps server, tenant and token in extension storage", async () => {
    const r = await send("login", {
      serverUrl: serverUrl.replace("http://", "") + "/",
      tenant: a.tenantName,
      userName: "boss",
      password: a.password,
    });
    expect(r).toEqual({ ok: true, data: { loggedIn: true, userName: "boss", tenantName: a.tenantName, serverUrl, tenant: a.tenantName } });
    const st = await stored();
    expect(st.serverUrl).toBe(serverUrl);
    expect(st.tenant).toBe(a.tenantName);
    expect(st.session).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      userName: "boss",
      tenantName: a.tenantName,
    });
  });

  it("getUserInfo: asks the server with the stored token; content scripts may ask too", async () => {
    const r = await send<{ userName: string; tenantId: string }>("getUserInfo", undefined, contentScript);
    expect(r).toMatchObject({ ok: true, data: { userName: "boss", tenantId: a.tenantId, isMainAccount: true } });
  });

  it("a content script can neither log in nor log out", async () => {
    expect(await send("logout", undefined, contentScript)).toMatchObject({ ok: false, error: { code: "SenderRefused" } });
    expect((await send("getStatus", undefined, contentScript)).ok && (await stored()).session).toBeTruthy();
  });

  it("renews an access token about to expire with the refresh token", async () => {
    const before = (await items.session.getValue())!;
    await items.session.setValue({ ...before, expiresAt: Date.now() + 1000 });
    expect(await send("getUserInfo")).toMatchObject({ ok: true, data: { userName: "boss" } });
    const after = (await items.session.getValue())!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.expiresAt).toBeGreaterThan(Date.now() + 60_000);
  });

  it("a network failure while renewing keeps the session and uses the token it has", async () => {
    const before = (await items.session.getValue())!;
    await items.session.setValue({ ...before, expiresAt: Date.now() + 1000 });
    const tokenEndpointDown: typeof fetch = (input, init) =>
      String(input).includes("/connect/token") ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init);
    const offline = createSession({ items, fetch: tokenEndpointDown });
    expect(await offline.getUserInfo()).toMatchObject({ userName: "boss" });
    expect(await items.session.getValue()).toEqual({ ...before, expiresAt: expect.any(Number) });
    await items.session.setValue(before);
  });

  it("a refused refresh token ends the session", async () => {
    const before = (await items.session.getValue())!;
    await items.session.setValue({ ...before, refreshToken: "not-a-refresh-token", expiresAt: Date.now() + 1000 });
    expect(await send("getUserInfo")).toMatchObject({ ok: false, error: { status: 401 } });
    expect(await items.session.getValue()).toBeNull();
    await items.session.setValue(before);
  });

  it("a 401 ends the session", async () => {
    const before = (await items.session.getValue())!;
    await items.session.setValue({ ...before, accessToken: "expired", refreshToken: null });
    expect(await send("getUserInfo")).toMatchObject({ ok: false, error: { status: 401 } });
    expect(await send("getStatus")).toMatchObject({ ok: true, data: { loggedIn: false, serverUrl, tenant: a.tenantName } });
  });

  it("logout forgets the token and keeps the server address and 公司名 for the form", async () => {
    await send("login", { serverUrl, tenant: a.tenantName, userName: "boss", password: a.password });
    const token = (await items.session.getValue())!.accessToken;
    expect((await s.api("GET", "/api/User/GetUserInfo", { token })).status).toBe(200);
    expect(await send("logout")).toEqual({
      ok: true,
      data: { loggedIn: false, userName: null, tenantName: null, serverUrl, tenant: a.tenantName },
    });
    expect(await stored()).toEqual({ serverUrl, tenant: a.tenantName });
    // The session ended on the server too (GET /api/account/logout).
    expect((await s.api("GET", "/api/User/GetUserInfo", { token })).status).toBe(401);
  });

  it("the host logs in with an empty 公司名 (no __tenant header)", async () => {
    const r = await send("login", { serverUrl, tenant: "", userName: "admin", password: ADMIN_PASSWORD });
    expect(r).toMatchObject({ ok: true, data: { loggedIn: true, userName: "admin", tenantName: null } });
  });
});

describe("through the browser's runtime messaging", () => {
  it("answers a typed message sent with sendMessage, with the sender check applied", async () => {
    const stop = listen(route);
    try {
      // fakeBrowser's runtime.sendMessage reports an empty sender: refused like a message from outside.
      const refused = await sendMessage("getStatus").catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(MessageError);
      expect((refused as MessageError).code).toBe("SenderRefused");

      // The same listener, given the sender a popup has, answers.
      const replies: unknown[] = [];
      await fakeBrowser.runtime.onMessage.trigger({ channel: CHANNEL, type: "getStatus" }, popup, (r: unknown) => replies.push(r));
      await expect.poll(() => replies.length).toBe(1);
      expect(replies[0]).toMatchObject({ ok: true, data: { loggedIn: true, userName: "admin" } });
      // Messages of other channels get no answer from this listener.
      const others = await fakeBrowser.runtime.onMessage.trigger({ type: "somethingElse" }, popup, () => {});
      expect(others).toEqual([false]);
    } finally {
      stop();
    }
  });
});
