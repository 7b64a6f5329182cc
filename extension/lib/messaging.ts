// Browser wiring of the protocol: the background listens, pages send. Chrome's onMessage needs `return true` and
// sendResponse for an asynchronous answer (WXT's `browser` is the plain chrome object, no polyfill).
import { browser, type Browser } from "wxt/browser";
import type { InputOf, MessageType, Outputs } from "./protocol.ts";
import type { createRouter } from "./router.ts";
import { CHANNEL, MessageError, type Reply } from "./wire.ts";

export function listen(router: ReturnType<typeof createRouter>): () => void {
  const listener = (message: unknown, sender: Browser.runtime.MessageSender, sendResponse: (r: unknown) => void) => {
    if ((message as { channel?: unknown } | null)?.channel !== CHANNEL) return false;
    router(message, sender).then(sendResponse, (e: unknown) =>
      sendResponse({ ok: false, error: { message: e instanceof Error ? e.message : "操作失败", status: 0, code: null } }),
    );
    return true;
  };
  browser.runtime.onMessage.addListener(listener);
  return () => browser.runtime.onMessage.removeListener(listener);
}

/** Sends one typed message to the background and answers its data, or throws MessageError. */
export async function sendMessage<K extends MessageType>(
  type: K,
  ...data: undefined extends InputOf<K> ? [data?: InputOf<K>] : [data: InputOf<K>]
): Promise<Outputs[K]> {
  const reply = (await browser.runtime.sendMessage({ channel: CHANNEL, type, data: data[0] })) as Reply<Outputs[K]> | undefined;
  if (!reply) throw new MessageError({ message: "后台服务未响应，请重新打开插件", status: 0, code: "NoReply" });
  if (!reply.ok) throw new MessageError(reply.error);
  return reply.data;
}
