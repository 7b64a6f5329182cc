// The receiving side of the protocol, free of browser globals so it is tested directly: validates the envelope, the
// sender and the input, runs the handler and turns any failure into a plain {message, status, code}.
import { z } from "zod";
import { ApiError } from "#shared/api/errors.ts";
import { CHANNEL, protocol, type MessageType, type Outputs, type Reply, type SenderRule, type WireError } from "./protocol.ts";

/** The parts of runtime.MessageSender the router reads. */
export type Sender = { id?: string; url?: string; tab?: unknown };

export type Handlers = {
  [K in MessageType]: (input: z.output<(typeof protocol)[K]["input"]>, sender: Sender) => Promise<Outputs[K]>;
};

export type RouterOptions = {
  /** This extension's id (browser.runtime.id). */
  extensionId: string;
  /** This extension's page origin, e.g. "chrome-extension://<id>/" (browser.runtime.getURL("/")). */
  extensionOrigin: string;
};

const envelope = z.object({ channel: z.literal(CHANNEL), type: z.string(), data: z.unknown().optional() });

export function senderAllowed(rule: SenderRule, sender: Sender, options: RouterOptions): boolean {
  if (sender.id !== options.extensionId) return false;
  if (rule === "extension") return true;
  // An extension page (popup, side panel, even opened as a tab) has our origin; a content script has the web page's.
  return typeof sender.url === "string" && sender.url.startsWith(options.extensionOrigin);
}

function toWireError(e: unknown): WireError {
  if (e instanceof ApiError) return { message: e.message, status: e.status, code: e.code };
  if (e instanceof z.ZodError) return { message: e.issues[0]?.message ?? "消息格式不正确", status: 400, code: "BadMessage" };
  return { message: e instanceof Error && e.message ? e.message : "操作失败", status: 0, code: null };
}

/**
 * Returns the function to run for each incoming message: undefined for messages of another channel (left to other
 * listeners), else a reply.
 */
export function createRouter(handlers: Handlers, options: RouterOptions) {
  return async (message: unknown, sender: Sender): Promise<Reply | undefined> => {
    const env = envelope.safeParse(message);
    if (!env.success) return undefined;
    const type = env.data.type as MessageType;
    if (!Object.hasOwn(protocol, type)) {
      return { ok: false, error: { message: `未知的消息: ${env.data.type}`, status: 400, code: "UnknownMessage" } };
    }
    const def = protocol[type];
    if (!senderAllowed(def.from, sender, options)) {
      return { ok: false, error: { message: "暂无权限", status: 403, code: "SenderRefused" } };
    }
    try {
      const input = def.input.parse(env.data.data);
      const handler = handlers[type] as (input: unknown, sender: Sender) => Promise<unknown>;
      return { ok: true, data: await handler(input, sender) };
    } catch (e) {
      return { ok: false, error: toWireError(e) };
    }
  };
}
