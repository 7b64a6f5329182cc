// Shared pieces of the security suites (RELIABILITY.md scenarios 5-7, 11, 12 and the error contract): the error
// envelope check, the calls as the OpenAPI document describes them, a generator of valid and of garbage inputs driven
// by those schemas, and catalogue queries over the tenant-owned tables. Nothing here names a module's route, so calls
// added later are covered as they register.
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { hostAllScope, inScope } from "../db/scope.ts";
import type { RegisteredCall } from "../http/calls.ts";
import { openSession } from "../modules/identity/sessions.ts";
import type { ApiResponse, TestServer } from "./harness.ts";

// ---------------------------------------------------------------------------------------------------------------
// The error envelope.

/** The statuses RELIABILITY.md maps errors to, and 422 (an Idempotency-Key used for another request: docs/decisions.md). */
const mappedErrorStatuses = new Set([400, 401, 403, 404, 409, 413, 415, 422, 429, 500]);

/** Why an error answer is not ABP's envelope, or null when it is. */
export function envelopeProblem(res: Pick<ApiResponse, "status" | "body" | "headers">): string | null {
  if (!mappedErrorStatuses.has(res.status)) return `status ${res.status} is not a mapped error status`;
  if (res.headers["_abperrorformat"] !== "true") return "header _AbpErrorFormat: true missing";
  const e = res.body?.error;
  if (!e || typeof e !== "object" || Array.isArray(e)) return "body has no error object";
  for (const k of ["code", "message", "details", "data", "validationErrors"]) if (!(k in e)) return `error.${k} missing`;
  if (typeof e.message !== "string" || !e.message) return "error.message is not a non-empty string";
  if (e.code !== null && typeof e.code !== "string") return "error.code is neither a string nor null";
  if (e.details !== null && typeof e.details !== "string") return "error.details is neither a string nor null";
  if (e.validationErrors !== null) {
    if (!Array.isArray(e.validationErrors)) return "error.validationErrors is neither a list nor null";
    for (const v of e.validationErrors) {
      if (typeof v?.message !== "string" || !Array.isArray(v?.members)) return "a validation error lacks message or members";
    }
  }
  if (res.status === 500 && e.details && /at .+\(.+:\d+:\d+\)|node_modules|\.ts:\d+/.test(e.details)) return "500 leaks a stack trace";
  return null;
}

export const isValidationAnswer = (res: ApiResponse) => res.status === 400 && res.body?.error?.code === "Validation";

// ---------------------------------------------------------------------------------------------------------------
// Calls as the OpenAPI document describes them.

export type JsonSchema = Record<string, any>;
type ParamSpec = { name: string; required: boolean; schema: JsonSchema };
/** What the fuzz and the matrix need of a call: all of it is in the OpenAPI document (its access as `x-access`). */
export type CallInfo = Pick<RegisteredCall, "group" | "name" | "method" | "url" | "access">;
export type Operation = {
  call: CallInfo;
  query: ParamSpec[];
  params: ParamSpec[];
  body: JsonSchema | null;
};
export type OpenApiDocument = { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, JsonSchema> } };

/** Every registered call joined to its OpenAPI operation; a call missing from the document is an error. */
export function operations(app: FastifyInstance): Operation[] {
  return operationsOf(app.swagger() as OpenApiDocument, app.calls);
}

/** The calls an OpenAPI document describes (a running server's /swagger/json), as the registrar registered them. */
export function callsOf(doc: OpenApiDocument): CallInfo[] {
  const out: CallInfo[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const access = op?.["x-access"];
      if (!access) continue; // not a registered call (the token endpoint, the event stream)
      const group = String(op.tags?.[0] ?? "");
      out.push({
        group,
        name: String(op.operationId ?? "").replace(`${group}_`, ""),
        method: method.toUpperCase(),
        url: path.replace(/\{(\w+)\}/g, ":$1"),
        access,
      });
    }
  }
  return out;
}

/** The calls joined to their operations in the document. */
export function operationsOf(doc: OpenApiDocument, calls: CallInfo[] = callsOf(doc)): Operation[] {
  const deref = (s: JsonSchema | undefined): JsonSchema | undefined => {
    let cur = s;
    for (let i = 0; cur && typeof cur.$ref === "string" && i < 10; i++) cur = doc.components?.schemas?.[cur.$ref.split("/").pop()!];
    return cur;
  };
  return calls.map((call) => {
    const path = call.url.replace(/:(\w+)/g, "{$1}");
    const op = doc.paths[path]?.[call.method.toLowerCase()];
    if (!op) throw new Error(`${call.method} ${call.url} is missing from the OpenAPI document`);
    const parameters: any[] = op.parameters ?? [];
    const param = (where: string) =>
      parameters
        .filter((p) => p.in === where)
        .map((p) => ({ name: p.name as string, required: !!p.required, schema: resolveDeep(deref(p.schema) ?? {}, deref) }));
    const body = op.requestBody?.content?.["application/json"]?.schema;
    return { call, query: param("query"), params: param("path"), body: body ? resolveDeep(deref(body)!, deref) : null };
  });
}

function resolveDeep(s: JsonSchema, deref: (s: JsonSchema | undefined) => JsonSchema | undefined, depth = 0): JsonSchema {
  if (depth > 12 || !s || typeof s !== "object") return s;
  const r = deref(s) ?? {};
  const out: JsonSchema = Array.isArray(r) ? [...r] : { ...r };
  for (const [k, v] of Object.entries(out)) {
    if (v && typeof v === "object") {
      out[k] = Array.isArray(v)
        ? v.map((x) => (x && typeof x === "object" ? resolveDeep(x, deref, depth + 1) : x))
        : k === "properties"
          ? Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, resolveDeep(pv as JsonSchema, deref, depth + 1)]))
          : resolveDeep(v as JsonSchema, deref, depth + 1);
    }
  }
  return out;
}

export const callLabel = (c: Pick<CallInfo, "method" | "url">) => `${c.method} ${c.url}`;

// ---------------------------------------------------------------------------------------------------------------
// Field names.

/** A field that names an entity: id, Id, userId, TenantIds, srcTenantId, ... */
export const isIdName = (name: string) => /(^|[a-z_])(id|ids|Id|Ids|ID|IDs)$/.test(name) || /^(id|ids)$/i.test(name);
/** A field that filters a list by text. */
const isSearchName = (name: string) => /^(search|keyword|keywords|filter|searchtext)$/i.test(name);
const isDateName = (name: string) => /(date|time)$/i.test(name) || /^(start|end|from|to)/i.test(name);

// ---------------------------------------------------------------------------------------------------------------
// Valid inputs from a schema. Each leaf has a list of candidates; a validation answer names the members that failed and
// the caller moves those to their next candidate (Choices.bump), so a few rounds find a body that passes validation.

export type IdSource = (fieldName: string, path: string) => string[] | undefined;

export class Choices {
  private readonly idx = new Map<string, number>();
  constructor(
    /** Candidate values for id-like fields, first tried first. */
    readonly ids: IdSource,
    /** Candidate texts for search-like fields. */
    readonly searches: string[] = [],
  ) {}
  pick<T>(path: string, candidates: T[]): T {
    const i = this.idx.get(path.toLowerCase()) ?? 0;
    return candidates[i % candidates.length];
  }
  /** Moves the named members to their next candidate; answers whether anything moved. */
  bump(members: string[]): boolean {
    const list = members.length ? members : [""];
    for (const m of list) {
      const key = m.toLowerCase();
      this.idx.set(key, (this.idx.get(key) ?? 0) + 1);
    }
    return true;
  }
}

const stringPool = [
  "abc123",
  "Test1234",
  "probe@example.com",
  "2024-01-02T03:04:05.000Z",
  "2024-01-02",
  "1",
  "true",
  "mx",
  "MLM",
  "zh-CN",
  "CNY",
  "https://example.com/item/1",
  "00000000-0000-4000-8000-000000000001",
];

function patternsOf(s: JsonSchema): RegExp[] {
  const out: RegExp[] = [];
  const add = (p: unknown) => {
    if (typeof p !== "string") return;
    try {
      out.push(new RegExp(p, "u"));
    } catch {
      try {
        out.push(new RegExp(p));
      } catch {
        /* a pattern JavaScript cannot read: not checked locally */
      }
    }
  };
  add(s.pattern);
  for (const sub of s.allOf ?? []) add(sub?.pattern);
  return out;
}

/** A first guess at a string for a pattern like ^(a|b|c)( (asc|desc))?$ or ^[0-9]+$. */
function fromPattern(p: string): string[] {
  const out: string[] = [];
  const alt = /^\^?\(\??:?([^|()]+)\|/.exec(p) ?? /^\^?\(([^|()]+)\)/.exec(p);
  if (alt) out.push(alt[1]);
  if (/\[0-9\]|\\d/.test(p)) out.push("12345");
  if (/\[a-z/i.test(p)) out.push("abc");
  if (/\[A-Z\]/.test(p)) out.push("ABC");
  return out;
}

function stringCandidates(s: JsonSchema, name: string, path: string, ch: Choices, withIds: boolean): string[] {
  const pats = patternsOf(s);
  const ok = (v: string) =>
    (s.minLength === undefined || v.length >= s.minLength) &&
    (s.maxLength === undefined || v.length <= s.maxLength) &&
    pats.every((r) => r.test(v));
  const head: string[] = [];
  const guidLike = s.format === "uuid" || pats.some((r) => r.test("00000000-0000-4000-8000-000000000001") && !r.test("abc123"));
  if (withIds && (isIdName(name) || guidLike)) head.push(...(ch.ids(name, path) ?? []));
  if (isSearchName(name)) head.push(...ch.searches);
  if (s.format === "email" || /email/i.test(name)) head.push(`p${randomUUID().slice(0, 8)}@example.com`);
  if (s.format === "date-time" || s.format === "date" || isDateName(name)) head.push("2024-01-02T03:04:05.000Z", "2024-01-02");
  if (/pwd|password/i.test(name)) head.push("Passw0rd123");
  if (/url|link/i.test(name)) head.push("https://example.com/item/1");
  if (/sort/i.test(name) && typeof s.pattern === "string") head.push(...fromPattern(s.pattern));
  if (typeof s.pattern === "string") head.push(...fromPattern(s.pattern));
  if (/name/i.test(name)) head.push(`n${randomUUID().slice(0, 8)}`);
  const fresh = (v: string) => (/^abc123$/.test(v) && /name|code|key/i.test(name) ? `${v}${randomUUID().slice(0, 6)}` : v);
  let all = [...head, ...stringPool.map(fresh), randomUUID()].filter(ok);
  if (!all.length) {
    const base = "a1".repeat(Math.max(1, Math.ceil((s.minLength ?? 1) / 2)));
    all = [base.slice(0, Math.max(s.minLength ?? 1, Math.min(base.length, s.maxLength ?? base.length)))];
  }
  return [...new Set(all)];
}

function numberCandidates(s: JsonSchema, name: string): number[] {
  const int = s.type === "integer";
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (int ? 1 : 0.5) : undefined);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (int ? 1 : 0.5) : undefined);
  const clamp = (v: number) => Math.min(hi ?? v, Math.max(lo ?? v, v));
  const out: number[] = [];
  if (typeof s.default === "number") out.push(s.default);
  if (/^(skip|offset)/i.test(name)) out.push(0);
  out.push(clamp(1), clamp(lo ?? 0), clamp(2), clamp(10), clamp(100));
  if (!int) out.push(clamp(1.5));
  return [...new Set(out.filter((v) => Number.isFinite(v)))];
}

/**
 * A value the schema accepts (as far as JSON Schema says; the server has the last word). withIds: id-like fields take
 * the Choices' ids first. Optional fields are left out except id-like and search-like ones, which are the probes.
 */
export function validValue(s: JsonSchema | undefined, name: string, path: string, ch: Choices, withIds = true, depth = 0): unknown {
  if (!s || depth > 8) return undefined;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length)
    return ch.pick(
      path,
      s.enum.filter((v: unknown) => v !== null),
    );
  const branches: JsonSchema[] | undefined = s.anyOf ?? s.oneOf;
  if (branches?.length) {
    const real = branches.filter((b) => b?.type !== "null");
    const merged = { ...s, anyOf: undefined, oneOf: undefined };
    return validValue({ ...merged, ...ch.pick(path + "#branch", real.length ? real : branches) }, name, path, ch, withIds, depth + 1);
  }
  let type = s.type;
  if (Array.isArray(type)) type = type.find((t: string) => t !== "null") ?? type[0];
  if (!type && s.allOf?.length) type = s.allOf.find((x: JsonSchema) => x?.type)?.type;
  if (!type && s.properties) type = "object";
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const required: string[] = s.required ?? [];
      for (const [k, sub] of Object.entries<JsonSchema>(s.properties ?? {})) {
        if (!required.includes(k) && !(withIds && (isIdName(k) || isSearchName(k)))) continue;
        const v = validValue(sub, k, path ? `${path}.${k}` : k, ch, withIds, depth + 1);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    case "array": {
      const itemName = name.replace(/s$/, "");
      const n = Math.max(1, s.minItems ?? 1);
      if (withIds && isIdName(name)) {
        const ids = ch.ids(name, path) ?? [];
        if (ids.length) {
          const first = validValue(s.items, itemName, `${path}.0`, ch, withIds, depth + 1);
          if (typeof first === "string" && ids.includes(first))
            return ids.slice(0, Math.max(n, Math.min(ids.length, s.maxItems ?? ids.length)));
        }
      }
      return Array.from({ length: n }, (_, i) => validValue(s.items, itemName, `${path}.${i}`, ch, withIds, depth + 1));
    }
    case "string":
      return ch.pick(path, stringCandidates(s, name, path, ch, withIds));
    case "integer":
    case "number":
      return ch.pick(path, numberCandidates(s, name));
    case "boolean":
      return ch.pick(path, [true, false]);
    case "null":
      return null;
    default:
      // No type: z.coerce.date() and friends. Guess by name, then try plain values.
      return ch.pick(path, [
        ...(isDateName(name) ? ["2024-01-02T03:04:05.000Z"] : []),
        ...(withIds && isIdName(name) ? (ch.ids(name, path) ?? []) : []),
        "1",
        "abc123",
        "2024-01-02T03:04:05.000Z",
        true,
      ]);
  }
}

/** A query value as the wire carries it. */
function toQueryValue(v: unknown): string | string[] | undefined {
  if (v === undefined) return undefined;
  if (v === null) return "";
  if (Array.isArray(v)) return v.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x)));
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

export type Request = { url: string; query: Record<string, string | string[]>; body: unknown };

/** A request for one call with valid inputs (and the Choices' ids in id-like fields). */
export function buildRequest(op: Operation, ch: Choices, withIds = true): Request {
  let url = op.call.url;
  for (const p of op.params) {
    const v = validValue(p.schema, p.name, `params.${p.name}`, ch, withIds);
    url = url.replace(`:${p.name}`, encodeURIComponent(String(v ?? "x")));
  }
  const query: Record<string, string | string[]> = {};
  for (const p of op.query) {
    if (!p.required && !(withIds && (isIdName(p.name) || isSearchName(p.name)))) continue;
    const v = toQueryValue(validValue(p.schema, p.name, p.name, ch, withIds));
    if (v !== undefined) query[p.name] = v;
  }
  const body = op.body ? (validValue(op.body, "", "", ch, withIds) ?? {}) : undefined;
  return { url, query, body };
}

/** Sends a request, moving failed members to their next candidates while the answer is a validation error. */
export async function sendValid(
  s: TestServer,
  op: Operation,
  ch: Choices,
  token: () => string,
  opts: { withIds?: boolean; rounds?: number } = {},
): Promise<{ req: Request; res: ApiResponse; rounds: number }> {
  const rounds = opts.rounds ?? 8;
  for (let i = 0; ; i++) {
    const req = buildRequest(op, ch, opts.withIds ?? true);
    const res = await s.api(op.call.method, req.url, { token: token(), query: req.query as never, body: req.body });
    if (!isValidationAnswer(res) || i >= rounds) return { req, res, rounds: i + 1 };
    const members: string[] = (res.body.error.validationErrors ?? []).flatMap((v: { members: string[] }) => v.members);
    ch.bump(members.map((m) => m.replace(/^(body|querystring|query|params)\.?/, "")));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Garbage inputs for the fuzz.

export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] };
}
export type Rng = ReturnType<typeof rng>;

const garbageScalars: unknown[] = [
  "",
  " ",
  "null",
  "undefined",
  null,
  0,
  -1,
  1.5,
  -0.0001,
  2 ** 31,
  2 ** 53 + 1,
  1e308,
  -1e308,
  "1e999",
  "NaN",
  "Infinity",
  "-Infinity",
  true,
  false,
  "true",
  "0x1F",
  "９９",
  "💥漢字𝕏",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\u202e\u200b",
  "' OR 1=1 --",
  "'); drop table users; --",
  "<script>alert(1)</script>",
  "../../../etc/passwd",
  "%00%2e%2e",
  "${7*7}{{7*7}}",
  "2024-13-45",
  "2024-02-30T25:61:61Z",
  "-271821-04-20T00:00:00Z",
  "+275760-09-13T00:00:00.001Z",
  "99999-01-01",
  "00000000-0000-0000-0000-000000000000",
  "11111111",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "x".repeat(3000),
  "9".repeat(400),
  "userName; drop table users",
  "creationTime desc, (select 1)",
];

/** Any generated value as text: objects as JSON. */
export const asText = (v: unknown): string => (v !== null && typeof v === "object" ? JSON.stringify(v) : String(v));

export function garbageValue(r: Rng, depth = 0): unknown {
  const roll = r.next();
  if (depth < 3 && roll < 0.1) return Array.from({ length: r.int(4) }, () => garbageValue(r, depth + 1));
  if (depth < 3 && roll < 0.18) {
    const o: Record<string, unknown> = {};
    for (let i = r.int(4); i > 0; i--) {
      // An own "__proto__" key, as JSON.parse would make it (assignment would set the prototype instead).
      Object.defineProperty(o, r.pick(["a", "id", "__proto__", "constructor", "items", "$where", "tenantId"]), {
        value: garbageValue(r, depth + 1),
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
    return o;
  }
  if (roll < 0.22) return randomUUID();
  return r.pick(garbageScalars);
}

/** A body like the schema's but with some fields (or the whole) replaced by garbage. */
function garbageBody(op: Operation, r: Rng, ch: Choices): unknown {
  const roll = r.next();
  if (!op.body || roll < 0.2) return garbageValue(r);
  const base = validValue(op.body, "", "", ch, false);
  if (!base || typeof base !== "object" || Array.isArray(base)) return roll < 0.5 ? garbageValue(r) : base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  const keys = [...Object.keys(op.body.properties ?? {}), ...Object.keys(out), "__proto__", "unexpected"];
  for (let i = 1 + r.int(3); i > 0; i--) {
    const k = r.pick(keys);
    if (r.next() < 0.15) delete out[k];
    else Object.defineProperty(out, k, { value: garbageValue(r), enumerable: true, configurable: true, writable: true });
  }
  return out;
}

/** Query parameters with garbage values, some left out, some repeated, and some unknown names. */
function garbageQuery(op: Operation, r: Rng, ch: Choices): Record<string, string | string[]> {
  const q: Record<string, string | string[]> = {};
  for (const p of op.query) {
    const roll = r.next();
    if (roll < 0.2) continue;
    if (roll < 0.45) {
      const v = toQueryValue(validValue(p.schema, p.name, p.name, ch, false));
      if (v !== undefined) q[p.name] = v;
      continue;
    }
    const g = garbageValue(r);
    const v = roll < 0.55 ? [asText(g), asText(garbageValue(r))] : toQueryValue(g);
    if (v !== undefined) q[r.next() < 0.2 ? p.name.toUpperCase() : p.name] = v;
  }
  if (r.next() < 0.2)
    q[r.pick(["unknown", "__proto__", "constructor", "SkipCount", "MaxResultCount", "Sorting"])] = asText(garbageValue(r));
  return q;
}

// ---------------------------------------------------------------------------------------------------------------
// The generated fuzz (RELIABILITY.md scenario 15): one generator and one driver for CI's bounded run (the error-contract
// test, in-process) and the bench's large one (bench/fuzz.ts, against a server process).

/** A tenant's real values the fuzz puts into the fields that take them: its rows' ids, its receipt pic, its order number. */
export type RealValues = {
  tenantId: string;
  userId: string;
  ids: { byTable: Record<string, string[]>; all: string[] };
  pic?: string;
  orderNo?: string;
  /** A sub-account package the tenant bought (OrderSubAcc's id is the host's package). */
  packageId?: string;
};

/** The order and money calls: their groups, and the host's money calls among Hosted's. */
const moneyGroups = ["Order", "ChargeRecord", "Withdraw", "WalletLog", "SubAccountOrder"];
const isMoneyCall = (op: Operation) =>
  moneyGroups.includes(op.call.group) || /Money|Wallet|SubAccOrder|SubAccountOrder|Recommend/.test(op.call.name);

/** The real values a field of a call may take (the table its name or the call's group points to). */
function realValuesOf(real: RealValues, op: Operation, name: string): string[] {
  if (/^pic$/i.test(name)) return real.pic ? [real.pic] : [];
  if (/^orderno$/i.test(name)) return real.orderNo ? [real.orderNo] : [];
  if (!isIdName(name)) return [];
  if (/tenant/i.test(name)) return [real.tenantId];
  if (/user|creator|owner/i.test(name)) return [real.userId];
  const flat = (t: string) => t.replace(/_/g, "").replace(/s$/, "");
  const stem =
    name
      .replace(/ids?$/i, "")
      .replace(/[^a-z]/gi, "")
      .toLowerCase() || op.call.group.toLowerCase();
  const tables = Object.keys(real.ids.byTable).filter((t) => flat(t) === stem || flat(t).startsWith(stem) || stem.startsWith(flat(t)));
  const own = tables.flatMap((t) => real.ids.byTable[t]);
  if (op.call.group === "SubAccountOrder" && real.packageId) own.push(real.packageId);
  return own.length ? own : real.ids.all;
}

/** Whether an order or money call has a field that takes one of the real values. */
export const takesRealValues = (real: RealValues, op: Operation) =>
  isMoneyCall(op) &&
  [...op.query.map((p) => p.name), ...Object.keys(op.body?.properties ?? {})].some((n) => realValuesOf(real, op, n).length);

/**
 * Puts real values into about half the fields of an order or money call that take them (query, top-level body), or
 * into every one of them when `all`; answers how many.
 */
function plantReal(real: RealValues, op: Operation, r: Rng, query: Record<string, string | string[]>, body: unknown, all: boolean): number {
  if (!isMoneyCall(op)) return 0;
  let planted = 0;
  for (const p of op.query) {
    const vals = realValuesOf(real, op, p.name);
    if (vals.length && (all || r.next() < 0.5)) {
      query[p.name] = r.pick(vals);
      planted++;
    }
  }
  if (body && typeof body === "object" && !Array.isArray(body)) {
    for (const k of Object.keys(op.body?.properties ?? {})) {
      const vals = realValuesOf(real, op, k);
      if (vals.length && (all || r.next() < 0.5)) {
        Object.defineProperty(body, k, { value: r.pick(vals), enumerable: true, configurable: true, writable: true });
        planted++;
      }
    }
  }
  return planted;
}

/** Percent-encodes; a lone surrogate (which encodeURIComponent refuses) goes out as the invalid UTF-8 it would be. */
const encodeLoosely = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return "%ED%A0%80" + encodeURIComponent(v.replace(/[\ud800-\udfff]/g, "?"));
  }
};

export type FuzzWho = "main" | "host";
/** One generated request: `url` is the path and query; `label` the call it was made for. */
export type FuzzRequest = {
  label: string;
  who: FuzzWho | null;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  planted: number;
};
export type FuzzSend = (req: Pick<FuzzRequest, "method" | "url" | "headers" | "payload">) => Promise<ApiResponse>;

const oddPayloads = [
  '{"a":',
  "[".repeat(5000) + "]".repeat(5000),
  '{"a":1e99999}',
  '"\\ud800"',
  '{"__proto__":{"isHost":true}}',
  "1".repeat(500),
];
/** Idempotency-Key values besides a fresh one: empty, too long, not visible ASCII, and one reused across calls (a 422). */
const oddKeys = ["", " ", "x".repeat(300), "a b", "fuzz-reused-key"];

/**
 * A garbage request for one call: path parameters, query, body, content type, tenant header and key drawn from r. The
 * call's first request (`first`) has a body and carries the real values in every field that takes one, so each order
 * and money call meets its real rows however few requests a run sends it.
 */
function fuzzRequest(op: Operation, r: Rng, token: (who: FuzzWho) => string, real: RealValues | undefined, first: boolean): FuzzRequest {
  const who: FuzzWho = op.call.access === "host" ? "host" : "main";
  const ch = new Choices(() => undefined);
  const roll = r.next();
  let url = op.call.url.replace(/:(\w+)/g, (_, name: string) =>
    encodeLoosely(
      asText(roll < 0.3 ? garbageValue(r) : (validValue(op.params.find((p) => p.name === name)?.schema, name, name, ch, false) ?? "x")),
    ),
  );
  if (url.includes("//")) url = url.replace(/\/\//g, "/x/");
  const query = garbageQuery(op, r, ch);
  const hasBody = op.call.method !== "GET" && op.body;
  let realBody = hasBody && (first || r.next() < 0.75) ? garbageBody(op, r, ch) : undefined;
  // The first request's body is an object, to carry the real values.
  if (first && hasBody && (typeof realBody !== "object" || realBody === null || Array.isArray(realBody))) realBody = {};
  const planted = real ? plantReal(real, op, r, query, realBody, first) : 0;
  const headers: Record<string, string> = {};
  const anonymousBare = op.call.access === "anonymous" && r.next() < 0.5;
  if (!anonymousBare) headers.authorization = `Bearer ${token(who)}`;
  if (r.next() < 0.08)
    headers.__tenant = asText(garbageValue(r))
      .slice(0, 200)
      .replace(/[^\x20-\x7e]/g, "?");
  // The money calls require a key and the other writes take one: half the requests carry one, a few an odd one.
  const keyRoll = r.next();
  if (keyRoll < 0.5) headers["idempotency-key"] = keyRoll < 0.05 ? r.pick(oddKeys) : randomUUID();
  let payload: string | undefined;
  if (op.call.method !== "GET" && (op.body || r.next() < 0.3)) {
    const kind = r.next();
    if (realBody !== undefined) payload = JSON.stringify(realBody) ?? "null";
    else if (kind < 0.75) payload = JSON.stringify(garbageBody(op, r, ch)) ?? "null";
    else if (kind < 0.85) payload = r.pick(oddPayloads);
    else payload = JSON.stringify(garbageValue(r));
    headers["content-type"] =
      r.next() < 0.93
        ? "application/json"
        : r.pick(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "application/json; charset=latin1"]);
  }
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, x);
  return { label: callLabel(op.call), who, method: op.call.method, url: qs.size ? `${url}?${qs}` : url, headers, payload, planted };
}

/** A garbage request to the token endpoint (OAuth's form), some of its fields plausible. */
function tokenFuzzRequest(r: Rng, tenantName: string): FuzzRequest {
  const fields = new URLSearchParams();
  for (const k of ["grant_type", "client_id", "username", "password", "scope", "refresh_token", "__tenant"]) {
    if (r.next() < 0.7)
      fields.set(
        k,
        r.next() < 0.5
          ? asText(garbageValue(r))
          : r.pick(["password", "refresh_token", "Erp_App", "boss", "Erp offline_access", tenantName]),
      );
  }
  const type = r.next() < 0.85 ? "application/x-www-form-urlencoded" : r.pick(["application/json", "text/plain"]);
  return {
    label: "POST /connect/token",
    who: null,
    method: "POST",
    url: "/connect/token",
    headers: { "content-type": type },
    payload: type === "application/json" ? JSON.stringify(Object.fromEntries(fields)) : fields.toString(),
    planted: 0,
  };
}

/** Why an answer to a fuzzed request breaks the contract (a 5xx, an error outside the envelope), or null. */
function fuzzProblem(req: FuzzRequest, res: ApiResponse): string | null {
  if (res.status >= 500) return `${res.status}`;
  if (req.url === "/connect/token") {
    // The token endpoint answers in OAuth's shape ({error, error_description}), or the envelope.
    return res.status >= 400 && !(typeof res.body?.error === "string" || envelopeProblem(res) === null) ? "not an OAuth error" : null;
  }
  return res.status >= 300 ? envelopeProblem(res) : null;
}

/** A request as a reader can send it again (the tokens shown by whose they are). */
export function describeFuzzRequest(req: FuzzRequest, max = 300): string {
  const headers = Object.entries(req.headers)
    .map(([k, v]) => `${k}: ${k === "authorization" ? `Bearer <${req.who ?? "token"}>` : v.slice(0, 80)}`)
    .join("; ");
  const body = req.payload === undefined ? "" : ` body ${JSON.stringify(req.payload.slice(0, max))}${req.payload.length > max ? "…" : ""}`;
  return `${req.method} ${req.url.slice(0, max)} [${headers}]${body}`;
}

type FuzzOffender = { problem: string; status: number; request: FuzzRequest; answer: string };
export type FuzzRun = {
  sent: number;
  seconds: number;
  statuses: Map<number, number>;
  /** Per call: answers by status. */
  perRoute: Map<string, Map<number, number>>;
  offenders: FuzzOffender[];
  /** Requests per call that carried at least one real value. */
  withReal: Map<string, number>;
};

/**
 * Sends `perCall` garbage requests to each operation and `tokenRequests` to the token endpoint after them, `concurrency`
 * at a time, through `send`; a 401 to a token that a fuzzed logout ended gets a new token (`renew`) and is sent again.
 * The requests are drawn in a fixed order from the seed, so a seed names the same requests however they interleave.
 */
export async function runFuzz(o: {
  ops: Operation[];
  seed: number;
  perCall: number;
  tokenRequests: number;
  tenantName: string;
  token: (who: FuzzWho) => string;
  renew: (who: FuzzWho) => Promise<void>;
  send: FuzzSend;
  real?: RealValues;
  concurrency?: number;
  /** Called after each answer (progress). */
  onAnswer?: (sent: number) => void;
}): Promise<FuzzRun> {
  const r = rng(o.seed);
  const started = performance.now();
  const run: FuzzRun = { sent: 0, seconds: 0, statuses: new Map(), perRoute: new Map(), offenders: [], withReal: new Map() };
  const renewing = new Map<FuzzWho, Promise<void>>();
  const renew = (who: FuzzWho, used: string) => {
    if (o.token(who) !== used) return Promise.resolve(); // another request renewed it already
    let p = renewing.get(who);
    if (!p) {
      p = o.renew(who).finally(() => renewing.delete(who));
      renewing.set(who, p);
    }
    return p;
  };
  const total = o.ops.length * o.perCall + o.tokenRequests;
  let next = 0;
  const draw = (i: number) =>
    i < o.ops.length * o.perCall
      ? fuzzRequest(o.ops[i % o.ops.length], r, o.token, o.real, i < o.ops.length)
      : tokenFuzzRequest(r, o.tenantName);
  const one = async (req: FuzzRequest) => {
    let res = await o.send(req);
    run.sent++;
    if (res.status === 401 && req.who && req.headers.authorization && !req.headers.__tenant) {
      await renew(req.who, req.headers.authorization.slice("Bearer ".length));
      req = { ...req, headers: { ...req.headers, authorization: `Bearer ${o.token(req.who)}` } };
      res = await o.send(req);
      run.sent++;
    }
    if (req.planted) run.withReal.set(req.label, (run.withReal.get(req.label) ?? 0) + 1);
    run.statuses.set(res.status, (run.statuses.get(res.status) ?? 0) + 1);
    const route = run.perRoute.get(req.label) ?? new Map<number, number>();
    route.set(res.status, (route.get(res.status) ?? 0) + 1);
    run.perRoute.set(req.label, route);
    const problem = fuzzProblem(req, res);
    if (problem) run.offenders.push({ problem, status: res.status, request: req, answer: res.raw.slice(0, 500) });
    o.onAnswer?.(run.sent);
  };
  // The token endpoint's requests go last: a fuzzed login that locks an account must not end the calls' sessions.
  const workers = Array.from({ length: Math.max(1, o.concurrency ?? 1) }, async () => {
    for (let i = next++; i < total; i = next++) await one(draw(i));
  });
  await Promise.all(workers);
  run.seconds = (performance.now() - started) / 1000;
  return run;
}

/** "200×12 400×30 …" */
export const statusCounts = (m: Map<number, number>) =>
  [...m]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k}×${v}`)
    .join(" ");

// ---------------------------------------------------------------------------------------------------------------
// The database catalogue.

/** Every table in public with a tenant_id column, by name. */
export async function tenantTables(db: Db): Promise<string[]> {
  const rows = await inScope(db, hostAllScope, (tx) =>
    tx.execute<{ relname: string }>(sql`
      select c.relname from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped
      where n.nspname = 'public' and c.relkind in ('r', 'p')
      order by c.relname`),
  );
  return rowsOf<{ relname: string }>(rows).map((r) => r.relname);
}

/** Tables in public without a tenant_id column (global, host-owned data). */
export async function globalTables(db: Db): Promise<string[]> {
  const rows = await db.execute<{ relname: string }>(sql`
    select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')
      and not exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)
    order by c.relname`);
  return rowsOf<{ relname: string }>(rows).map((r) => r.relname);
}

/** drizzle's execute answers rows (node-postgres: a result with rows; PGlite: a result with rows as well). */
export function rowsOf<T>(r: unknown): T[] {
  if (Array.isArray(r)) return r as T[];
  return ((r as { rows?: T[] }).rows ?? []) as T[];
}

/** Every row of one tenant in every tenant table, as sorted JSON per table (host scope, read-only). */
export async function tenantSnapshot(db: Db, tenantId: string): Promise<Record<string, string[]>> {
  const tables = await tenantTables(db);
  return inScope(db, hostAllScope, async (tx) => {
    const out: Record<string, string[]> = {};
    for (const t of tables) {
      const rows = rowsOf<{ j: string }>(
        await tx.execute(sql`select row_to_json(x)::text as j from ${sql.identifier(t)} x where tenant_id = ${tenantId}`),
      );
      out[t] = rows.map((r) => r.j).sort();
    }
    return out;
  });
}

/** The uuid values (other than tenant_id) in one tenant's rows, by table: the ids the matrix forges. */
export async function tenantIds(db: Db, tenantId: string): Promise<{ byTable: Record<string, string[]>; all: string[] }> {
  const tables = await tenantTables(db);
  return inScope(db, hostAllScope, async (tx) => {
    const byTable: Record<string, string[]> = {};
    for (const t of tables) {
      const cols = rowsOf<{ column_name: string }>(
        await tx.execute(
          sql`select column_name from information_schema.columns where table_schema = 'public' and table_name = ${t} and data_type = 'uuid' and column_name <> 'tenant_id' order by ordinal_position`,
        ),
      ).map((c) => c.column_name);
      if (!cols.includes("id")) continue;
      const rows = rowsOf<{ id: string }>(
        await tx.execute(sql`select id::text as id from ${sql.identifier(t)} where tenant_id = ${tenantId} order by id`),
      );
      byTable[t] = rows.map((r) => r.id);
    }
    const all = [...new Set(Object.values(byTable).flat())];
    return { byTable, all };
  });
}

/** A fresh access token for a user, opened straight in the database (no password, no rate limit). */
export async function sessionToken(s: TestServer, tenantId: string, userId: string): Promise<string> {
  const user = await inScope(
    s.database.db,
    { tenantId },
    async (tx) =>
      (
        await tx
          .select()
          .from(users)
          .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
      )[0],
  );
  if (!user) throw new Error(`no user ${userId} in ${tenantId}`);
  return (await openSession(s.deps, user, "127.0.0.1", false)).access_token;
}

/** Waits until a tenant has no task record pending or running (jobs it started have settled). */
export async function settleTasks(db: Db, tenantIds: string[], timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const busy = await inScope(
      db,
      hostAllScope,
      async (tx) =>
        rowsOf<{ n: number }>(
          await tx.execute(
            sql`select count(*)::int as n from task_infos where tenant_id in (${sql.join(
              tenantIds.map((t) => sql`${t}::uuid`),
              sql`, `,
            )}) and task_status in (1, 2)`,
          ),
        )[0].n,
    );
    if (!busy || Date.now() > deadline) return busy;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Rejects when a promise takes longer than ms, naming what hung. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
