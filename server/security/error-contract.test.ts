// The error contract (RELIABILITY.md conventions and scenario 15): every error is ABP's envelope with header
// _AbpErrorFormat: true and a mapped status; unknown routes 404, malformed JSON 400, too large 413, wrong content type
// 415, a missing required query parameter "The parameter X cannot be null.", paging and sorting outside their rules
// 400. Then a generated fuzz over every registered call (from the OpenAPI document): no 5xx, every error an envelope.
// The fuzzing tenant has an order of its shop and money (a top-up with its receipt image, a package purchase, a
// withdrawal), and id-like fields (and receipt pics, order numbers) carry its real values in about half the requests,
// so the order and money calls are fuzzed against real rows, not only against ids that find nothing.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_TENANT_ID } from "../db/schema.ts";
import { multipartFile, startTestServer, uniqueName, type ApiResponse, type TestServer, type TestTenant } from "../testing/harness.ts";
import { seedMoney, seedOrder, uploadReceipt, type SeededMoney, type SeededOrder } from "../testing/money-kit.ts";
import { connectShop } from "../testing/shop-kit.ts";
import { pngImage } from "../../shared/images/test-images.ts";
import {
  Choices,
  asText,
  buildRequest,
  callLabel,
  envelopeProblem,
  garbageBody,
  garbageQuery,
  garbageValue,
  operations,
  rng,
  isIdName,
  sessionToken,
  tenantIds,
  validValue,
  type Operation,
  type Rng,
} from "../testing/security-kit.ts";

let s: TestServer;
let T: TestTenant;
let ops: Operation[];
const report: string[] = [];
/** T's order and money, and the ids of T's rows by table. */
let tOrder: SeededOrder;
let tMoney: SeededMoney;
let tIds: { byTable: Record<string, string[]>; all: string[] };

const parse = (raw: string) => {
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    return raw;
  }
};

/** Percent-encodes; a lone surrogate (which encodeURIComponent refuses) goes out as the invalid UTF-8 it would be. */
const encodeLoosely = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return "%ED%A0%80" + encodeURIComponent(v.replace(/[\ud800-\udfff]/g, "?"));
  }
};

async function raw(
  server: TestServer,
  opts: { method: string; url: string; headers?: Record<string, string>; payload?: string | Buffer },
): Promise<ApiResponse> {
  const res = await server.app.inject({ method: opts.method as "POST", url: opts.url, headers: opts.headers, payload: opts.payload });
  return { status: res.statusCode, body: parse(res.body), headers: res.headers, raw: res.body };
}

function expectEnvelope(res: ApiResponse, status: number, what: string) {
  expect(res.status, `${what}: ${res.raw.slice(0, 300)}`).toBe(status);
  expect(envelopeProblem(res), `${what}: ${res.raw.slice(0, 300)}`).toBeNull();
}

beforeAll(async () => {
  s = await startTestServer();
  T = await s.createTenant();
  ops = operations(s.app);
  const shop = uniqueName("FUZZSHOP").toUpperCase();
  const page = await connectShop(s, T.token, { nickname: shop });
  expect(page.ok, page.message).toBe(true);
  tOrder = await seedOrder(s, T, shop);
  tMoney = await seedMoney(s, T, await s.adminToken());
  tIds = await tenantIds(s.database.db, T.tenantId);
}, 60_000);

/** The fuzzing tenant's real values a field may take: its rows' ids (the table the name or call group points to), its receipt pic, its order number. */
function realValues(op: Operation, name: string): string[] {
  if (/^pic$/i.test(name)) return [tMoney.pic];
  if (/^orderno$/i.test(name)) return [tOrder.orderNo];
  if (!isIdName(name)) return [];
  if (/tenant/i.test(name)) return [T.tenantId];
  if (/user|creator|owner/i.test(name)) return [T.userId];
  const flat = (t: string) => t.replace(/_/g, "").replace(/s$/, "");
  const stem =
    name
      .replace(/ids?$/i, "")
      .replace(/[^a-z]/gi, "")
      .toLowerCase() || op.call.group.toLowerCase();
  const tables = Object.keys(tIds.byTable).filter((t) => flat(t) === stem || flat(t).startsWith(stem) || stem.startsWith(flat(t)));
  const own = tables.flatMap((t) => tIds.byTable[t]);
  // OrderSubAcc's id is a package (the host's): the one T bought.
  if (op.call.group === "SubAccountOrder") own.push(tMoney.packageId);
  return own.length ? own : tIds.all;
}

/** The order and money calls: their groups, and the host's money calls among Hosted's. */
const moneyGroups = ["Order", "ChargeRecord", "Withdraw", "WalletLog", "SubAccountOrder"];
const isMoneyCall = (op: Operation) =>
  moneyGroups.includes(op.call.group) || /Money|Wallet|SubAccOrder|SubAccountOrder|Recommend/.test(op.call.name);

/**
 * Puts real values of T into about half the fields of an order or money call that take them (query and top-level
 * body); answers how many.
 */
function plantReal(op: Operation, r: Rng, query: Record<string, string | string[]>, body: unknown): number {
  if (!isMoneyCall(op)) return 0;
  let planted = 0;
  for (const p of op.query) {
    const vals = realValues(op, p.name);
    if (vals.length && r.next() < 0.5) {
      query[p.name] = r.pick(vals);
      planted++;
    }
  }
  if (body && typeof body === "object" && !Array.isArray(body)) {
    for (const k of Object.keys(op.body?.properties ?? {})) {
      const vals = realValues(op, k);
      if (vals.length && r.next() < 0.5) {
        Object.defineProperty(body, k, { value: r.pick(vals), enumerable: true, configurable: true, writable: true });
        planted++;
      }
    }
  }
  return planted;
}
afterAll(async () => {
  console.log("[security] error contract\n  " + report.join("\n  "));
  await s?.close();
});

describe("error contract", () => {
  it("answers an unknown route with a 404 envelope", async () => {
    for (const [method, url] of [
      ["GET", "/api/Nope/Nothing"],
      ["POST", "/api/User/NoSuchMethod"],
      ["DELETE", "/api/User/GetMyInfo"],
      ["GET", "/api/abp/multi-tenancy/tenants/by-name"],
      ["GET", "/no/such/page.php"],
    ]) {
      expectEnvelope(await s.api(method, url, { token: T.token }), 404, `${method} ${url}`);
    }
  });

  it("answers a malformed JSON body with a 400 envelope", async () => {
    for (const payload of ['{"userName": ', "{'a':1}", "[1,2", "nul", '{"a":1}}', "\u0000"]) {
      const res = await raw(s, {
        method: "POST",
        url: "/api/User/CreateSubUser",
        headers: { authorization: `Bearer ${T.token}`, "content-type": "application/json" },
        payload,
      });
      expectEnvelope(res, 400, `malformed ${JSON.stringify(payload)}`);
    }
  });

  it("answers a body over the configured limit with 413", async () => {
    const small = await startTestServer({ bodyLimitBytes: 2048 });
    try {
      const t = await small.createTenant();
      const body = JSON.stringify({ userName: "big", pwd: "Abc12345", remark: "x".repeat(4000) });
      const res = await raw(small, {
        method: "POST",
        url: "/api/User/CreateSubUser",
        headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
        payload: body,
      });
      expectEnvelope(res, 413, "body over bodyLimitBytes");
      const ok = await raw(small, {
        method: "POST",
        url: "/api/User/CreateSubUser",
        headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
        payload: JSON.stringify({ userName: "small1", pwd: "Abc12345" }),
      });
      expect(ok.status, "a body under the limit is served").toBe(200);
    } finally {
      await small.close();
    }
  });

  it("answers a text/plain (or form, or untyped) body on a JSON call with 415", async () => {
    const json = JSON.stringify({ userName: "plain1", pwd: "Abc12345" });
    for (const type of ["text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded", "application/xml", undefined]) {
      const headers: Record<string, string> = { authorization: `Bearer ${T.token}` };
      if (type) headers["content-type"] = type;
      const res = await raw(s, {
        method: "POST",
        url: "/api/User/CreateSubUser",
        headers,
        payload: type?.includes("form") ? "userName=plain1&pwd=Abc12345" : json,
      });
      expectEnvelope(res, 415, `content-type ${type}`);
    }
    const list = await s.api("GET", "/api/User/GetSubUsers", { token: T.token, query: { Search: "plain1" } });
    expect(list.body.result.totalCount, "nothing was created by the refused requests").toBe(0);
  });

  it('answers a missing required query parameter of every call with 400 "The parameter X cannot be null."', async () => {
    // Bodies whose rule goes beyond their JSON schema (one of two fields), as a valid caller sends them: the body is
    // validated before the query, so a refused body would hide the query's answer.
    const ruledBodies: Record<string, unknown> = { "POST /api/MeliCategory/UpdateAllCategoryStatus": { enable: true, all: true } };
    let checked = 0;
    const admin = await s.adminToken();
    for (const op of ops) {
      const required = op.query.filter((p) => p.required);
      if (!required.length) continue;
      const token = op.call.access === "host" ? admin : T.token;
      const url = op.call.url.replace(/:(\w+)/g, () => "x");
      const res = await s.api(op.call.method, url, {
        token,
        body: ruledBodies[callLabel(op.call)] ?? (op.body ? validValue(op.body, "", "", new Choices(() => undefined), false) : undefined),
      });
      if (res.status === 403 && op.call.access === "anonymous") continue; // an anonymous call refusing a token first
      expectEnvelope(res, 400, callLabel(op.call));
      const messages: string[] = res.body.error.validationErrors.map((v: { message: string }) => v.message);
      for (const p of required) expect(messages, callLabel(op.call)).toContain(`The parameter ${p.name} cannot be null.`);
      checked++;
    }
    report.push(`required query parameters checked on ${checked} calls`);
    // The spec's own example, by name.
    const res = await s.api("GET", "/api/User/GetSubUserById", { token: T.token });
    expect(res.body.error.validationErrors).toEqual([{ message: "The parameter id cannot be null.", members: ["id"] }]);
  });

  it("answers MaxResultCount=5000, a negative SkipCount and an injected Sorting with 400 on every paged call", async () => {
    const admin = await s.adminToken();
    let paged = 0;
    for (const op of ops) {
      const names = op.query.map((p) => p.name);
      if (!names.includes("MaxResultCount")) continue;
      paged++;
      const token = op.call.access === "host" ? admin : T.token;
      const base = buildRequest(op, new Choices(() => undefined), false).query;
      const bads: Record<string, string>[] = [
        { MaxResultCount: "5000" },
        { MaxResultCount: "0" },
        { SkipCount: "-1" },
        { MaxResultCount: "1e3x" },
      ];
      for (const bad of bads) {
        expectEnvelope(
          await s.api(op.call.method, op.call.url, { token, query: { ...base, ...bad } }),
          400,
          `${callLabel(op.call)} ${JSON.stringify(bad)}`,
        );
      }
      if (names.includes("Sorting")) {
        for (const Sorting of [
          "userName; drop table users",
          "creationTime desc; select 1",
          "(select 1)",
          "id asc, password_hash desc",
          "password_hash",
        ]) {
          expectEnvelope(
            await s.api(op.call.method, op.call.url, { token, query: { ...base, Sorting } }),
            400,
            `${callLabel(op.call)} Sorting=${Sorting}`,
          );
        }
      }
    }
    report.push(`paged calls checked: ${paged}`);
    expect(paged).toBeGreaterThan(0);
  });

  it("gives 401, 403, 404 and 409 answers the same envelope", async () => {
    expectEnvelope(await s.api("GET", "/api/User/GetMyInfo"), 401, "no token");
    expectEnvelope(await s.api("GET", "/api/User/GetMyInfo", { token: T.token, tenant: "someone-else" }), 403, "foreign tenant header");
    expectEnvelope(
      await s.api("GET", "/api/User/GetSubUserById", { token: T.token, query: { id: "00000000-0000-4000-8000-000000000001" } }),
      404,
      "unknown id",
    );
    const sub = await s.api("POST", "/api/User/CreateSubUser", { token: T.token, body: { userName: "stale1", pwd: "Abc12345" } });
    expect(sub.status).toBe(200);
    const stale = await s.api("POST", "/api/User/UpdateUser", {
      token: T.token,
      body: { id: sub.body.result.id, remark: "x", concurrencyStamp: "stale" },
    });
    expectEnvelope(stale, 409, "stale concurrencyStamp");
  });
});

describe("error contract fuzz (scenario 15, bounded)", () => {
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
  const perCall = Number(process.env.FUZZ_PER_CALL ?? 20);

  it(`sends ~${perCall} garbage requests to every call: no 5xx, every error an envelope (seed ${seed})`, async () => {
    const r = rng(seed);
    const admin = await s.adminToken();
    const adminId = JSON.parse(Buffer.from(admin.split(".")[1], "base64url").toString()).sub as string;
    const tokens: Record<string, string> = { main: T.token, host: admin };
    const renew = async (who: "main" | "host") => {
      tokens[who] = who === "host" ? await sessionToken(s, HOST_TENANT_ID, adminId) : await sessionToken(s, T.tenantId, T.userId);
    };
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    /** Requests per call that carried at least one of T's real values. */
    const withReal = new Map<string, number>();
    let sent = 0;
    const started = Date.now();
    // FUZZ_GROUPS=ModuleAuth,Product fuzzes only those call groups (a targeted run of a new area's calls).
    const groups = process.env.FUZZ_GROUPS?.split(",").map((g) => g.trim());
    const fuzzed = groups ? ops.filter((o) => groups.includes(o.call.group)) : ops;
    for (const op of fuzzed) {
      const who = op.call.access === "host" ? "host" : "main";
      for (let i = 0; i < perCall; i++) {
        const ch = new Choices(() => undefined);
        const roll = r.next();
        let url = op.call.url.replace(/:(\w+)/g, (_, name: string) =>
          encodeLoosely(
            asText(
              roll < 0.3 ? garbageValue(r) : (validValue(op.params.find((p) => p.name === name)?.schema, name, name, ch, false) ?? "x"),
            ),
          ),
        );
        if (url.includes("//")) url = url.replace(/\/\//g, "/x/");
        const query = garbageQuery(op, r, ch);
        const realBody = op.call.method !== "GET" && op.body && r.next() < 0.75 ? garbageBody(op, r, ch) : undefined;
        const planted = plantReal(op, r, query, realBody);
        if (planted) withReal.set(callLabel(op.call), (withReal.get(callLabel(op.call)) ?? 0) + 1);
        const headers: Record<string, string> = {};
        const anonymousBare = op.call.access === "anonymous" && r.next() < 0.5;
        if (!anonymousBare) headers.authorization = `Bearer ${tokens[who]}`;
        if (r.next() < 0.08)
          headers.__tenant = asText(garbageValue(r))
            .slice(0, 200)
            .replace(/[^\x20-\x7e]/g, "?");
        let payload: string | undefined;
        if (op.call.method !== "GET" && (op.body || r.next() < 0.3)) {
          const kind = r.next();
          if (realBody !== undefined) payload = JSON.stringify(realBody) ?? "null";
          else if (kind < 0.75) payload = JSON.stringify(garbageBody(op, r, ch)) ?? "null";
          else if (kind < 0.85)
            payload = r.pick([
              '{"a":',
              "[".repeat(5000) + "]".repeat(5000),
              '{"a":1e99999}',
              '"\\ud800"',
              '{"__proto__":{"isHost":true}}',
              "1".repeat(500),
            ]);
          else payload = JSON.stringify(garbageValue(r));
          headers["content-type"] =
            r.next() < 0.93
              ? "application/json"
              : r.pick(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "application/json; charset=latin1"]);
        }
        const qs = new URLSearchParams();
        for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, x);
        const target = qs.size ? `${url}?${qs}` : url;
        let res = await raw(s, { method: op.call.method, url: target, headers, payload });
        sent++;
        if (res.status === 401 && headers.authorization && !headers.__tenant) {
          await renew(who); // a fuzzed logout or password change ended the session: renew and carry on
          headers.authorization = `Bearer ${tokens[who]}`;
          res = await raw(s, { method: op.call.method, url: target, headers, payload });
          sent++;
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const where = `${callLabel(op.call)} ${target.slice(0, 200)} ${String(payload ?? "").slice(0, 200)}`;
        if (res.status >= 500) failures.push(`${res.status} ${where}: ${res.raw.slice(0, 300)}`);
        else if (res.status >= 300) {
          const bad = envelopeProblem(res);
          if (bad) failures.push(`${bad}: ${res.status} ${where}: ${res.raw.slice(0, 200)}`);
        }
      }
    }
    // The token endpoint answers in OAuth's shape, not the envelope; fuzz it too.
    for (let i = 0; i < 60; i++) {
      const fields = new URLSearchParams();
      for (const k of ["grant_type", "client_id", "username", "password", "scope", "refresh_token", "__tenant"]) {
        if (r.next() < 0.7)
          fields.set(
            k,
            r.next() < 0.5
              ? asText(garbageValue(r))
              : r.pick(["password", "refresh_token", "Erp_App", "boss", "Erp offline_access", T.tenantName]),
          );
      }
      const type = r.next() < 0.85 ? "application/x-www-form-urlencoded" : r.pick(["application/json", "text/plain"]);
      const res = await raw(s, {
        method: "POST",
        url: "/connect/token",
        headers: { "content-type": type },
        payload: type === "application/json" ? JSON.stringify(Object.fromEntries(fields)) : fields.toString(),
      });
      sent++;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500) failures.push(`${res.status} POST /connect/token ${fields}: ${res.raw.slice(0, 200)}`);
      else if (res.status >= 400 && !(typeof res.body?.error === "string" || envelopeProblem(res) === null))
        failures.push(`non-OAuth error: POST /connect/token ${fields}: ${res.raw.slice(0, 200)}`);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    report.push(
      `fuzz (seed ${seed}): ${sent} requests over ${fuzzed.length} calls + /connect/token in ${seconds} s; 5xx: ${failures.filter((f) => f.startsWith("5")).length}; non-conforming: ${failures.filter((f) => !f.startsWith("5")).length}; statuses ${[
        ...statuses,
      ]
        .sort((a, b) => a[0] - b[0])
        .map(([k, v]) => `${k}×${v}`)
        .join(" ")}`,
    );
    if (failures.length) report.push(...failures.slice(0, 40).map((f) => "  " + f));
    // The order and money calls that take one of T's real values had requests carrying them.
    const takesReal = fuzzed.filter(
      (op) =>
        isMoneyCall(op) &&
        [...op.query.map((p) => p.name), ...Object.keys(op.body?.properties ?? {})].some((n) => realValues(op, n).length),
    );
    report.push(
      `order and money calls fuzzed with T's real ids/pic/order no: ${takesReal.map((op) => `${callLabel(op.call)}×${withReal.get(callLabel(op.call)) ?? 0}`).join(", ")}`,
    );
    expect(failures).toEqual([]);
    if (!groups) {
      expect(takesReal.length).toBeGreaterThan(8);
      expect(takesReal.filter((op) => !withReal.get(callLabel(op.call))).map((op) => callLabel(op.call))).toEqual([]);
    }
  }, 180_000);

  it("answers garbage multipart uploads of a receipt (and a real one) without a 5xx, every error an envelope", async () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000));
    // The fuzz above may have ended T's session (a logout, a password change): a fresh one.
    const token = await sessionToken(s, T.tenantId, T.userId);
    const png = Buffer.from(pngImage(6, 4));
    /** mayStore: the body holds the whole image (a 200 is allowed); anything else must be refused. */
    const bodies: { what: string; payload: Buffer | string; contentType: string; mayStore?: boolean }[] = [];
    const file = (what: string, name: string, content: Uint8Array, opts?: { field?: string; contentType?: string }) =>
      bodies.push({ what, ...multipartFile(name, content, opts), mayStore: Buffer.from(content).equals(png) });
    file("a png", "r.png", png);
    file("a png as another field", "r.png", png, { field: "image" });
    file("a png named ../../x.png", "../../x.png", png);
    file("a png with a NUL in its name", "a\u0000.png", png);
    file("a png claiming to be text", "r.txt", png, { contentType: "text/plain" });
    file("a truncated png", "r.png", png.subarray(0, 20));
    file("a png header on garbage", "r.png", Buffer.concat([png.subarray(0, 16), randomBytes(64)]));
    file(
      "a png declaring a 100000 px side",
      "r.png",
      png.map((v, i) => (i >= 16 && i < 20 ? [0, 1, 0x86, 0xa0][i - 16] : v)),
    );
    file("a gif header only", "r.gif", Buffer.from("GIF89a"));
    file("a webp header only", "r.webp", Buffer.from("RIFF\u0000\u0000\u0000\u0000WEBPVP8 "));
    file("a jpeg marker only", "r.jpg", Buffer.from([0xff, 0xd8, 0xff]));
    file("an empty file", "r.png", Buffer.alloc(0));
    for (let i = 0; i < 12; i++) file(`random bytes ${i}`, asText(garbageValue(r)).slice(0, 40), randomBytes(r.int(300)));
    const ok = multipartFile("r.png", png);
    bodies.push({ what: "no closing boundary", payload: ok.payload.subarray(0, ok.payload.length - 10), contentType: ok.contentType });
    bodies.push({ what: "a boundary the body does not use", payload: ok.payload, contentType: "multipart/form-data; boundary=nope" });
    bodies.push({ what: "no boundary", payload: ok.payload, contentType: "multipart/form-data" });
    bodies.push({
      what: "two files",
      payload: Buffer.concat([ok.payload.subarray(0, ok.payload.length - 4), Buffer.from("\r\n"), ok.payload]),
      contentType: ok.contentType,
      mayStore: true,
    });
    bodies.push({ what: "JSON", payload: JSON.stringify({ file: png.toString("base64") }), contentType: "application/json" });
    bodies.push({ what: "nothing", payload: "", contentType: ok.contentType });
    const bad: string[] = [];
    const statuses = new Map<number, number>();
    for (const b of bodies) {
      const res = await raw(s, {
        method: "POST",
        url: "/api/ChargeRecord/UploadReceipt",
        headers: { authorization: `Bearer ${token}`, "content-type": b.contentType },
        payload: b.payload,
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500 || (res.status >= 300 && envelopeProblem(res))) bad.push(`${b.what}: ${res.status} ${res.raw.slice(0, 200)}`);
      if (res.status < 300 && !b.mayStore) bad.push(`${b.what}: stored (${res.status} ${res.raw.slice(0, 120)})`);
    }
    report.push(`receipt upload fuzz: ${bodies.length} requests; statuses ${[...statuses].map(([k, v]) => `${k}×${v}`).join(" ")}`);
    expect(bad).toEqual([]);
    // The control: a real image is stored and served back to its tenant.
    const up = await uploadReceipt(s, token, "r.png", png);
    expect(up.status, up.raw).toBe(200);
    const back = await s.app.inject({
      method: "GET",
      url: "/api/ChargeRecord/GetReceipt",
      query: { pic: up.body.result.pic },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(back.statusCode).toBe(200);
    expect(Buffer.from(back.rawPayload).equals(png)).toBe(true);
  });

  it("answers malformed URLs and headers without a 5xx", async () => {
    const urls = [
      "/api/User/GetSubUserById?id=%E0%A4%A",
      "/api/User/GetSubUserById?id=%",
      "/api/User/%ZZ",
      "/api/User/GetSubUsers?MaxResultCount=10&MaxResultCount=20",
      "/api/User/GetSubUsers?Sorting[]=x",
      "/api/User/GetSubUsers?__proto__[isHost]=true",
      `/api/User/GetSubUsers?Search=${"a".repeat(8000)}`,
      "/api/../api/User/GetMyInfo",
      "/api/User/GetMyInfo/../../../etc/passwd",
    ];
    const bad: string[] = [];
    for (const url of urls) {
      const res = await raw(s, { method: "GET", url, headers: { authorization: `Bearer ${T.token}` } });
      if (res.status >= 500 || (res.status >= 400 && envelopeProblem(res)))
        bad.push(`${url.slice(0, 80)}: ${res.status} ${res.raw.slice(0, 200)}`);
    }
    for (const tenant of ["\t", " ", "a".repeat(5000), "../", "%00", randomBytes(8).toString("hex")]) {
      const res = await raw(s, { method: "GET", url: "/api/abp/multi-tenancy/tenants/by-name/x", headers: { __tenant: tenant } });
      if (res.status >= 500 || (res.status >= 400 && envelopeProblem(res)))
        bad.push(`__tenant ${tenant.slice(0, 20)}: ${res.status} ${res.raw.slice(0, 200)}`);
    }
    expect(bad).toEqual([]);
  });
});
