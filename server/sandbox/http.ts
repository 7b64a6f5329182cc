// What every sandbox route shares: its options (hidden from the OpenAPI document, with the sandbox's own auth and
// rate-limit class), the caller a bearer token names, and reading query values the way the real API does.
import type { FastifyRequest } from "fastify";
import { badRequest, invalidToken } from "./errors.ts";
import type { User } from "./store.ts";

export type RouteConfig = {
  /** required: 401 without a valid token; optional: public, but a bad token still answers 401; none: no token read. */
  auth: "required" | "optional" | "none";
  /** A separate, lower rate limit (order searches). */
  limit?: "orders";
  /** The /_sandbox control endpoints: not counted, limited or injected. */
  admin?: boolean;
};

declare module "fastify" {
  interface FastifyContextConfig {
    sandbox?: RouteConfig;
  }
}

export const route = (sandbox: RouteConfig) => ({ schema: { hide: true }, config: { sandbox } });

export type Principal = { user: User; clientId: string };

const principals = new WeakMap<FastifyRequest, Principal>();

export function setPrincipal(req: FastifyRequest, p: Principal) {
  principals.set(req, p);
}

export function principalOf(req: FastifyRequest): Principal | null {
  return principals.get(req) ?? null;
}

/** The seller the request's token belongs to. */
export function caller(req: FastifyRequest): User {
  const p = principals.get(req);
  if (!p) throw invalidToken();
  return p.user;
}

/** Query values as strings (a repeated parameter reads as its first value). */
export function query(req: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    out[k] = Array.isArray(v) ? String(v[0]) : v === undefined ? undefined : String(v);
  }
  return out;
}

export function params(req: FastifyRequest): Record<string, string> {
  return req.params as Record<string, string>;
}

/** A whole-number query value within bounds; the real API answers 400 for anything else. */
export function intQuery(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value)) throw badRequest(`Invalid value for ${name}: ${value}`);
  const n = Number(value);
  if (n < min) throw badRequest(`${name} must be greater than or equal to ${min}`);
  if (n > max) throw badRequest(`${name} must be lower than or equal to ${max}`);
  return n;
}

/** The JSON body as an object, or a 400 like the real API's for anything else. */
export function objectBody(req: FastifyRequest): Record<string, unknown> {
  const b = req.body;
  if (!b || typeof b !== "object" || Array.isArray(b)) throw badRequest("body.invalid", "bad_request");
  return b as Record<string, unknown>;
}
