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
import { sizedForDatabase } from "../testing/templates.ts";
import { seedMoney, seedOrder, uploadReceipt, type SeededMoney, type SeededOrder } from "../testing/money-kit.ts";
import { connectShop } from "../testing/shop-kit.ts";
import { pngImage } from "#shared/images/test-images.ts";
import {
  Choices,
  asText,
  buildRequest,
  callLabel,
  callsOf,
  describeFuzzRequest,
  envelopeProblem,
  garbageValue,
  operations,
  rng,
  runFuzz,
  sessionToken,
  statusCounts,
  takesRealValues,
  tenantIds,
  validValue,
  type CallInfo,
  type OpenApiDocument,
  type Operation,
  type RealValues,
} from "../testing/security-kit.ts";

let s: TestServer;
let T: TestTenant;
let ops: Operation[];
const report: string[] = [];
/** T's real values (its rows' ids, its receipt pic, its order number), fuzzed into the order and money calls. */
let real: RealValues;

const parse = (raw: string) => {
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    return raw;
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
  const order: SeededOrder = await seedOrder(s, T, shop);
  const money: SeededMoney = await seedMoney(s, T, await s.adminToken());
  real = {
    tenantId: T.tenantId,
    userId: T.userId,
    ids: await tenantIds(s.database.db, T.tenantId),
    pic: money.pic,
    orderNo: order.orderNo,
    packageId: money.packageId,
  };
}, 60_000);

afterAll(async () => {
  console.log("[security] error contract\n  " + report.join("\n  "));
  await s?.close();
});

describe("error contract", () => {
  it("describes every registered call in the OpenAPI document, with who may call it (x-access)", () => {
    const key = (c: CallInfo) => `${c.method} ${c.url} ${c.group} ${c.name} ${c.access}`;
    const fromDocument = callsOf(s.app.swagger() as OpenApiDocument).map(key);
    expect(fromDocument.sort()).toEqual(s.app.calls.map(key).sort());
  });

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
  // About 20 requests a call on PostgreSQL, 8 on PGlite (scenario 15's 10,000 on each database: bench/fuzz.ts).
  const perCall = Number(process.env.FUZZ_PER_CALL ?? sizedForDatabase(20, 8));

  it(`sends ~${perCall} garbage requests to every call: no 5xx, every error an envelope (seed ${seed})`, async () => {
    const admin = await s.adminToken();
    const adminId = JSON.parse(Buffer.from(admin.split(".")[1], "base64url").toString()).sub as string;
    const tokens = { main: T.token, host: admin };
    // FUZZ_GROUPS=ModuleAuth,Product fuzzes only those call groups (a targeted run of a new area's calls).
    const groups = process.env.FUZZ_GROUPS?.split(",").map((g) => g.trim());
    const fuzzed = groups ? ops.filter((o) => groups.includes(o.call.group)) : ops;
    const run = await runFuzz({
      ops: fuzzed,
      seed,
      perCall,
      tokenRequests: 60,
      tenantName: T.tenantName,
      token: (who) => tokens[who],
      // A fuzzed logout or password change ended the session: a new one, opened in the database.
      renew: async (who) => {
        tokens[who] = who === "host" ? await sessionToken(s, HOST_TENANT_ID, adminId) : await sessionToken(s, T.tenantId, T.userId);
      },
      send: (req) => raw(s, req),
      real,
    });
    const failures = run.offenders.map(
      (f) => `${f.problem}: ${f.request.label} ${describeFuzzRequest(f.request, 200)}: ${f.answer.slice(0, 300)}`,
    );
    report.push(
      `fuzz (seed ${seed}): ${run.sent} requests over ${fuzzed.length} calls + /connect/token in ${run.seconds.toFixed(1)} s; 5xx: ${run.offenders.filter((f) => f.status >= 500).length}; non-conforming: ${run.offenders.filter((f) => f.status < 500).length}; statuses ${statusCounts(run.statuses)}`,
    );
    if (failures.length) report.push(...failures.slice(0, 40).map((f) => "  " + f));
    // The order and money calls that take one of T's real values had requests carrying them.
    const takesReal = fuzzed.filter((op) => takesRealValues(real, op));
    report.push(
      `order and money calls fuzzed with T's real ids/pic/order no: ${takesReal.map((op) => `${callLabel(op.call)}×${run.withReal.get(callLabel(op.call)) ?? 0}`).join(", ")}`,
    );
    expect(failures).toEqual([]);
    if (!groups) {
      expect(takesReal.length).toBeGreaterThan(8);
      expect(takesReal.filter((op) => !run.withReal.get(callLabel(op.call))).map((op) => callLabel(op.call))).toEqual([]);
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
