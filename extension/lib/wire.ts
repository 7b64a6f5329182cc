// What crosses between the extension's pages and its background worker without the protocol's schemas: the channel
// names and the error a reply carries. Kept free of zod so the side panel's first chunk (which only sends) stays small;
// protocol.ts re-exports it for the receivers.

export const CHANNEL = "mercado-erp";

/** What the background pushes to open extension pages (the side panel), outside the request/answer protocol. */
export const PUSH_CHANNEL = "mercado-erp:push";

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
