// The side panel's back end in the worker: the per-tab state (panel-tabs.ts, kept in session storage), the product of a
// tab (its collection moved to the products with MigratToProduct, as the console's collection box does, or the product
// already made from it), the recent list, and the calls the panel's editor and publishing make through the session's
// API client (its publish section: panel-publishing.ts). The panel never holds the token: everything it shows comes
// through here.
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { platformTypeOf } from "#shared/contract/collect.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import { applyTabEvent, type TabEvent } from "../../lib/panel-tabs.ts";
import type { TabEntry } from "../../lib/protocol.ts";
import { coreOf, type ProductCore } from "../../lib/panel-values.ts";
import type { CollectOutcome, SourceItem, TabView } from "../../lib/protocol.ts";
import { addRecent, type StorageItems } from "../../lib/storage.ts";
import { createPanelPublishing } from "./panel-publishing.ts";
import type { SessionService } from "./session.ts";

/** How often a translation task is asked for while it runs, and how long the panel waits for it. */
const TASK_POLL_MS = 300;
const TASK_WAIT_MS = 90_000;
/** How long opening a product waits for a collection under way. */
const COLLECT_WAIT_MS = 30_000;
/** How long a press's product, made and read while the panel page loads, waits for the panel to ask for it. */
const HELD_MS = 15_000;

export type PanelDeps = {
  session: SessionService;
  items: StorageItems;
  now?: () => number;
  /** Asks the tab's content script to collect its page now (the panel opened on an item not collected yet). */
  collectInTab?: (tabId: number) => Promise<CollectOutcome | null>;
  /** Tells open panels that a tab's state changed. */
  onTab?: (tab: TabView) => void;
  sleep?: (ms: number) => Promise<void>;
};

class PanelError extends Error {}

const sameItem = (a: SourceItem, b: SourceItem) => a.platform === b.platform && a.itemId === b.itemId;

export function createPanel({ session, items, now = Date.now, collectInTab, onTab, sleep }: PanelDeps) {
  const api = session.api;
  const publishing = createPanelPublishing({ api, items, now });
  const wait = sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  // Writes of the tab states one after another: events from several tabs must not overwrite each other.
  let chain: Promise<unknown> = Promise.resolve();
  /** Who waits for a tab's next change (a collection under way ending). */
  const waiters = new Map<number, Set<() => void>>();
  /** Tabs whose collect button was just pressed (the press opens the panel): epoch ms of the press. */
  const pressed = new Map<number, number>();
  /** A press's product, moved and read while the panel page loads, for the panel's first openProduct of the tab. */
  const held = new Map<number, { item: SourceItem; at: number; product: Promise<ProductDetail> }>();
  /** The collected page's editable core per tab, from the collect message on, until the tab's product is opened. */
  const cores = new Map<number, ProductCore>();

  /** The tab as the panel sees it: the state, and the core of its item while no product is opened for it. */
  function view(tabId: number, e: TabEntry): TabView {
    const core = cores.get(tabId);
    const useful = core && !e.productId && core.platform === e.item?.platform && core.itemId === e.item.itemId;
    return { ...e, tabId, ...(useful ? { core } : {}) };
  }

  /** Resolves at the tab's next change, or after `ms`. */
  function changed(tabId: number, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let set = waiters.get(tabId);
      if (!set) waiters.set(tabId, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
  }

  function record(e: TabEvent): Promise<TabView | null> {
    if (e.type === "navigated" || e.type === "closed") cores.delete(e.tabId);
    const run = chain.then(async () => {
      const next = applyTabEvent(await items.panelTabs.getValue(), e, now());
      await items.panelTabs.setValue(next);
      const entry = next[String(e.tabId)];
      const v = entry ? view(e.tabId, entry) : null;
      if (v) onTab?.(v);
      for (const w of [...(waiters.get(e.tabId) ?? [])]) w();
      return v;
    });
    chain = run.catch(() => undefined);
    return run;
  }

  async function tab(tabId: number): Promise<TabView | null> {
    const entry = (await items.panelTabs.getValue())[String(tabId)];
    return entry ? view(tabId, entry) : null;
  }

  /** The newest product made from the item (the product list's source-id filter; a sub-account sees its own). */
  async function productOfItem(item: SourceItem): Promise<string | null> {
    const page = await api.product.getProductsByPage({
      sourceIds: [item.itemId],
      platformType: platformTypeOf(item.platform),
      sorting: "creationTime desc",
      maxResultCount: 1,
    });
    return page.items[0]?.id ?? null;
  }

  /** The user's collection of the item (the collection box's exact source-id filter). */
  async function collectionOfItem(item: SourceItem): Promise<string | null> {
    const page = await api.collect.getCollect({ sku: item.itemId, platformType: platformTypeOf(item.platform), maxResultCount: 1 });
    return page.items[0]?.id ?? null;
  }

  async function remember(p: ProductDetail) {
    const images = p.images.length ? p.images : p.image ? [p.image] : [];
    const entry = { id: p.id, title: p.titleText, image: p.image ?? images[0] ?? null, sourceUrl: p.sourceUrl, openedAt: now() };
    await items.recentProducts.setValue(addRecent(await items.recentProducts.getValue(), entry));
  }

  /** The tab's state once a collection under way has ended (the press's answer is what the panel waits for). */
  async function settled(tabId: number): Promise<TabView | null> {
    const until = now() + COLLECT_WAIT_MS;
    let t = await tab(tabId);
    while (t?.phase === "collecting" && now() < until) {
      // The collection's outcome is recorded here (record): woken by it, or asked again after a while.
      await changed(tabId, 500);
      t = await tab(tabId);
    }
    return t;
  }

  /** One opening per tab at a time (the panel may ask again while the first is under way). */
  const opening = new Map<number, Promise<string>>();
  function productIdOfTab(tabId: number): Promise<string> {
    let p = opening.get(tabId);
    if (!p) {
      p = findOrMake(tabId).finally(() => opening.delete(tabId));
      opening.set(tabId, p);
    }
    return p;
  }

  /** The product for the tab's item: found, else moved from its collection, else collected now and moved. */
  async function findOrMake(tabId: number): Promise<string> {
    let t = await settled(tabId);
    if (!t?.item) throw new PanelError("当前页面不是可采集的商品页");
    const item = t.item;
    if (t.productId) return t.productId;
    const found = await productOfItem(item);
    if (found) return found;
    let collectionId = t.collectionId ?? (await collectionOfItem(item));
    if (!collectionId) {
      const outcome = collectInTab ? await collectInTab(tabId) : null;
      t = await tab(tabId);
      collectionId = outcome?.collectionId ?? t?.collectionId ?? null;
      if (!collectionId) throw new PanelError(outcome?.message || t?.message || "采集失败，请在页面上点击采集按钮");
    }
    const moved = await api.collect.migrateToProduct({ ids: [collectionId] });
    const id = moved.productIds[0] ?? (await productOfItem(item));
    if (!id) throw new PanelError("未能生成商品，请在后台的采集箱中查看");
    return id;
  }

  async function waitForTask(taskId: string): Promise<void> {
    const until = now() + TASK_WAIT_MS;
    while (now() < until) {
      const page = await api.tasks.getTaskInfoByPage({
        TaskType: TaskType.TranslateProducts,
        Sorting: "creationTime desc",
        SkipCount: 0,
        MaxResultCount: 50,
      });
      const task = page.items.find((t) => t.id === taskId);
      if (task?.taskStatus === TaskStatus.Succeeded) return;
      if (task && (task.taskStatus === TaskStatus.Failed || task.taskStatus === TaskStatus.Cancelled))
        throw new PanelError(`翻译未完成${task.taskRemark ? `：${task.taskRemark}` : ""}`);
      await wait(TASK_POLL_MS);
    }
    throw new PanelError("翻译超时，请稍后刷新查看");
  }

  return {
    record,
    tab,

    /** A content script sent its page's product to collect: its editable core is the panel's until the product exists. */
    collecting(tabId: number, product: Parameters<typeof coreOf>[0]) {
      cores.set(tabId, coreOf(product));
    },

    /** A tab's state for the panel. */
    async panelTab(tabId: number): Promise<TabView | null> {
      return tab(tabId);
    },

    /** The collect button was pressed on the tab (its press opens the panel); `opened`: the panel did open. */
    pressed(tabId: number, opened = true) {
      if (opened) {
        pressed.set(tabId, now());
        void publishing.warm();
      } else pressed.delete(tabId);
    },

    /**
     * A pressed tab's collection ended: its product is made (MigratToProduct) and read now, while the panel page is
     * still loading, and held for the panel's openProduct. Only after a press that opened the panel (a collection
     * alone stays in the collection box), and only for a collected item.
     */
    prepare(tabId: number, t: TabView | null) {
      const at = pressed.get(tabId);
      pressed.delete(tabId);
      if (at === undefined || now() - at > HELD_MS || !t?.item || t.phase !== "collected") return;
      const product = productIdOfTab(tabId).then((id) => api.product.getProductById({ id }));
      product.catch(() => held.delete(tabId));
      held.set(tabId, { item: t.item, at: now(), product });
    },

    /** The tab's product (collected first, through the tab's button, when the item is not collected yet), or one by id. */
    async openProduct(input: { tabId?: number; productId?: string }): Promise<{ product: ProductDetail; tab: TabView | null }> {
      const cur = input.tabId !== undefined ? await tab(input.tabId) : null;
      const early = input.tabId !== undefined ? held.get(input.tabId) : undefined;
      if (early) held.delete(input.tabId!);
      const usable = early && now() - early.at < HELD_MS && cur?.item && sameItem(early.item, cur.item);
      const product = usable ? await early.product.catch(() => null) : null;
      const p = product ?? (await api.product.getProductById({ id: input.productId ?? (await productIdOfTab(input.tabId!)) }));
      const [t] = await Promise.all([
        input.tabId !== undefined
          ? record({ type: "product", tabId: input.tabId, item: cur?.item ?? null, productId: p.id })
          : Promise.resolve(null),
        remember(p),
      ]);
      return { product: p, tab: t };
    },

    /** Each language of `to` from `from`, one TranslateProduct task after another; answers the product as stored then. */
    async translate(input: { productId: string; from: string; to: ("es" | "pt" | "en")[] }): Promise<ProductDetail> {
      for (const to of input.to) {
        const r = await api.product.translateProduct({ productIds: [input.productId], from: input.from, to, isContainsDescription: false });
        if (r.taskId) await waitForTask(r.taskId);
      }
      return api.product.getProductById({ id: input.productId });
    },

    ...publishing,
    recent: () => items.recentProducts.getValue(),
  };
}

export type PanelService = ReturnType<typeof createPanel>;
