// The host's 沙箱 page on the built-in Mercado Libre sandbox (MELI_API_URL unset): what the sandbox holds, and what the
// host makes happen there so a newcomer sees the product's order side work: an order for a listing (paid, its
// shipment ready to ship, so its label prints), the marketplace clock moved on, a notification sent to the app, the
// next calls refused with a 429, and the pace of the order stream that gives published listings orders by themselves.
// Host only, through the app's API (the mounted sandbox serves no /_sandbox controls); with MELI_API_URL set there is
// no sandbox: GetSandbox answers enabled=false and the other calls 404.
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { Registrar } from "../../http/calls.ts";
import { businessError, notFound } from "../../http/errors.ts";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import { shipmentAt } from "../../sandbox/shipments.ts";
import { DEFAULT_ORDER_INTERVAL_MINUTES, type Item, type Order } from "../../sandbox/store.ts";
import { SettingKeys } from "#shared/contract/setting-registry.ts";
import type { RuntimeSetting } from "../settings/index.ts";
import {
  createSandboxOrderBody,
  moveSandboxClockBody,
  refuseSandboxCallsBody,
  sendSandboxNotificationBody,
  setSandboxOrderRateBody,
  type SandboxOrder,
  type SandboxState,
} from "#shared/contract/meli-sandbox.ts";
import { meliSandboxCalls as calls } from "#shared/api/meli-sandbox.ts";
import { meliCalls } from "#shared/api/meli.ts";

const ITEMS_PER_SELLER = 100;
const RECENT_ORDERS = 20;
/** The injected refusals of RefuseCalls: every sandbox path. */
const EVERY_PATH = /^\//;

export type SandboxConsole = ReturnType<typeof createSandboxConsole>;

export function createSandboxConsole({ sandbox }: { sandbox: Sandbox | null }) {
  const need = (): Sandbox => {
    if (!sandbox) throw notFound("未启用内置沙箱：服务器已连接美客多（MELI_API_URL）");
    return sandbox;
  };

  const orderView = (s: Sandbox, o: Order): SandboxOrder => {
    const now = s.store.now();
    const status = [...o.timeline].reverse().find((t) => t.at <= now)?.status ?? o.timeline[0].status;
    return {
      id: o.id,
      sellerId: o.sellerId,
      itemId: o.lines[0]?.itemId ?? null,
      title: o.lines[0]?.title ?? "",
      status,
      shipmentStatus: shipmentAt(s.store, o, now).status,
      dateCreated: s.store.iso(o.createdAt),
    };
  };

  const refusalsPending = (s: Sandbox) =>
    s.store.state.injections
      .filter((i) => i.status === 429 && i.path instanceof RegExp && i.path.source === EVERY_PATH.source)
      .reduce((n, i) => n + i.remaining, 0);

  const activeItem = (s: Sandbox, id: string): Item => {
    const item = s.store.state.items.get(id);
    if (!item || item.deleted || item.site_id === "CBT") throw notFound(`沙箱中没有站点商品 ${id}`);
    if (item.status !== "active") throw businessError(`商品 ${id} 不在售（${item.status}），不能下单`, "Sandbox.ItemNotActive");
    return item;
  };

  function getSandbox(): SandboxState {
    if (!sandbox) {
      return {
        enabled: false,
        now: null,
        orderIntervalMinutes: null,
        refusalsPending: 0,
        notificationsConnected: false,
        sellers: [],
        orders: [],
      };
    }
    const { state } = sandbox.store;
    const bySeller = new Map<number, Item[]>();
    for (const item of state.items.values()) {
      if (item.deleted || item.status !== "active" || item.site_id === "CBT") continue;
      const list = bySeller.get(item.seller_id) ?? [];
      if (list.length < ITEMS_PER_SELLER) list.push(item);
      bySeller.set(item.seller_id, list);
    }
    const sellers = [...state.users.values()]
      .filter((u) => u.siteId !== "CBT" && (bySeller.has(u.id) || u.connectedAt !== null))
      .map((u) => ({
        id: u.id,
        nickname: u.nickname,
        siteId: u.siteId,
        items: (bySeller.get(u.id) ?? []).map((i) => ({
          id: i.id,
          title: i.title,
          price: i.price,
          currency: i.currency_id,
          available: i.available_quantity,
          sold: i.sold_quantity,
          status: i.status,
        })),
      }));
    const orders = [...state.orders.values()]
      .filter((o) => o.createdAt <= sandbox.store.now())
      .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
      .slice(0, RECENT_ORDERS)
      .map((o) => orderView(sandbox, o));
    return {
      enabled: true,
      now: sandbox.store.iso(),
      orderIntervalMinutes: sandbox.control.orderStream.intervalMinutes(),
      refusalsPending: refusalsPending(sandbox),
      notificationsConnected: sandbox.control.notifications.url() !== null,
      sellers,
      orders,
    };
  }

  function createOrder(body: z.output<typeof createSandboxOrderBody>): SandboxOrder {
    const s = need();
    const item = activeItem(s, body.itemId);
    if (item.available_quantity < body.quantity) {
      throw businessError(`商品 ${item.id} 库存不足（可售 ${item.available_quantity}）`, "Sandbox.OutOfStock");
    }
    const json = s.control.createReadyOrder(item.seller_id, { itemId: item.id, quantity: body.quantity });
    return orderView(s, s.store.state.orders.get(json.id as number)!);
  }

  function moveClock(body: z.output<typeof moveSandboxClockBody>) {
    const s = need();
    s.control.clock.advance(body.minutes * 60_000);
    // Orders due by the new time appear (and are notified) now, not on the next call.
    s.control.orderStream.catchUp();
    return { now: s.control.clock.now().toISOString() };
  }

  function sendNotification(body: z.output<typeof sendSandboxNotificationBody>) {
    const s = need();
    if (!s.control.notifications.url()) throw businessError("沙箱的通知未接入本系统", "Sandbox.NotificationsOff");
    const about = s.control.notifications.sendAbout(body.topic, body.resourceId);
    if (!about) throw notFound(body.topic === "items" ? `沙箱中没有商品 ${body.resourceId}` : `沙箱中没有订单 ${body.resourceId}`);
    return { resource: about.resource, userId: about.userId };
  }

  function refuseCalls(body: z.output<typeof refuseSandboxCallsBody>) {
    const s = need();
    s.control.inject({ path: EVERY_PATH, status: 429, times: body.count });
    return { refusalsPending: refusalsPending(s) };
  }

  function setOrderRate(body: z.output<typeof setSandboxOrderRateBody>) {
    const s = need();
    s.control.orderStream.setIntervalMinutes(body.intervalMinutes);
    return { orderIntervalMinutes: s.control.orderStream.intervalMinutes() };
  }

  return { getSandbox, createOrder, moveClock, sendNotification, refuseCalls, setOrderRate };
}

/** The built-in sandbox delivers its notifications to this app's MeliCallback (in process), as Mercado Libre does. */
export function connectSandboxNotifications(app: FastifyInstance, deps: { sandbox: Sandbox | null; config: { publicUrl: string } }) {
  if (!deps.sandbox) return;
  const path = meliCalls.meliCallback.path;
  deps.sandbox.control.notifications.configure({
    url: `${deps.config.publicUrl}${path}`,
    send: async (_url, payload) => (await app.inject({ method: "POST", url: path, payload })).statusCode,
  });
}

export function registerSandboxConsole(r: Registrar, { sandboxConsole }: { sandboxConsole: SandboxConsole }) {
  r.handle(calls.getSandbox, { handler: async () => sandboxConsole.getSandbox() });
  r.handle(calls.createOrder, { handler: async (_ctx, { body }) => sandboxConsole.createOrder(body) });
  r.handle(calls.moveClock, { handler: async (_ctx, { body }) => sandboxConsole.moveClock(body) });
  r.handle(calls.sendNotification, { handler: async (_ctx, { body }) => sandboxConsole.sendNotification(body) });
  r.handle(calls.refuseCalls, { handler: async (_ctx, { body }) => sandboxConsole.refuseCalls(body) });
  r.handle(calls.setOrderRate, { handler: async (_ctx, { body }) => sandboxConsole.setOrderRate(body) });
}

/** The order pace as 系统配置's Sandbox.OrderIntervalMinutes (settings/known.ts): the value lives in the sandbox. */
export function sandboxOrderIntervalSetting(sandbox: Sandbox | null): RuntimeSetting {
  return {
    key: SettingKeys.sandboxOrderInterval,
    read: () => (sandbox ? String(sandbox.control.orderStream.intervalMinutes()) : null),
    write: (value) => {
      if (!sandbox) throw businessError("未启用内置沙箱：服务器已连接美客多（MELI_API_URL），不能设置沙箱下单间隔", "Sandbox.Off");
      sandbox.control.orderStream.setIntervalMinutes(value === null ? DEFAULT_ORDER_INTERVAL_MINUTES : Number(value));
    },
  };
}
