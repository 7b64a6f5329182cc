// The one message protocol between the extension's pages (popup, later the side panel and content scripts) and the
// background worker, which owns the token and every API call (ARCHITECTURE "Extension"). Each message has a zod
// schema checked by the receiver and a rule on who may send it. Only plain data crosses: errors travel as
// {message, status, code} and are re-thrown on the sending side as MessageError.
import { z } from "zod";
import {
  predictMeliCategoryInput,
  type CategoryAttributes,
  type CategoryTreeNode,
  type PredictMeliCategoryResult,
} from "#shared/contract/category.ts";
import { collectedProductInput } from "#shared/contract/collect.ts";
import type { CategoryMapping } from "#shared/contract/category-mapping.ts";
import { id } from "#shared/contract/common.ts";
import { siteNumber } from "#shared/contract/meli.ts";
import {
  createOrUpdateProductInput,
  predictWeightByTitleInput,
  translateLanguages,
  type PredictWeightByTitleResult,
  type ProductDetail,
} from "#shared/contract/product.ts";
import { publishRequest, type Listing, type PreflightResultView, type PublishBatch } from "#shared/contract/publish.ts";
import { createMeliChartBody, type SizeChart } from "#shared/contract/size-charts.ts";
import { platform } from "#shared/extract/product.ts";
import type { UserInfo } from "#shared/contract/users.ts";
import type { ProgressEvent } from "#shared/contract/events.ts";
import type { ProductCore } from "./panel-values.ts";
import type { RecentProduct } from "./storage.ts";
import type { PUSH_CHANNEL } from "./wire.ts";

export { CHANNEL, MessageError, PUSH_CHANNEL, type Reply, type WireError } from "./wire.ts";

/** Accepts "erp.example.com", "localhost:3000" or a full URL; answers the origin plus path, without a trailing slash. */
const serverUrl = z
  .string()
  .trim()
  .min(1, "请输入服务器地址")
  .max(2048)
  .transform((raw, ctx) => {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw)
      ? raw
      : `${/^(localhost|127\.|\[::1\])/i.test(raw) ? "http" : "https"}://${raw}`;
    let url: URL;
    try {
      url = new URL(withScheme);
    } catch {
      ctx.addIssue({ code: "custom", message: "服务器地址格式不正确" });
      return z.NEVER;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      ctx.addIssue({ code: "custom", message: "服务器地址必须以 http:// 或 https:// 开头" });
      return z.NEVER;
    }
    return (url.origin + url.pathname).replace(/\/+$/, "");
  });

export const loginInput = z.object({
  serverUrl,
  /** 公司名 (tenant name or id); empty for the platform operator. */
  tenant: z.string().trim().max(256).default(""),
  userName: z.string().trim().min(1, "请输入用户名").max(256),
  password: z.string().min(1, "请输入密码").max(256),
});
export type LoginRequest = z.output<typeof loginInput>;

const status = z.object({
  loggedIn: z.boolean(),
  userName: z.string().nullable(),
  /** The logged-in user's tenant; null for the host or when logged out. */
  tenantName: z.string().nullable(),
  serverUrl: z.string(),
  /** The stored 公司名 setting (what the login form shows). */
  tenant: z.string(),
});
export type Status = z.infer<typeof status>;

/** Who may send a message: "extension" any part of this extension (content scripts included); "page" only its own
 *  pages (popup, side panel), never a content script running inside a web page. */
export type SenderRule = "extension" | "page";

const none = z
  .undefined()
  .or(z.null())
  .or(z.object({}).strict())
  .transform(() => undefined);

/** A product page's source item, as a content script names it. */
const sourceItem = z.object({ platform, itemId: z.string().trim().min(1).max(128) });
export type SourceItem = z.infer<typeof sourceItem>;

/**
 * What pressing the collect button came to: collected (new), already collected (updated), queued (the server could not
 * be reached; sent later), not logged in, over the user's collect limit, or refused with the server's message.
 */
export const collectOutcome = z.object({
  outcome: z.enum(["collected", "already", "queued", "not-logged-in", "limit", "refused"]),
  message: z.string(),
  collectionId: z.string().nullable(),
});
export type CollectOutcome = z.infer<typeof collectOutcome>;

/** A browser tab, as the side panel names the one it shows. */
const tabId = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31);

/**
 * What the side panel shows for a tab: its product page's item and how far the collection went; while its product is
 * not made yet, the collected page's editable core (the panel shows it at once, before the server has stored it).
 */
/** The side panel's state of one browser tab (panel-tabs.ts keeps it). */
export type TabPhase = "seen" | "collecting" | "collected" | "queued" | "refused" | "not-logged-in";

export type TabEntry = {
  /** The product page's URL when the item was seen. */
  url: string | null;
  item: SourceItem | null;
  phase: TabPhase;
  /** The user's collection of the item (known once collected through the button, or already before). */
  collectionId: string | null;
  /** The product the panel opened for the item. */
  productId: string | null;
  /** The collect button's message for the last press (refusals, the offline queue). */
  message: string | null;
  /** Epoch ms of the last change (the oldest tabs are forgotten first). */
  at: number;
};

/** The ready orders whose lines were bought from an offer (GetPurchaseList by source): one entry per order line. */
export type WaitingOrders = {
  /** Distinct orders, units in all, units already marked bought. */
  orders: number;
  quantity: number;
  bought: number;
  lines: { orderNo: string; quantity: number; variant: string | null; bought: boolean }[];
};

export type TabView = TabEntry & { tabId: number; core?: ProductCore | null };

/** openProduct: the tab's product (made from its collection when needed), or a product by id (the recent list). */
const openProductInput = z
  .object({ tabId: tabId.optional(), productId: id.optional() })
  .strict()
  .refine((v) => v.tabId !== undefined || v.productId !== undefined, { message: "请指定标签页或商品", path: ["tabId"] });

/** saveProduct: the console editor's CreateOrUpdateProduct body, for a product that exists (the panel never creates one). */
export const saveProductInput = createOrUpdateProductInput.extend({ id });

/** translateProduct: the product's titles from one language into each of `to`, one TranslateProduct task after another. */
const translateInput = z.object({
  productId: id,
  from: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2,3}$/, "源语言不正确"),
  to: z.array(z.enum(translateLanguages)).min(1).max(3),
});

/** A shop group the panel can publish to (GetMeliAccGroup, scoped by the server to the user's shops). */
export type ShopGroupView = { groupId: string; name: string; isCbt: boolean; sites: number[] };

/** The save's answer: saved (the product as stored now), or waiting in the offline queue. */
export type SaveOutcome = { outcome: "saved"; product: ProductDetail } | { outcome: "queued"; pending: number; message: string };

/** A publish batch read by its id (GetPublishBatch) with its first listings. */
export type BatchView = { batch: PublishBatch; listings: Listing[] };

export type PushBody =
  | { kind: "tab"; tab: TabView }
  | { kind: "status"; status: Status }
  /** The offline edits changed: `sent` left the queue, `refused` of them refused by the server (a newer save: 409). */
  | { kind: "edits"; pending: number; sent: number; refused: number }
  /** The live progress stream (watchProgress): whether it is live, and an event (null: read everything shown again). */
  | { kind: "progress"; live: boolean; event: ProgressEvent | null };
export type Push = PushBody & { channel: typeof PUSH_CHANNEL };

export const protocol = {
  login: { input: loginInput, from: "page" },
  logout: { input: none, from: "page" },
  getStatus: { input: none, from: "extension" },
  getUserInfo: { input: none, from: "extension" },
  /** A content script's extracted product (the server's own contract checks it here too: content scripts are less trusted). */
  collect: { input: collectedProductInput, from: "extension" },
  /** Whether the logged-in user already collected this item (the button is marked on sight). */
  isCollected: { input: sourceItem, from: "extension" },
  /** The ready orders waiting for this collected offer (the collect button lists them on the source page). */
  waitingOrders: { input: sourceItem, from: "extension" },
  /** Collections waiting for the server (the popup shows the count). */
  getQueue: { input: none, from: "extension" },
  /** Sends the waiting collections now (the popup's 立即发送). */
  flushQueue: { input: none, from: "page" },
  /** The collect button's press: opens the side panel on the sender's tab (in the press's message handler, a user gesture). */
  openSidePanel: { input: none, from: "extension" },
  /** The side panel: what the worker knows of a tab (its item, the collection's progress, the product opened). */
  panelTab: { input: z.object({ tabId }).strict(), from: "page" },
  openProduct: { input: openProductInput, from: "page" },
  saveProduct: { input: saveProductInput, from: "page" },
  translateProduct: { input: translateInput, from: "page" },
  predictWeight: { input: predictWeightByTitleInput, from: "page" },
  predictCategory: { input: predictMeliCategoryInput, from: "page" },
  getCategoryTree: { input: z.object({ site: siteNumber }).strict(), from: "page" },
  /** The category mapped to the product's source category on the site (类目映射), offered first. */
  suggestCategory: { input: z.object({ site: siteNumber, productId: id }).strict(), from: "page" },
  getAttributes: { input: z.object({ site: siteNumber, cateId: z.string().trim().min(1).max(64) }).strict(), from: "page" },
  getShopGroups: { input: none, from: "page" },
  /** The shop group's size charts (GetMeliSizeCharts), and pulling the group's charts of a category from Mercado Libre. */
  getSizeCharts: { input: z.object({ accountGroupId: id }).strict(), from: "page" },
  pullSizeCharts: { input: z.object({ accountGroupId: id, cateId: z.string().trim().min(1).max(64) }).strict(), from: "page" },
  /** A new chart from the product's sizes (or the sizes a chart lacks added to it): CreateMeliChart. */
  createSizeChart: { input: createMeliChartBody, from: "page" },
  preflight: { input: publishRequest, from: "page" },
  publish: { input: publishRequest, from: "page" },
  getBatch: { input: z.object({ batchId: id }).strict(), from: "page" },
  /** Keeps the live progress stream open for a while more (the panel's publish progress; pushes "progress"). */
  watchProgress: { input: none, from: "page" },
  getRecent: { input: none, from: "page" },
  /** The offline edit queue: its size, and sending it now. */
  getEdits: { input: none, from: "page" },
  flushEdits: { input: none, from: "page" },
} as const satisfies Record<string, { input: z.ZodType; from: SenderRule }>;

type Protocol = typeof protocol;
export type MessageType = keyof Protocol;

/** What each message answers. */
export type Outputs = {
  login: Status;
  logout: Status;
  getStatus: Status;
  getUserInfo: UserInfo;
  collect: CollectOutcome;
  isCollected: boolean;
  waitingOrders: WaitingOrders | null;
  getQueue: { pending: number };
  flushQueue: { sent: number; pending: number };
  openSidePanel: { opened: boolean };
  panelTab: TabView | null;
  openProduct: { product: ProductDetail; tab: TabView | null };
  saveProduct: SaveOutcome;
  translateProduct: ProductDetail;
  predictWeight: PredictWeightByTitleResult;
  predictCategory: PredictMeliCategoryResult;
  getCategoryTree: { site: number; version: string | null; tree: CategoryTreeNode[] };
  suggestCategory: CategoryMapping | null;
  getAttributes: CategoryAttributes;
  getShopGroups: ShopGroupView[];
  getSizeCharts: SizeChart[];
  pullSizeCharts: { count: number; domains: number };
  createSizeChart: SizeChart;
  preflight: PreflightResultView;
  publish: PublishBatch;
  getBatch: BatchView;
  watchProgress: { live: boolean };
  getRecent: RecentProduct[];
  getEdits: { pending: number };
  flushEdits: { sent: number; pending: number };
};

export type InputOf<K extends MessageType> = z.input<Protocol[K]["input"]>;
