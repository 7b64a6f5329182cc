// The collect button's back end: sends a content script's product to CrawlProductByPlugin through the session's API
// client. When the server cannot be reached the product waits in an extension-side queue (one entry per source item,
// the newest capture wins) and is sent later, once: the server treats the same source item from the same user as the
// same collection, so a retry after a lost answer cannot make a duplicate either. On a collected offer's page it also
// reads the ready orders waiting for that offer (GetPurchaseList by source).
import type { z } from "zod";
import { ApiError, ClientErrorCode } from "#shared/api/errors.ts";
import { platformTypeOf, type collectedProductInput } from "#shared/contract/collect.ts";
import type { CollectOutcome, SourceItem, WaitingOrders } from "../../lib/protocol.ts";
import type { StorageItems } from "../../lib/storage.ts";
import type { SessionService } from "./session.ts";

type Product = z.output<typeof collectedProductInput>;

/** Failures worth retrying later: no answer at all, or the server busy or down. */
export function isTransient(e: unknown): boolean {
  if (!(e instanceof ApiError)) return false;
  if (e.status === 0) return e.code === ClientErrorCode.Network || e.code === ClientErrorCode.Timeout;
  return e.status === 429 || e.status === 502 || e.status === 503 || e.status === 504;
}

const itemKey = (item: { platform?: string | null; itemId: string }) => `${(item.platform ?? "generic").toLowerCase()}:${item.itemId}`;

/** The queue keeps at most this many products; the oldest go first when it is full. */
const MAX_QUEUE = 500;

export type CollectorDeps = { session: SessionService; items: StorageItems; now?: () => number };

export function createCollector({ session, items, now = Date.now }: CollectorDeps) {
  let flushing: Promise<number> | null = null;

  async function enqueue(product: Product) {
    const key = itemKey(product);
    const queue = (await items.collectQueue.getValue()).filter((q) => q.key !== key);
    queue.push({ key, product, queuedAt: now(), attempts: 0 });
    await items.collectQueue.setValue(queue.slice(-MAX_QUEUE));
  }

  function outcomeOf(e: unknown): CollectOutcome {
    if (e instanceof ApiError && e.status === 401) return { outcome: "not-logged-in", message: "请先登录采集助手", collectionId: null };
    if (e instanceof ApiError && e.code === "Collect.LimitReached") return { outcome: "limit", message: e.message, collectionId: null };
    return { outcome: "refused", message: e instanceof Error ? e.message : "采集失败", collectionId: null };
  }

  /** Sends the queue in order; answers how many left it. Products the server refuses for good are dropped. */
  async function flushOnce(): Promise<number> {
    if (!(await items.session.getValue())) return 0;
    let sent = 0;
    for (const entry of await items.collectQueue.getValue()) {
      try {
        await session.api.collect.crawlProductByPlugin(entry.product as Product);
      } catch (e) {
        if (isTransient(e)) break; // still unreachable: keep the rest, in order, for the next try
        if (e instanceof ApiError && e.status === 401) break; // wait for a new login
      }
      sent++;
      // Removed one by one, so a product is never sent twice even if the worker stops half way.
      await items.collectQueue.setValue((await items.collectQueue.getValue()).filter((q) => q.key !== entry.key));
    }
    return sent;
  }

  return {
    async collect(product: Product): Promise<CollectOutcome> {
      if (!(await items.session.getValue())) return { outcome: "not-logged-in", message: "请先登录采集助手", collectionId: null };
      try {
        const r = await session.api.collect.crawlProductByPlugin(product);
        // Whatever waited in the queue can go now that the server answers.
        void this.flush();
        return r.isNew
          ? {
              outcome: "collected",
              message: r.infringementWord ? `已采集（含侵权词：${r.infringementWord}）` : "已采集",
              collectionId: r.id,
            }
          : { outcome: "already", message: "已采集过，已更新", collectionId: r.id };
      } catch (e) {
        if (!isTransient(e)) return outcomeOf(e);
        await enqueue(product);
        return { outcome: "queued", message: "服务器暂时无法连接，已加入待发送队列，恢复后自动发送", collectionId: null };
      }
    },

    async isCollected(item: SourceItem): Promise<boolean> {
      if (!(await items.session.getValue())) return false;
      try {
        const found = await session.api.collect.getCrawledSkus({ skus: [item.itemId], platform: item.platform });
        return found.includes(item.itemId);
      } catch {
        return false; // marking is a courtesy: never block the button on it
      }
    },

    /** The ready orders waiting for this offer (null: not logged in, or the server did not answer; never blocks). */
    async waitingOrders(item: SourceItem): Promise<WaitingOrders | null> {
      if (!(await items.session.getValue())) return null;
      try {
        const list = await session.api.order.getPurchaseList({
          SourcePlatformType: platformTypeOf(item.platform),
          SourceItemId: item.itemId,
        });
        const lines = list.groups.flatMap((g) =>
          g.lines.flatMap((l) =>
            l.orders.map((o) => ({
              orderNo: o.orderNo,
              quantity: o.quantity,
              variant: l.source?.variant ? [l.source.variant.sku, ...l.source.variant.values].join(" ") : null,
              bought: !!o.purchase,
            })),
          ),
        );
        return {
          orders: new Set(lines.map((l) => l.orderNo)).size,
          quantity: lines.reduce((n, l) => n + l.quantity, 0),
          bought: lines.reduce((n, l) => n + (l.bought ? l.quantity : 0), 0),
          lines,
        };
      } catch {
        return null;
      }
    },

    async pending(): Promise<number> {
      return (await items.collectQueue.getValue()).length;
    },

    /** One flush at a time (the alarm and a successful collect may both ask). */
    flush(): Promise<number> {
      flushing ??= flushOnce().finally(() => {
        flushing = null;
      });
      return flushing;
    },
  };
}

export type CollectorService = ReturnType<typeof createCollector>;
