// Declares each server call once, here (group, name, method, path, who may call, the contract's zod schemas, whether it
// takes an Idempotency-Key). The server registers its handler against the declaration (server/http/calls.ts `r.handle`),
// the client's function is bound from it (`bindCalls`), and the OpenAPI document comes from the server's registration
// of it. The schemas give the types and, at run time, which query/path parameters and body fields are required; the
// server stays the one that validates input (the client sends values as given, so client and server cannot disagree on
// a rule), and in tests every answer is checked against `result`.
import type { z } from "zod";
import { checkRequired, fillPath, newIdempotencyKey, type ApiClient, type CallOptions, type QueryValue } from "./client.ts";

type AnyObject = z.ZodType<Record<string, unknown>>;

/**
 * anonymous: no token needed (a token, if sent, is still checked); user: any logged-in user; main: a tenant's main
 * account; host: the platform operator (runs with the tenant policy opted out).
 */
export type Access = "anonymous" | "user" | "main" | "host";

export type CallDef<
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  P extends AnyObject | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
> = {
  /** The spec's controller and method: the path is /api/<group>/<name> unless `path` says otherwise. */
  group: string;
  name: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The registered path: /api/<group>/<name>, or an ABP path with :params. */
  path: string;
  access: Access;
  /** One line for the OpenAPI document. */
  summary?: string;
  query?: Q;
  body?: B;
  params?: P;
  /** The 200 answer's `result`, as it travels (JSON): checked against every answer in tests. */
  result?: R;
  /**
   * The call is not naturally idempotent (a bulk edit, a creation, a task): it takes an `Idempotency-Key` header, and
   * the same key with the same request answers the first result (server/http/idempotency.ts). The client always sends one.
   */
  idempotent?: true;
  /** The call moves money: its Idempotency-Key is required (400 without). Needs `idempotent`. */
  movesMoney?: true;
  /**
   * The call answers a file (xlsx, pdf, an image) or a page, not JSON, and declares no result: the client's function
   * gives its address. A file is fetched with the same Authorization and __tenant headers (a bearer token cannot ride
   * on a navigation) and saved under its Content-Disposition name.
   */
  answersFile?: true;
};

/** What a caller passes for a schema: the schema's input, except that values the server coerces from query strings
 *  (numbers, booleans) take their parsed type; dates may be Date (the client sends its ISO string) or an ISO string. */
export type InputOf<S extends z.ZodType> = {
  [K in keyof z.input<S>]: unknown extends z.input<S>[K]
    ? K extends keyof z.output<S>
      ? z.output<S>[K]
      : unknown
    : z.input<S>[K] | DateOf<K extends keyof z.output<S> ? z.output<S>[K] : never>;
};
type DateOf<T> = T extends Date ? Date : never;

type Merge<A, B> = A extends undefined ? B : B extends undefined ? A : A & B;
type In<S> = S extends z.ZodType ? InputOf<S> : undefined;
/** Query and path parameters travel together in one object. */
type Named<D> = D extends CallDef<infer Q, any, infer P, any> ? Merge<In<Q>, In<P>> : never;
type Body<D> =
  D extends CallDef<any, infer B, any, any> ? (B extends z.ZodObject ? InputOf<B> : B extends z.ZodType ? z.input<B> : undefined) : never;
type Opt<T> = {} extends T ? [input?: T] : [input: T];

type ArgsOf<D> =
  Body<D> extends undefined
    ? Named<D> extends undefined
      ? [options?: CallOptions]
      : [...Opt<Named<D>>, options?: CallOptions]
    : Named<D> extends undefined
      ? [body: Body<D>, options?: CallOptions]
      : [named: Named<D>, body: Body<D>, options?: CallOptions];

type ResultOf<D> = D extends CallDef<any, any, any, infer R> ? (R extends z.ZodType ? z.output<R> : void) : never;

type CallFn<D> = D extends { answersFile: true } ? (...args: ArgsOf<D>) => Promise<string> : (...args: ArgsOf<D>) => Promise<ResultOf<D>>;

export function call<
  const Q extends AnyObject | undefined = undefined,
  const B extends z.ZodType | undefined = undefined,
  const P extends AnyObject | undefined = undefined,
  const R extends z.ZodType | undefined = undefined,
  const F extends true | undefined = undefined,
>(
  def: Omit<CallDef<Q, B, P, R>, "path" | "answersFile"> & { path?: string; answersFile?: F },
): CallDef<Q, B, P, R> & (F extends true ? { answersFile: true } : {}) {
  return { ...def, path: def.path ?? `/api/${def.group}/${def.name}` } as CallDef<Q, B, P, R> &
    (F extends true ? { answersFile: true } : {});
}

type RequiredField = { name: string; nullable: boolean };
const requiredCache = new WeakMap<z.ZodType, RequiredField[]>();

/** The fields of an object schema that do not accept undefined (no optional, no default), and whether null is allowed. */
function requiredFields(schema: z.ZodType | undefined): RequiredField[] {
  if (!schema) return [];
  let fields = requiredCache.get(schema);
  if (!fields) {
    const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
    fields = shape
      ? Object.entries(shape)
          .filter(([, s]) => !accepts(s, undefined))
          .map(([name, s]) => ({ name, nullable: accepts(s, null) }))
      : [];
    requiredCache.set(schema, fields);
  }
  return fields;
}

// Asks the schema itself (optional, default, nullable, preprocess all answer correctly; `_zod.optin` does not for
// preprocess, which says "optional" even when the inner schema refuses undefined).
function accepts(s: z.ZodType, value: unknown): boolean {
  try {
    return s.safeParse(value).success;
  } catch {
    return false;
  }
}

/** Splits the named-parameters object into path params and query values. */
function splitNamed(def: CallDef<any, any, any, any>, named: Record<string, unknown> | undefined) {
  const paramKeys = new Set(Object.keys((def.params as unknown as { shape?: object })?.shape ?? {}));
  for (const m of def.path.matchAll(/:([A-Za-z0-9_]+)/g)) paramKeys.add(m[1]);
  const params: Record<string, string | number | null | undefined> = {};
  const query: Record<string, QueryValue> = {};
  for (const [k, v] of Object.entries(named ?? {})) {
    if (paramKeys.has(k)) params[k] = v as string;
    else query[k] = v as QueryValue;
  }
  return { params, query };
}

function bindCall<D extends CallDef<any, any, any, any>>(client: ApiClient, def: D): CallFn<D> {
  const hasNamed = !!(def.query || def.params || /:[A-Za-z]/.test(def.path));
  const hasBody = !!def.body;
  // Query and path values are never sent as null, so a required one must be present and non-null (spec §5).
  const required = [...requiredFields(def.params), ...requiredFields(def.query)].map((f) => f.name);
  const bodyRequired = requiredFields(def.body);
  if (def.answersFile) {
    return ((named?: Record<string, unknown>) => {
      const { params, query } = splitNamed(def, named);
      return client.url(fillPath(def.path, params), query);
    }) as unknown as CallFn<D>;
  }
  return ((...args: unknown[]) => {
    const named = (hasNamed ? args[0] : undefined) as Record<string, unknown> | undefined;
    const body = hasBody ? args[hasNamed ? 1 : 0] : undefined;
    const options = (args[(hasNamed ? 1 : 0) + (hasBody ? 1 : 0)] ?? {}) as CallOptions;
    try {
      if (hasBody) {
        if (body === undefined || body === null) checkRequired({}, ["input"]);
        if (bodyRequired.length && typeof body === "object") {
          const b = body as Record<string, unknown>;
          checkRequired(
            b,
            bodyRequired.filter((f) => !(f.nullable && b[f.name] === null)).map((f) => f.name),
          );
        }
      }
      const { params, query } = splitNamed(def, named);
      return client.request({
        method: def.method,
        path: def.path,
        params,
        query,
        body,
        required,
        signal: options.signal,
        ...(options.tenant !== undefined ? { tenant: options.tenant } : {}),
        ...(def.idempotent ? { idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() } : {}),
      });
    } catch (e) {
      return Promise.reject(e);
    }
  }) as unknown as CallFn<D>;
}

type Defs = Record<string, CallDef<any, any, any, any>>;
export type BoundCalls<T extends Defs> = { [K in keyof T]: CallFn<T[K]> };

/** Binds a group of call definitions to a client: `createUserApi(client).getSubUsers({ SkipCount: 0 })`. */
export function bindCalls<T extends Defs>(client: ApiClient, defs: T): BoundCalls<T> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(defs)) out[name] = bindCall(client, def);
  return out as BoundCalls<T>;
}
