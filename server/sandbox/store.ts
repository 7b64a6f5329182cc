// The sandbox's whole state: its clock, the app, sellers, codes and tokens, items, pictures, scrolls, the order stream's
// materialised orders, and the counters tests read. reset() returns it to the state it started in. With `stateFile`
// the state outlives the process (persist.ts): loaded at start, written (debounced, and on close) after changes.
import { categoryTrees, type CategoryTrees } from "./categories.ts";
import { loadState, createSaver } from "./persist.ts";
import type { Cause } from "./errors.ts";
import type { LocalSiteId, SiteId } from "./sites.ts";

/** The order stream's pace unless set: each seller gets 0-2 orders (0.85 on average) per this many minutes. */
export const DEFAULT_ORDER_INTERVAL_MINUTES = 30;
export type SandboxOptions = {
  /** Fixes the category trees and the order stream. */
  seed?: string;
  clientId?: string;
  clientSecret?: string;
  /** Exact redirect URIs the app accepts; null (the default) accepts any http(s) URI. */
  redirectUris?: string[] | null;
  accessTokenSeconds?: number;
  /**
   * The clock: by default real time (plus whatever control.clock.advance adds); `{ start }` starts a frozen clock
   * there that moves only when advanced, for tests.
   */
  clock?: { start: Date | number };
  rateLimit?: Partial<RateLimitSettings>;
  /** Length of a slot of the order stream: each connected seller gets 0-2 orders per slot. */
  orderIntervalMinutes?: number;
  /** Serve the /_sandbox control endpoints (default true). */
  adminRoutes?: boolean;
  /**
   * Where the state is kept between runs (the server's DATA_DIR/meli-sandbox.json); unset, it lives in memory only
   * (tests, `npm run sandbox`). clientId/clientSecret/redirectUris given here win over the file's.
   */
  stateFile?: string;
  /** Bring the order stream up to the clock every this many seconds, calls or not (the server's mounted sandbox). */
  tickSeconds?: number;
};

export type RateLimitSettings = {
  perSellerPerMinute: number;
  perAppPerMinute: number;
  /** Order searches have their own, lower limit. */
  orderSearchPerMinute: number;
  /** Send Retry-After with a 429. */
  retryAfter: boolean;
  /** Every Nth 429 has an empty body, as the real API sometimes answers (0: never). */
  emptyBodyEvery: number;
};

export type App = { clientId: string; clientSecret: string; redirectUris: string[] | null; name: string };

export type User = {
  id: number;
  nickname: string;
  siteId: SiteId;
  createdAt: number;
  /** A global seller's local users, one per marketplace site. */
  marketplaces: { siteId: LocalSiteId; userId: number; logisticType: "remote" | "fulfillment" }[];
  /** The global seller a marketplace user belongs to. */
  parentId: number | null;
  /** When the seller first granted access: its order stream starts there. */
  connectedAt: number | null;
  /** The order stream is materialised up to here. */
  orderCursor: number;
  /** What the consent page asks for (oauth.ts): "scrypt$salt$hash"; null: the seller cannot sign in on the page. */
  passwordHash?: string | null;
};

export type AuthCode = {
  clientId: string;
  userId: number;
  redirectUri: string;
  expiresAt: number;
  used: boolean;
  challenge: string | null;
  challengeMethod: "S256" | "plain";
};

export type AccessToken = { clientId: string; userId: number; expiresAt: number };

/** One app's access to one seller: only `refreshToken` refreshes. */
export type Grant = { clientId: string; userId: number; refreshToken: string };

export type Picture = { id: string; width: number; height: number; size: number; url: string };

export type AttributeValue = {
  id: string;
  name: string;
  value_id: string | null;
  value_name: string | null;
  value_struct: { number: number; unit: string } | null;
  values: { id: string | null; name: string | null; struct: { number: number; unit: string } | null }[];
};

export type Variation = {
  id: number;
  price: number;
  attribute_combinations: AttributeValue[];
  available_quantity: number;
  sold_quantity: number;
  picture_ids: string[];
  attributes: AttributeValue[];
  seller_custom_field: string | null;
};

export type PictureRef = { id: string; url: string; secure_url: string; size: string; max_size: string; quality: string };

/** An item in the real API's shape. */
export type Item = {
  id: string;
  site_id: SiteId;
  title: string;
  seller_id: number;
  category_id: string;
  price: number;
  base_price: number;
  original_price: number | null;
  currency_id: string;
  initial_quantity: number;
  available_quantity: number;
  sold_quantity: number;
  buying_mode: string;
  listing_type_id: string;
  condition: string;
  permalink: string;
  thumbnail: string;
  pictures: PictureRef[];
  video_id: null;
  accepts_mercadopago: boolean;
  shipping: Record<string, unknown>;
  seller_custom_field: string | null;
  attributes: AttributeValue[];
  variations: Variation[];
  sale_terms: unknown[];
  warranty: string | null;
  status: "active" | "paused" | "closed" | "under_review" | "inactive";
  sub_status: string[];
  tags: string[];
  domain_id: string;
  catalog_listing: boolean;
  channels: string[];
  date_created: string;
  last_updated: string;
  deleted?: boolean;
  /** A marketplace item's global item. */
  parent_item_id?: string | null;
  logistic_type?: string;
  warnings?: Cause[];
};

export type Description = { plain_text: string; date_created: string; last_updated: string };

export type GlobalLink = { siteId: LocalSiteId; itemId: string; logisticType: string; userId: number; dateCreated: string };

export type Scroll = { ids: string[]; position: number; expiresAt: number };

export type OrderStatus = "payment_required" | "payment_in_process" | "partially_paid" | "paid" | "cancelled" | "invalid";

export type Order = {
  id: number;
  sellerId: number;
  siteId: LocalSiteId;
  createdAt: number;
  /** Status changes over time; the status at a moment is the last entry at or before it. */
  timeline: { at: number; status: OrderStatus }[];
  lines: {
    itemId: string;
    title: string;
    categoryId: string;
    variationId: number | null;
    sellerSku: string | null;
    quantity: number;
    unitPrice: number;
    saleFee: number;
    listingTypeId: string;
  }[];
  currency: string;
  buyer: { id: number; nickname: string };
  shippingId: number;
  paymentId: number;
  /** Orders bought together share a pack id (and one shipment); null for an order alone. */
  packId?: number | null;
  /** When the shipment's label was first printed (/shipment_labels): its substatus reads `printed` from then on. */
  labelPrintedAt?: number | null;
};

/** A seller's invoice file on a pack (POST /packs/{id}/fiscal_documents): plain data, the file in base64. */
export type FiscalDocument = { id: string; date: string; fileType: string; filename: string; base64: string };

type Injection = {
  method: string | null;
  path: string | RegExp;
  status: number;
  body: unknown;
  headers: Record<string, string>;
  remaining: number;
};

export type CreationRecord = { sellerId: number; key: string; itemIds: string[] };

export type Store = ReturnType<typeof createStore>;

/** Per-run state that is not kept: forced errors (they hold RegExps), rate windows and the call counters of tests. */
const TRANSIENT = new Set(["injections", "windows", "calls", "rejections"]);

/** Every field but the transient ones: a field added to the state is kept without more code. */
function persistable(state: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(state).filter(([k]) => !TRANSIENT.has(k)));
}

export const DEFAULT_CLIENT_ID = "5400000000000001";
export const DEFAULT_CLIENT_SECRET = "sandbox-client-secret";

export function createStore(options: SandboxOptions = {}) {
  const seed = options.seed ?? "meli-sandbox";
  const defaults = {
    app: {
      clientId: options.clientId ?? DEFAULT_CLIENT_ID,
      clientSecret: options.clientSecret ?? DEFAULT_CLIENT_SECRET,
      redirectUris: options.redirectUris ?? null,
      name: "Mercado ERP",
    } satisfies App,
    accessTokenSeconds: options.accessTokenSeconds ?? 21600,
    rateLimit: {
      perSellerPerMinute: 1500,
      perAppPerMinute: 30000,
      orderSearchPerMinute: 100,
      retryAfter: true,
      emptyBodyEvery: 0,
      ...options.rateLimit,
    } satisfies RateLimitSettings,
    orderIntervalMs: (options.orderIntervalMinutes ?? DEFAULT_ORDER_INTERVAL_MINUTES) * 60_000,
  };
  const frozenStart = options.clock ? new Date(options.clock.start).getTime() : null;

  // Where this state's user and item ids start. In memory: 0 (the same ids every run, for the seeded order stream).
  // Kept in a file: a random base, another one on each reset, so a seller or item made after a reset (or a lost file)
  // never takes the id of one the app still holds (its shop would be renamed, its listing would read another item).
  const idBaseAfter = (previous: number | null): number =>
    !options.stateFile
      ? 0
      : previous === null
        ? 1 + Math.floor(Math.random() * 998)
        : 1 + ((previous + Math.floor(Math.random() * 997)) % 998);
  const fresh = (previousBase: number | null = null) => ({
    idBase: idBaseAfter(previousBase),
    app: { ...defaults.app, redirectUris: defaults.app.redirectUris && [...defaults.app.redirectUris] } as App,
    accessTokenSeconds: defaults.accessTokenSeconds,
    rateLimit: { ...defaults.rateLimit } as RateLimitSettings,
    /** Per-seller overrides of perSellerPerMinute. */
    sellerLimits: new Map<number, number>(),
    orderIntervalMs: defaults.orderIntervalMs,
    clockOffset: 0,
    users: new Map<number, User>(),
    nicknames: new Map<string, number>(),
    codes: new Map<string, AuthCode>(),
    tokens: new Map<string, AccessToken>(),
    grants: new Map<string, Grant>(),
    refreshTokens: new Map<string, { clientId: string; userId: number }>(),
    pictures: new Map<string, Picture>(),
    items: new Map<string, Item>(),
    descriptions: new Map<string, Description>(),
    /** Total visits per item (GET /visits/items); none counts as 0. */
    visits: new Map<string, number>(),
    /** A global item's marketplace items. */
    globalLinks: new Map<string, GlobalLink[]>(),
    scrolls: new Map<string, Scroll>(),
    orders: new Map<number, Order>(),
    /** The fiscal documents sellers uploaded, keyed "<seller id>:<pack id>" (cargar-factura.md). */
    fiscalDocuments: new Map<string, FiscalDocument[]>(),
    injections: [] as Injection[],
    windows: new Map<string, { start: number; count: number }>(),
    rejections: 0,
    calls: new Map<string, number>(),
    creations: new Map<string, CreationRecord>(),
    counters: { user: 0, item: new Map<string, number>(), variation: 0, picture: 0, order: 0 },
  });

  const state = fresh();
  if (options.stateFile) {
    const saved = loadState(options.stateFile);
    // Only the fields this version knows; a field the file lacks keeps its fresh value.
    if (saved)
      for (const key of Object.keys(state)) if (key in saved && !TRANSIENT.has(key)) (state as Record<string, unknown>)[key] = saved[key];
    if (options.clientId) state.app.clientId = options.clientId;
    if (options.clientSecret) state.app.clientSecret = options.clientSecret;
    if (options.redirectUris !== undefined) state.app.redirectUris = options.redirectUris;
  }
  const saver = options.stateFile ? createSaver(options.stateFile, () => persistable(state)) : null;
  const now = (): number => (frozenStart ?? Date.now()) + state.clockOffset;
  const iso = (at = now()): string => new Date(at).toISOString();

  const newUserId = (): number => {
    state.counters.user += 1;
    return 1_800_000_000 + state.idBase * 1_000_000 + state.counters.user * 17;
  };

  /** The user and, for a global seller, its marketplace users: whose items and orders a token may touch. */
  const ownIds = (user: User): number[] => [user.id, ...user.marketplaces.map((m) => m.userId)];

  return {
    seed,
    /** Built on first use (a quarter of a second), shared by every sandbox of the seed. */
    get trees(): CategoryTrees {
      return categoryTrees(seed);
    },
    state,
    now,
    iso,
    reset() {
      Object.assign(state, fresh(state.idBase));
      saver?.schedule();
    },
    /** Something changed: the state is written soon (debounced) when it is kept in a file. */
    changed() {
      saver?.schedule();
    },
    /** Writes a pending change now (on close). */
    flush() {
      saver?.flush();
    },

    newItemId(site: SiteId): string {
      const n = (state.counters.item.get(site) ?? 0) + 1;
      state.counters.item.set(site, n);
      return `${site}${(site === "CBT" ? 2_000_000_000 : 1_500_000_000) + state.idBase * 1_000_000 + n}`;
    },
    newVariationId(): number {
      state.counters.variation += 1;
      return 180_000_000_000 + state.counters.variation;
    },
    newPictureId(site: SiteId): string {
      state.counters.picture += 1;
      const n = state.counters.picture;
      const d = new Date(now());
      const month = `${String(d.getUTCMonth() + 1).padStart(2, "0")}${d.getUTCFullYear()}`;
      return `${600000 + ((n * 7919) % 399999)}-${site === "CBT" ? "MLA" : site}${80_000_000_000 + n}_${month}`;
    },

    createUser(nickname: string, siteId: SiteId, marketplaces: LocalSiteId[] = []): User {
      const user: User = {
        id: newUserId(),
        nickname,
        siteId,
        createdAt: now(),
        marketplaces: [],
        parentId: null,
        connectedAt: null,
        orderCursor: 0,
      };
      state.users.set(user.id, user);
      state.nicknames.set(nickname.toUpperCase(), user.id);
      if (siteId === "CBT") {
        for (const site of marketplaces) {
          const local: User = { ...user, id: newUserId(), siteId: site, marketplaces: [], parentId: user.id };
          state.users.set(local.id, local);
          user.marketplaces.push({ siteId: site, userId: local.id, logisticType: "remote" });
        }
      }
      return user;
    },
    userByNickname(nickname: string): User | undefined {
      const id = state.nicknames.get(nickname.toUpperCase());
      return id === undefined ? undefined : state.users.get(id);
    },
    ownIds,
    owns(user: User, item: Item): boolean {
      return ownIds(user).includes(item.seller_id);
    },
    /** Sellers whose order stream runs: connected local users, and the marketplace users of connected global sellers. */
    orderSellers(): User[] {
      return [...state.users.values()].filter((u) => {
        if (u.siteId === "CBT") return false;
        const root = u.parentId === null ? u : state.users.get(u.parentId);
        return root?.connectedAt != null;
      });
    },
    /** The seller's first grant starts its order stream (and its marketplace users'). */
    connect(user: User) {
      if (user.connectedAt !== null) return;
      const at = now();
      for (const u of [user, ...user.marketplaces.map((m) => state.users.get(m.userId)!)]) {
        u.connectedAt = at;
        u.orderCursor = at;
      }
    },
  };
}
