// How the adapter's requests leave the process: a fetch-like function. Against Mercado Libre it is the global fetch.
// When the sandbox runs in this process (MELI_API_URL unset: the default, and every test) requests go to it through
// Fastify's inject on a private instance serving the same sandbox (same store, clock and counters) at the same prefix:
// no socket, no dependence on the app listening, and every byte still goes through the sandbox's HTTP handling.
import { gunzipSync } from "node:zlib";
import Fastify, { type FastifyInstance } from "fastify";
import { SANDBOX_PREFIX, type Sandbox } from "../../sandbox/sandbox.ts";

type MeliRequestInit = { method: string; headers: Record<string, string>; body?: string | Buffer; signal?: AbortSignal };
export type MeliFetch = (url: string, init: MeliRequestInit) => Promise<Response>;

export const globalFetch: MeliFetch = (url, init) =>
  fetch(url, { ...init, body: typeof init.body === "string" || init.body === undefined ? init.body : new Uint8Array(init.body) });

/** Requests to any URL under SANDBOX_PREFIX, answered by the in-process sandbox. */
export function sandboxFetch(sandbox: Sandbox): MeliFetch {
  let server: Promise<FastifyInstance> | null = null;
  const ready = () =>
    (server ??= (async () => {
      const f = Fastify({ logger: false, bodyLimit: 12 * 1024 * 1024 });
      await f.register(sandbox.plugin, { prefix: SANDBOX_PREFIX });
      await f.ready();
      return f;
    })());

  return async (url, init) => {
    const u = new URL(url);
    if (!u.pathname.startsWith(SANDBOX_PREFIX)) throw new TypeError(`fetch failed: ${u.pathname} is not served by the sandbox`);
    const f = await ready();
    const res = await f.inject({
      method: init.method as "GET",
      url: u.pathname + u.search,
      headers: { ...init.headers, "accept-encoding": init.headers["accept-encoding"] ?? "gzip" },
      payload: init.body,
    });
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      for (const x of Array.isArray(v) ? v : [v]) headers.append(k, String(x));
    }
    let body: Buffer | null = res.rawPayload;
    // fetch hands back the decoded body; so does this.
    if (headers.get("content-encoding") === "gzip" && body.length) {
      body = gunzipSync(body);
      headers.delete("content-encoding");
      headers.delete("content-length");
    }
    const bodyless = res.statusCode === 204 || res.statusCode === 304 || init.method === "HEAD";
    return new Response(bodyless ? null : new Uint8Array(body), { status: res.statusCode, headers });
  };
}
