// What happens to a request before its route runs: it is counted, a forced error may answer it, and it is held to the
// per-seller and per-app rate limits (one-minute windows on the sandbox clock) with a 429 like the real API's:
// Retry-After when configured, and now and then an empty body.
import type { FastifyReply, FastifyRequest } from "fastify";
import { defaultBody, invalidToken } from "./errors.ts";
import { principalOf, setPrincipal } from "./http.ts";
import { resolveToken } from "./oauth.ts";
import { advanceOrders } from "./orders.ts";
import type { Store } from "./store.ts";

const WINDOW_MS = 60_000;

/** Counts one hit on the key; the seconds to wait when it is over the limit, else 0. */
function hit(store: Store, key: string, limit: number): number {
  const now = store.now();
  let w = store.state.windows.get(key);
  if (!w || now - w.start >= WINDOW_MS) {
    w = { start: now, count: 0 };
    store.state.windows.set(key, w);
  }
  w.count += 1;
  return w.count > limit ? Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000)) : 0;
}

/** The request's path under the sandbox's prefix, without the query. */
function sandboxPath(req: FastifyRequest, prefix: string): string {
  const path = req.url.split("?")[0];
  return prefix && path.toLowerCase().startsWith(prefix.toLowerCase()) ? path.slice(prefix.length) || "/" : path;
}

function tooMany(store: Store, reply: FastifyReply, wait: number) {
  const s = store.state;
  s.rejections += 1;
  if (s.rateLimit.retryAfter) reply.header("retry-after", String(wait));
  reply.code(429);
  if (s.rateLimit.emptyBodyEvery > 0 && s.rejections % s.rateLimit.emptyBodyEvery === 0) return reply.send("");
  return reply.type("application/json; charset=utf-8").send(defaultBody(429));
}

/** The sandbox's onRequest hook. */
export function createGate(store: Store, prefix: string) {
  return async function gate(req: FastifyRequest, reply: FastifyReply) {
    const config = req.routeOptions.config?.sandbox;
    if (config?.admin) return;
    const s = store.state;
    if (config) {
      const routeKey = `${req.method} ${(req.routeOptions.url ?? "").slice(prefix.length) || "/"}`;
      s.calls.set(routeKey, (s.calls.get(routeKey) ?? 0) + 1);
      advanceOrders(store);
    }

    const path = sandboxPath(req, prefix);
    const injection = s.injections.find(
      (i) =>
        i.remaining > 0 && (!i.method || i.method === req.method) && (typeof i.path === "string" ? i.path === path : i.path.test(path)),
    );
    if (injection) {
      injection.remaining -= 1;
      s.injections = s.injections.filter((i) => i.remaining > 0);
      for (const [k, v] of Object.entries(injection.headers)) reply.header(k, v);
      if (injection.status === 429 && !("retry-after" in injection.headers) && s.rateLimit.retryAfter) reply.header("retry-after", "1");
      reply.code(injection.status);
      if (injection.body === "") return reply.send("");
      return reply.type("application/json; charset=utf-8").send(injection.body ?? defaultBody(injection.status));
    }

    // Unknown paths go on to the 404.
    if (!config || config.auth === "none") return;
    const header = req.headers.authorization;
    const resolved = resolveToken(store, header);
    if (resolved) setPrincipal(req, { user: resolved.user, clientId: resolved.token.clientId });
    else if (config.auth === "required" || header) throw invalidToken();

    const p = principalOf(req);
    if (!p) return;
    const sellerLimit = s.sellerLimits.get(p.user.id) ?? s.rateLimit.perSellerPerMinute;
    const waits = [hit(store, `seller:${p.user.id}`, sellerLimit), hit(store, `app:${p.clientId}`, s.rateLimit.perAppPerMinute)];
    if (config.limit === "orders") waits.push(hit(store, `orders:${p.user.id}`, s.rateLimit.orderSearchPerMinute));
    const wait = Math.max(...waits);
    if (wait > 0) return tooMany(store, reply, wait);
  };
}
