// The sandbox's controls for tests: its clock, rate limits, forced errors, the app's credentials, test sellers and
// grants, forced orders, item visits, and the counters (calls per endpoint, item creations per idempotency key).
// In-process as `sandbox.control`, and over HTTP under /_sandbox for a test that runs the server as a separate process.
import type { FastifyInstance } from "fastify";
import { badRequest, notFound } from "./errors.ts";
import { objectBody, route } from "./http.ts";
import { itemJson } from "./item-rules.ts";
import { notificationControl } from "./notify.ts";
import { createCode, hashPassword, issueTokens, MIN_PASSWORD, sellerFor } from "./oauth.ts";
import { advanceOrders, createOrder, createPack, orderJson, type OrderRequest } from "./orders.ts";
import { READY_AFTER_MS } from "./shipments.ts";
import { isLocalSite, isSiteId, LOCAL_SITES, type LocalSiteId, type SiteId } from "./sites.ts";
import type { App, CreationRecord, RateLimitSettings, Store, User } from "./store.ts";

export type Injected = {
  method?: string;
  path: string | RegExp;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  times?: number;
};

/** `password`: what the consent page will ask for (set when the seller is created, or has none yet). */
export type SellerRequest = { nickname: string; site?: SiteId; marketplaces?: LocalSiteId[]; password?: string };

export type SellerInfo = { id: number; nickname: string; site_id: SiteId; marketplaces: { site_id: LocalSiteId; user_id: number }[] };

export type Control = ReturnType<typeof createControl>;

const sellerInfo = (u: User): SellerInfo => ({
  id: u.id,
  nickname: u.nickname,
  site_id: u.siteId,
  marketplaces: u.marketplaces.map((m) => ({ site_id: m.siteId, user_id: m.userId })),
});

export function createControl(store: Store) {
  const { state } = store;
  const seller = (r: SellerRequest) => sellerFor(store, r.nickname, r.site ?? "MLM", r.marketplaces ?? [...LOCAL_SITES], r.password);
  const notifications = notificationControl(store);

  return {
    clock: {
      now: () => new Date(store.now()),
      /** Moves the clock on: tokens, codes and scroll ids expire, rate windows roll over, orders appear. */
      advance(ms: number) {
        if (!(ms >= 0)) throw new Error("the clock only moves forward");
        state.clockOffset += ms;
      },
      set(at: Date | number) {
        const target = new Date(at).getTime();
        state.clockOffset += target - store.now();
      },
    },

    /** Rate limits; `sellerId` with `perMinute` sets one seller's own limit. */
    setRateLimit(settings: Partial<RateLimitSettings> & { sellerId?: number; perMinute?: number }) {
      const { sellerId, perMinute, ...rest } = settings;
      if (sellerId !== undefined && perMinute !== undefined) state.sellerLimits.set(sellerId, perMinute);
      Object.assign(state.rateLimit, rest);
      state.windows.clear();
    },

    /** The next `times` (default 1) calls to the path (exact, under the sandbox root, or a RegExp) answer `status`. */
    inject(i: Injected) {
      state.injections.push({
        method: i.method?.toUpperCase() ?? null,
        path: i.path,
        status: i.status,
        body: i.body,
        headers: Object.fromEntries(Object.entries(i.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
        remaining: i.times ?? 1,
      });
    },
    clearInjections() {
      state.injections = [];
    },

    setApp(app: Partial<Omit<App, "name">>) {
      Object.assign(state.app, app);
    },
    app: (): App => ({ ...state.app }),
    setAccessTokenSeconds(seconds: number) {
      state.accessTokenSeconds = seconds;
    },

    /** A test seller (found by nickname, else created); a global seller sells on the given marketplaces. */
    createSeller: (r: SellerRequest): SellerInfo => sellerInfo(seller(r)),
    /** Sets (or replaces) the password the consent page asks of the seller. */
    setSellerPassword(id: number, password: string) {
      const u = state.users.get(id);
      if (!u) throw new Error(`no seller ${id}`);
      if (password.length < MIN_PASSWORD) throw new Error(`a password has at least ${MIN_PASSWORD} characters`);
      u.passwordHash = hashPassword(password);
    },
    sellerByNickname(nickname: string): SellerInfo | null {
      const u = store.userByNickname(nickname);
      return u ? sellerInfo(u) : null;
    },
    seller(id: number): SellerInfo | null {
      const u = state.users.get(id);
      return u ? sellerInfo(u) : null;
    },
    /** What the consent page does on "Permitir": a single-use code for the redirect URI. */
    grant(r: SellerRequest & { redirectUri: string; codeChallenge?: string; codeChallengeMethod?: "S256" | "plain" }) {
      const u = seller(r);
      return { code: createCode(store, u, r.redirectUri, r.codeChallenge ?? null, r.codeChallengeMethod), seller: sellerInfo(u) };
    },
    /** Tokens for a seller without the browser round trip (tests of other modules). */
    tokens(r: SellerRequest) {
      const u = seller(r);
      return { ...issueTokens(store, state.app.clientId, u), seller: sellerInfo(u) };
    },

    /** The order stream's pace: each connected seller gets 0-2 orders (0.85 on average) per this many minutes. */
    orderStream: {
      intervalMinutes: () => state.orderIntervalMs / 60_000,
      /** Materialises (and notifies) the orders due by the clock now, rather than on the next call. */
      catchUp() {
        advanceOrders(store);
      },
      setIntervalMinutes(minutes: number) {
        if (!(minutes > 0)) throw new Error("the interval is a positive number of minutes");
        // Orders planned up to now stay as they were: the new pace starts at the clock.
        advanceOrders(store);
        state.orderIntervalMs = Math.round(minutes * 60_000);
      },
    },

    /** An order now for a (local or marketplace) seller, selling the item when given. */
    createOrder(sellerId: number, request: OrderRequest = {}) {
      const u = state.users.get(sellerId);
      if (!u || !isLocalSite(u.siteId)) throw new Error(`no local seller ${sellerId}`);
      advanceOrders(store);
      return orderJson(store, createOrder(store, u, request));
    },
    /** A paid order whose shipment is ready to ship now (its label prints): bought and paid READY_AFTER_MS ago. */
    createReadyOrder(sellerId: number, request: Omit<OrderRequest, "at" | "status" | "pack"> = {}) {
      const u = state.users.get(sellerId);
      if (!u || !isLocalSite(u.siteId)) throw new Error(`no local seller ${sellerId}`);
      advanceOrders(store);
      const order = createOrder(store, u, { ...request, status: "paid", at: store.now() - READY_AFTER_MS - 1000 });
      return orderJson(store, order);
    },
    /** Orders bought together now (one pack id, one shipment), paid unless another status is asked for. */
    createPack(sellerId: number, count: number, request: Omit<OrderRequest, "pack"> = {}) {
      const u = state.users.get(sellerId);
      if (!u || !isLocalSite(u.siteId)) throw new Error(`no local seller ${sellerId}`);
      advanceOrders(store);
      return createPack(store, u, count, request).map((o) => orderJson(store, o));
    },
    /** The orders so far (the stream brought up to the clock first). */
    orders(sellerId?: number) {
      advanceOrders(store);
      return [...state.orders.values()].filter((o) => sellerId === undefined || o.sellerId === sellerId).map((o) => orderJson(store, o));
    },
    item(id: string) {
      const item = state.items.get(id);
      return item ? itemJson(item) : null;
    },
    /** Buyers view the item `n` times (GET /visits/items counts them); answers its total. */
    addVisits(itemId: string, n = 1): number {
      if (!state.items.has(itemId)) throw new Error(`no item ${itemId}`);
      if (!(Number.isInteger(n) && n >= 0)) throw new Error("visits are a whole number >= 0");
      const total = (state.visits.get(itemId) ?? 0) + n;
      state.visits.set(itemId, total);
      return total;
    },

    /** Calls per endpoint, keyed "METHOD /route/:param". */
    calls: (): Record<string, number> => Object.fromEntries(state.calls),
    callCount: (key: string) => state.calls.get(key) ?? 0,
    resetCalls() {
      state.calls.clear();
    },
    /** Item creations per seller and idempotency key; `duplicates` lists the keys created more than once. */
    creations: (): CreationRecord[] => [...state.creations.values()].map((r) => ({ ...r, itemIds: [...r.itemIds] })),
    duplicates: (): CreationRecord[] => [...state.creations.values()].filter((r) => r.itemIds.length > 1).map((r) => ({ ...r })),

    /** The app's notifications URL and what was sent to it (notify.ts). */
    notifications,

    reset() {
      store.reset();
      notifications.reset();
    },
  };
}

/** The same controls over HTTP (JSON), for a server running in another process. */
export function registerControlRoutes(f: FastifyInstance, control: Control) {
  const admin = route({ auth: "none", admin: true });
  const num = (v: unknown, name: string) => {
    if (typeof v !== "number" || !Number.isFinite(v)) throw badRequest(`${name} must be a number`);
    return v;
  };

  f.get("/_sandbox/state", admin, async () => ({
    now: control.clock.now().toISOString(),
    app: { client_id: control.app().clientId, redirect_uris: control.app().redirectUris },
    calls: control.calls(),
  }));

  f.post("/_sandbox/clock", admin, async (req) => {
    const b = objectBody(req);
    if (b.set !== undefined) control.clock.set(new Date(String(b.set)));
    else control.clock.advance(num(b.advanceSeconds, "advanceSeconds") * 1000);
    return { now: control.clock.now().toISOString() };
  });

  f.post("/_sandbox/rate-limit", admin, async (req) => {
    control.setRateLimit(objectBody(req) as Parameters<Control["setRateLimit"]>[0]);
    return {};
  });

  f.post("/_sandbox/inject", admin, async (req) => {
    const b = objectBody(req);
    if (typeof b.path !== "string") throw badRequest("path is required");
    control.inject({
      method: typeof b.method === "string" ? b.method : undefined,
      path: b.pathPattern === true ? new RegExp(b.path) : b.path,
      status: num(b.status, "status"),
      body: b.body,
      headers: b.headers as Record<string, string> | undefined,
      times: b.times === undefined ? 1 : num(b.times, "times"),
    });
    return {};
  });

  f.post("/_sandbox/app", admin, async (req) => {
    const b = objectBody(req);
    control.setApp({
      ...(typeof b.clientId === "string" ? { clientId: b.clientId } : {}),
      ...(typeof b.clientSecret === "string" ? { clientSecret: b.clientSecret } : {}),
      ...(b.redirectUris === null || Array.isArray(b.redirectUris) ? { redirectUris: b.redirectUris as string[] | null } : {}),
    });
    if (b.accessTokenSeconds !== undefined) control.setAccessTokenSeconds(num(b.accessTokenSeconds, "accessTokenSeconds"));
    return {};
  });

  f.post("/_sandbox/sellers", admin, async (req) => {
    const b = objectBody(req);
    if (typeof b.nickname !== "string" || !b.nickname) throw badRequest("nickname is required");
    const site = typeof b.site === "string" ? b.site.toUpperCase() : "MLM";
    if (!isSiteId(site)) throw badRequest(`Invalid site_id: ${site}`);
    const marketplaces = Array.isArray(b.marketplaces) ? b.marketplaces.map(String).filter(isLocalSite) : undefined;
    if (b.password !== undefined && (typeof b.password !== "string" || b.password.length < MIN_PASSWORD)) {
      throw badRequest(`password must be a string of at least ${MIN_PASSWORD} characters`);
    }
    return control.createSeller({ nickname: b.nickname, site, marketplaces, password: b.password as string | undefined });
  });

  f.post("/_sandbox/orders", admin, async (req) => {
    const b = objectBody(req);
    const sellerId = num(b.sellerId, "sellerId");
    if (!control.seller(sellerId)) throw notFound("User not found");
    return control.createOrder(sellerId, {
      itemId: typeof b.itemId === "string" ? b.itemId : undefined,
      quantity: typeof b.quantity === "number" ? b.quantity : undefined,
      // The order's status from the start (e.g. "paid"), instead of the seeded course.
      status: typeof b.status === "string" ? (b.status as OrderRequest["status"]) : undefined,
    });
  });

  f.post("/_sandbox/visits", admin, async (req) => {
    const b = objectBody(req);
    if (typeof b.itemId !== "string") throw badRequest("itemId is required");
    if (!control.item(b.itemId)) throw notFound(`Item with id ${b.itemId} not found`);
    const n = b.count === undefined ? 1 : num(b.count, "count");
    if (!Number.isInteger(n) || n < 0) throw badRequest("count must be a whole number >= 0");
    return { itemId: b.itemId, total: control.addVisits(b.itemId, n) };
  });

  f.post("/_sandbox/notifications", admin, async (req) => {
    const b = objectBody(req);
    if (b.url !== null && typeof b.url !== "string") throw badRequest("url must be a string or null");
    control.notifications.configure({ url: (b.url as string | null) || null });
    return {};
  });
  f.get("/_sandbox/notifications", admin, async () => ({
    url: control.notifications.url(),
    deliveries: control.notifications.deliveries(),
  }));

  f.get("/_sandbox/calls", admin, async () => control.calls());
  f.get("/_sandbox/creations", admin, async () => ({ creations: control.creations(), duplicates: control.duplicates() }));
  f.post("/_sandbox/reset", admin, async () => {
    control.reset();
    return {};
  });
}
