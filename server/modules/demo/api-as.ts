// The product's own API, called in this process as one of its users: the typed client (shared/api) over Fastify's
// inject, with a session opened for the user. Every route, schema, permission and transaction runs as for a browser.
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { users } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { openSession, type SessionDeps } from "../identity/index.ts";
import { createApi, type Api } from "#shared/api/index.ts";

const ORIGIN = "http://first-start.local";

/** A fetch that answers from the app itself. */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input), ORIGIN);
    const res = await app.inject({
      method: (init?.method ?? "GET") as "GET",
      url: url.pathname + url.search,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(init?.body !== undefined && init.body !== null ? { payload: init.body as string } : {}),
    });
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : String(v));
    const empty = res.statusCode === 204 || res.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
  };
}

/** The API as the user (a tenant's user or the host administrator), with a fresh session of its own. */
export async function apiAs(fetch: typeof globalThis.fetch, deps: SessionDeps, who: { tenantId: string; userId: string }): Promise<Api> {
  const [user] = await inScope(deps.database.db, { tenantId: who.tenantId }, (tx) =>
    tx.select().from(users).where(eq(users.id, who.userId)),
  );
  if (!user) throw new Error(`first start: user ${who.userId} not found`);
  const { access_token } = await openSession(deps, user, "127.0.0.1", false);
  return createApi({ baseUrl: ORIGIN, getToken: () => access_token, getTenant: () => null, fetch });
}
