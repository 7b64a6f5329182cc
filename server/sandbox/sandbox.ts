// The Mercado Libre sandbox as one encapsulated Fastify plugin: its own body parsers, error handler and 404 (answers
// in Mercado Libre's shape, never the app's envelope), routes hidden from the OpenAPI document, and no part of the
// app's auth or tenancy. Mounted by the app under a prefix (the API at the prefix, the authorization page at
// `${prefix}/auth`), or served alone by main.ts.
import multipart from "@fastify/multipart";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyPluginAsync } from "fastify";
import { registerCatalogRoutes } from "./catalog.ts";
import { registerChartRoutes } from "./charts.ts";
import { createControl, registerControlRoutes, type Control } from "./control.ts";
import { defaultBody, MeliError } from "./errors.ts";
import { registerFreightRoutes } from "./freight.ts";
import { registerGlobalItemRoutes } from "./global-items.ts";
import { registerItemRoutes } from "./items.ts";
import { createGate } from "./limits.ts";
import { registerOAuthRoutes } from "./oauth.ts";
import { registerInvoiceRoutes } from "./invoices.ts";
import { advanceOrders, registerOrderRoutes } from "./orders.ts";
import { registerShipmentRoutes } from "./shipments.ts";
import { createStore, type SandboxOptions, type Store } from "./store.ts";
import { registerUserRoutes } from "./users.ts";
import { registerVisitRoutes } from "./visits.ts";

export type { SandboxOptions } from "./store.ts";

/** Where the app mounts the sandbox; the authorization page is at `${SANDBOX_PREFIX}/auth/authorization`. */
export const SANDBOX_PREFIX = "/sandbox/meli";
/** The mounted sandbox's state, in DATA_DIR. */
export const SANDBOX_STATE_FILE = "meli-sandbox.json";

export type Sandbox = {
  /** Register with `{ prefix }`; the plugin is encapsulated. */
  plugin: FastifyPluginAsync;
  control: Control;
  store: Store;
};

const BODY_LIMIT = 1024 * 1024;

/** The controls, each call marking the state changed (so a kept state is written after it). */
function savingAfterEachCall<T extends object>(target: T, changed: () => void): T {
  for (const [key, value] of Object.entries(target)) {
    if (typeof value === "function") {
      (target as Record<string, unknown>)[key] = (...args: unknown[]) => {
        const out = value(...args);
        changed();
        return out;
      };
    } else if (value && typeof value === "object" && !Array.isArray(value)) savingAfterEachCall(value, changed);
  }
  return target;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const store = createStore(options);
  const control = savingAfterEachCall(createControl(store), () => store.changed());

  const plugin: FastifyPluginAsync = async (f) => {
    // The app's parsers (and its JSON error wording) stay outside: the sandbox reads bodies as the real API does.
    f.removeAllContentTypeParsers();
    f.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: BODY_LIMIT }, (_req, body, done) => {
      if (body === "") return done(null, undefined);
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new MeliError(400, "bad_request", "body.invalid_json"), undefined);
      }
    });
    f.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: BODY_LIMIT }, (_req, body, done) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of new URLSearchParams(body as string)) {
        const prev = out[k];
        out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
      }
      done(null, out);
    });
    // Clients that send JSON without naming it are read as JSON when it parses, else as text.
    f.addContentTypeParser("*", { parseAs: "string", bodyLimit: BODY_LIMIT }, (_req, body, done) => {
      try {
        done(null, body === "" ? undefined : JSON.parse(body as string));
      } catch {
        done(null, body);
      }
    });
    await f.register(multipart);

    f.setValidatorCompiler(() => () => true);
    f.setErrorHandler((err: FastifyError, req, reply) => {
      if (err instanceof MeliError) return reply.code(err.status).type("application/json; charset=utf-8").send(err.body());
      const status = typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      if (status === 500) req.log.error({ err }, "sandbox error");
      const body = defaultBody(status);
      return reply
        .code(status)
        .type("application/json; charset=utf-8")
        .send(status === 500 ? body : { ...body, message: err.message || body.message });
    });
    f.setNotFoundHandler((req, reply) =>
      reply
        .code(404)
        .type("application/json; charset=utf-8")
        .send({ message: `No handler found for ${req.method} ${req.url.split("?")[0]}`, error: "not_found", status: 404, cause: [] }),
    );
    f.addHook("onRequest", createGate(store, f.prefix));
    // Any call may change the state (orders appear as the clock reaches them, tokens rotate).
    f.addHook("onResponse", async () => store.changed());
    // Orders appear by themselves (and are notified) even when nobody calls: the order stream is brought up to the
    // clock every `tickSeconds`.
    let ticker: NodeJS.Timeout | null = null;
    if (options.tickSeconds) {
      f.addHook("onReady", async () => {
        ticker = setInterval(() => {
          const before = store.state.counters.order;
          advanceOrders(store);
          if (store.state.counters.order !== before) store.changed();
        }, options.tickSeconds! * 1000);
        ticker.unref();
      });
    }
    f.addHook("onClose", async () => {
      if (ticker) clearInterval(ticker);
      store.flush();
    });

    registerOAuthRoutes(f, store);
    registerUserRoutes(f, store);
    registerCatalogRoutes(f, store);
    registerItemRoutes(f, store);
    registerGlobalItemRoutes(f, store);
    registerOrderRoutes(f, store);
    registerShipmentRoutes(f, store);
    registerInvoiceRoutes(f, store);
    registerVisitRoutes(f, store);
    registerFreightRoutes(f, store);
    registerChartRoutes(f, store);
    if (options.adminRoutes !== false) registerControlRoutes(f, control);
  };

  return { plugin, control, store };
}

/** A Fastify server serving only the sandbox, at its root (main.ts and the sandbox's own tests). */
export async function buildSandboxServer(sandbox: Sandbox, opts: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 12 * 1024 * 1024 });
  await app.register(sandbox.plugin);
  return app;
}
