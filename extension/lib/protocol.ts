// The one message protocol between the extension's pages (popup, later the side panel and content scripts) and the
// background worker, which owns the token and every API call (ARCHITECTURE "Extension"). Each message has a zod
// schema checked by the receiver and a rule on who may send it. Only plain data crosses: errors travel as
// {message, status, code} and are re-thrown on the sending side as MessageError.
import { z } from "zod";
import { collectedProductInput } from "../../shared/contract/collect.ts";
import { platform } from "../../shared/extract/product.ts";
import type { UserInfo } from "../../shared/contract/users.ts";

export const CHANNEL = "mercado-erp";

/** Accepts "erp.example.com", "localhost:3000" or a full URL; answers the origin plus path, without a trailing slash. */
export const serverUrl = z
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
export type LoginInput = z.input<typeof loginInput>;
export type LoginRequest = z.output<typeof loginInput>;

export const status = z.object({
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
export const sourceItem = z.object({ platform, itemId: z.string().trim().min(1).max(128) });
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

export const protocol = {
  login: { input: loginInput, from: "page" },
  logout: { input: none, from: "page" },
  getStatus: { input: none, from: "extension" },
  getUserInfo: { input: none, from: "extension" },
  /** A content script's extracted product (the server's own contract checks it here too: content scripts are less trusted). */
  collect: { input: collectedProductInput, from: "extension" },
  /** Whether the logged-in user already collected this item (the button is marked on sight). */
  isCollected: { input: sourceItem, from: "extension" },
  /** Collections waiting for the server (the popup shows the count). */
  getQueue: { input: none, from: "extension" },
  /** Sends the waiting collections now (the popup's 立即发送). */
  flushQueue: { input: none, from: "page" },
} as const satisfies Record<string, { input: z.ZodType; from: SenderRule }>;

export type Protocol = typeof protocol;
export type MessageType = keyof Protocol;

/** What each message answers. */
export type Outputs = {
  login: Status;
  logout: Status;
  getStatus: Status;
  getUserInfo: UserInfo;
  collect: CollectOutcome;
  isCollected: boolean;
  getQueue: { pending: number };
  flushQueue: { sent: number; pending: number };
};

export type InputOf<K extends MessageType> = z.input<Protocol[K]["input"]>;
export type Envelope<K extends MessageType = MessageType> = { channel: typeof CHANNEL; type: K; data?: InputOf<K> };

export type WireError = { message: string; status: number; code: string | null };
export type Reply<T = unknown> = { ok: true; data: T } | { ok: false; error: WireError };

export class MessageError extends Error {
  readonly status: number;
  readonly code: string | null;
  constructor(e: WireError) {
    super(e.message);
    this.name = "MessageError";
    this.status = e.status;
    this.code = e.code;
  }
}
