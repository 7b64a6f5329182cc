// The side panel's saves: CreateOrUpdateProduct through the session's API client (the console editor's call, with the
// body the contract checked at the receiver). When the server cannot be reached the edit waits in an extension-side
// queue, one entry per product (a newer save of the same product replaces the waiting one: each body is the whole
// edit), and is sent later, once: an entry leaves the queue as soon as the server has answered it.
import type { z } from "zod";
import { ApiError } from "#shared/api/errors.ts";
import type { saveProductInput, SaveOutcome } from "../../lib/protocol.ts";
import type { StorageItems } from "../../lib/storage.ts";
import { isTransient } from "./collector.ts";
import type { SessionService } from "./session.ts";

type Body = z.output<typeof saveProductInput>;

/** The queue keeps at most this many products' edits; the oldest go first when it is full. */
const MAX_EDITS = 200;

export type EditsDeps = {
  session: SessionService;
  items: StorageItems;
  now?: () => number;
  /**
   * Told when the queue changed: an edit queued (sent 0), or a flush that sent some, `refused` of them refused by the
   * server (the panel reloads what it shows, and says so when an edit was refused).
   */
  onChange?: (sent: number, pending: number, refused: number) => void;
};

const QUEUED_MESSAGE = "服务器暂时无法连接，修改已保存在本地，恢复后自动提交";

export function createEdits({ session, items, now = Date.now, onChange }: EditsDeps) {
  let flushing: Promise<number> | null = null;

  async function enqueue(body: Body): Promise<number> {
    const queue = (await items.editQueue.getValue()).filter((q) => q.productId !== body.id);
    queue.push({ productId: body.id, body, queuedAt: now(), attempts: 0 });
    await items.editQueue.setValue(queue.slice(-MAX_EDITS));
    return Math.min(queue.length, MAX_EDITS);
  }

  /** Sends the queue in order; answers how many left it, and how many of those the server refused. */
  async function flushOnce(): Promise<{ sent: number; refused: number }> {
    if (!(await items.session.getValue())) return { sent: 0, refused: 0 };
    let sent = 0;
    let refused = 0;
    for (const entry of await items.editQueue.getValue()) {
      try {
        await session.api.product.createOrUpdateProduct(entry.body as Body);
      } catch (e) {
        if (isTransient(e)) break; // still unreachable: the rest waits, in order
        if (e instanceof ApiError && e.status === 401) break; // waits for a new login
        // Refused for good (a newer save in between answers 409, a deleted product 404): dropped, not retried forever.
        refused++;
      }
      sent++;
      await items.editQueue.setValue((await items.editQueue.getValue()).filter((q) => q.productId !== entry.productId));
    }
    return { sent, refused };
  }

  const service = {
    /** Saves now, or queues the edit when the server is unreachable. */
    async save(body: Body): Promise<SaveOutcome> {
      try {
        const product = await session.api.product.createOrUpdateProduct(body);
        // A save that reached the server supersedes an older edit of the same product still waiting.
        await items.editQueue.setValue((await items.editQueue.getValue()).filter((q) => q.productId !== body.id));
        void service.flush();
        return { outcome: "saved", product };
      } catch (e) {
        if (!isTransient(e)) throw e;
        const pending = await enqueue(body);
        onChange?.(0, pending, 0);
        return { outcome: "queued", pending, message: QUEUED_MESSAGE };
      }
    },

    async pending(): Promise<number> {
      return (await items.editQueue.getValue()).length;
    },

    /** One flush at a time (the alarm, a login and a save may all ask). */
    flush(): Promise<number> {
      flushing ??= flushOnce()
        .then(async ({ sent, refused }) => {
          if (sent > 0) onChange?.(sent, await service.pending(), refused);
          return sent;
        })
        .finally(() => {
          flushing = null;
        });
      return flushing;
    },
  };
  return service;
}

export type EditsService = ReturnType<typeof createEdits>;
