// Answers the protocol's messages with the session, collector, side panel and edit services.
import { browser } from "wxt/browser";
import { listen } from "../../lib/messaging.ts";
import type { CollectOutcome } from "../../lib/protocol.ts";
import { createRouter, type Handlers, type Sender } from "../../lib/router.ts";
import type { CollectorService } from "./collector.ts";
import type { EditsService } from "./edits.ts";
import type { PanelService } from "./panel.ts";
import type { ProgressService } from "./progress.ts";
import type { SessionService } from "./session.ts";

/** The sender's tab, when a content script sent the message. */
const tabOf = (sender: Sender) => {
  const tab = sender.tab as { id?: number; windowId?: number } | undefined;
  return typeof tab?.id === "number" && tab.id >= 0 ? { id: tab.id, windowId: tab.windowId } : null;
};

export type Services = {
  session: SessionService;
  collector: CollectorService;
  panel: PanelService;
  edits: EditsService;
  progress: ProgressService;
  /** Opens the side panel on a tab; called synchronously in the message's handler (a user gesture's). */
  openSidePanel: (tab: { id: number; windowId?: number }) => Promise<boolean>;
  /** Told when the login state changed (open panels show it). */
  onStatus?: () => void;
};

export function createHandlers({ session, collector, panel, edits, progress, openSidePanel, onStatus }: Services): Handlers {
  return {
    login: async (input) => {
      const status = await session.login(input);
      // A new login may free what waited for it.
      void collector.flush();
      void edits.flush();
      onStatus?.();
      return status;
    },
    logout: async () => {
      const status = await session.logout();
      onStatus?.();
      return status;
    },
    getStatus: () => session.status(),
    getUserInfo: () => session.getUserInfo(),
    collect: async (product, sender) => {
      const tab = tabOf(sender);
      const item = { platform: product.platform, itemId: product.itemId };
      if (tab) {
        // The page's product is the panel's to show at once (its editable core), before the server has stored it.
        panel.collecting(tab.id, product);
        await panel.record({ type: "collecting", tabId: tab.id, url: sender.url ?? null, item });
      }
      let outcome: CollectOutcome;
      try {
        outcome = await collector.collect(product);
      } catch (e) {
        outcome = { outcome: "refused", message: e instanceof Error ? e.message : "采集失败", collectionId: null };
      }
      if (tab) panel.prepare(tab.id, await panel.record({ type: "outcome", tabId: tab.id, item, outcome }));
      return outcome;
    },
    isCollected: async (item, sender) => {
      const collected = await collector.isCollected(item);
      const tab = tabOf(sender);
      if (tab) await panel.record({ type: "seen", tabId: tab.id, url: sender.url ?? null, item, collected });
      return collected;
    },
    waitingOrders: (item) => collector.waitingOrders(item),
    getQueue: async () => ({ pending: await collector.pending() }),
    flushQueue: async () => ({ sent: await collector.flush(), pending: await collector.pending() }),
    openSidePanel: async (_input, sender) => {
      const tab = tabOf(sender);
      if (!tab) return { opened: false };
      // Marked before the panel opens: the press's collection may end first (its product is then made at once).
      panel.pressed(tab.id);
      const opened = await openSidePanel(tab);
      if (!opened) panel.pressed(tab.id, false);
      return { opened };
    },
    panelTab: ({ tabId }) => panel.panelTab(tabId),
    openProduct: (input) => panel.openProduct(input),
    saveProduct: (body) => edits.save(body),
    translateProduct: (input) => panel.translate(input),
    predictWeight: (input) => session.api.product.predictWeightByTitle(input),
    predictCategory: (input) => session.api.meliCategory.predictMeliCategory(input),
    getCategoryTree: ({ site }) => panel.categoryTree(site),
    suggestCategory: (input) => session.api.categoryMapping.getSuggestedCategory(input),
    getAttributes: (input) => session.api.meliCategory.getAttributes(input),
    getShopGroups: () => panel.shopGroups(),
    getSizeCharts: ({ accountGroupId }) => session.api.meliSizeChart.getMeliSizeCharts({ accountGroupId }),
    pullSizeCharts: ({ accountGroupId, cateId }) =>
      session.api.meliSizeChart.pullMeliChart({ AccountGroupId: accountGroupId, Categories: [cateId] }),
    createSizeChart: (body) => session.api.meliSizeChart.createMeliChart(body),
    preflight: (request) => panel.preflight(request),
    publish: (request) => panel.publish(request),
    getBatch: ({ batchId }) => panel.batch(batchId),
    watchProgress: async () => progress.watch(),
    getRecent: () => panel.recent(),
    getEdits: async () => ({ pending: await edits.pending() }),
    flushEdits: async () => ({ sent: await edits.flush(), pending: await edits.pending() }),
  };
}

export function setupMessages(services: Services) {
  const router = createRouter(createHandlers(services), {
    extensionId: browser.runtime.id,
    extensionOrigin: browser.runtime.getURL("/"),
  });
  return listen(router);
}
