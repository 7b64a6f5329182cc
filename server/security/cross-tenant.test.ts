// RELIABILITY.md scenario 5, the cross-tenant matrix. Driven by app.calls and the OpenAPI document, so calls that
// other areas register later are covered without editing this file:
// - tenant A is seeded (sub-accounts, a task, a reset token, then one valid call of every user/main call as A), and
//   A's ids are read from every tenant table;
// - every user/main call is made by B's main account (and user calls by B's sub-account) with A's ids in every id-like
//   query, path and body field; an answer must be 403/404 (400 only as a refusal the service chose, or when another
//   case of the call reached the service), a 2xx is allowed only where the id is an optional filter, and no answer may
//   contain A's ids or names that B did not send; afterwards A's rows must be byte-for-byte unchanged;
// - A has an order of its shop (stored by the orders service from the sandbox) and money (a top-up with its receipt
//   image, a package purchase, a withdrawal), made through the real calls: B probes them by id and by their texts (the
//   order number, the receipt's file name, the Alipay account), and A's receipt image is served to A and the host only;
// - B's token with a forged `__tenant` naming A is a 403 on every call; host-only calls refuse tenant tokens.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { meliAccountGroups } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import { takeGtinCodes } from "../modules/gtin/service.ts";
import { recordMeliCall } from "../modules/meli-logs/service.ts";
import { connectShop } from "../testing/shop-kit.ts";
import { getReceipt, seedMoney, seedOrder, type SeededMoney, type SeededOrder } from "../testing/money-kit.ts";
import { startTestServer, uniqueName, type ApiResponse, type TestServer, type TestTenant } from "../testing/harness.ts";
import {
  Choices,
  buildRequest,
  callLabel,
  envelopeProblem,
  isIdName,
  isValidationAnswer,
  operations,
  sendValid,
  sessionToken,
  settleTasks,
  tenantIds,
  tenantSnapshot,
  within,
  type JsonSchema,
  type Operation,
  type Request,
} from "../testing/security-kit.ts";

let s: TestServer;
let ops: Operation[];
let A: TestTenant;
let B: TestTenant;
let subA1: { id: string; userName: string };
let subA2: { id: string; userName: string };
let subB: { id: string; userName: string; token: string };
let aEmail: string;
let aRemark: string;
let aTaskId: string;
let aShopName: string;
/** A tenant A recommended as an agency (issue 19): its name and A's commission on its purchase are A's, not B's. */
let aInviteeName: string;
/** A GTIN in A's pool (a valid EAN-13 no other test uses). */
const aGtin = "4006381333931";
/** A's order of its shop and A's money (issue 18, 19): a top-up with its receipt image, a package purchase, a withdrawal. */
let aOrder: SeededOrder;
let aMoney: SeededMoney;
let hostToken: string;
let aIds: { byTable: Record<string, string[]>; all: string[] };
/** Strings that must never appear in an answer to B unless B sent them. */
let markers: string[];
let before: Record<string, string[]>;

const violations: string[] = [];
const summary: Record<string, string | number> = {};

/** A token that is re-opened when a call (logout, password change) ended it. */
class Actor {
  constructor(
    readonly label: string,
    readonly tenantId: string,
    readonly userId: string,
    public token: string,
  ) {}
  async renew() {
    this.token = await sessionToken(s, this.tenantId, this.userId);
  }
}

beforeAll(async () => {
  s = await startTestServer();
  ops = operations(s.app);
  A = await s.createTenant(uniqueName("victim"));
  B = await s.createTenant(uniqueName("probe"));
  aEmail = `${uniqueName("amail")}@example.com`;
  aRemark = uniqueName("secretremark");
  subA1 = await s.createSubUser(A, uniqueName("asub"), { email: aEmail, remark: aRemark, phoneNumber: "13800000000" });
  subA2 = await s.createSubUser(A, uniqueName("asub"));
  subB = await s.createSubUser(B, uniqueName("bsub"));
  // A shop of A's, connected through the sandbox as a seller does: its account group and shop ids join A's ids.
  aShopName = uniqueName("VICTIMSHOP").toUpperCase();
  const shop = await connectShop(s, A.token, { nickname: aShopName });
  expect(shop.ok, shop.message).toBe(true);

  // A's own data: a task (ClearSubAccountInfo), a password reset token, then one valid call of every user/main call.
  const clear = await within(
    s.api("POST", "/api/User/ClearSubAccountInfo", { token: A.token, query: { id: subA2.id } }),
    15_000,
    "ClearSubAccountInfo",
  );
  expect(clear.status, clear.raw).toBe(200);
  aTaskId = clear.body.result.taskId;
  const reset = await s.api("GET", "/api/User/GetResetPwdToken", { token: A.token, query: { userId: subA1.id } });
  expect(reset.status, reset.raw).toBe(200);
  await settleTasks(s.database.db, [A.tenantId]);

  const aMain = new Actor("A main", A.tenantId, A.userId, A.token);
  const ownIds = [subA2.id, aTaskId, A.tenantId];
  for (const op of ops) {
    if (op.call.access !== "user" && op.call.access !== "main") continue;
    if (op.call.method === "DELETE") continue;
    const ch = new Choices(() => ownIds, [subA2.userName]);
    const r = await within(
      sendValid(s, op, ch, () => aMain.token),
      20_000,
      `seeding ${callLabel(op.call)}`,
    );
    if (r.res.status === 401) await aMain.renew();
  }
  A.token = aMain.token;
  // Publishing support: the generated SetCodes body holds no valid GTIN and no call writes the marketplace log, so A's
  // pool gets real codes (one taken by a listing) and A's shop group a logged call, for B to probe by id.
  const codes = await s.api("POST", "/api/MeliCode/SetCodes", { token: A.token, body: { codes: [aGtin, "96385074"] } });
  expect(codes.status, codes.raw).toBe(200);
  const [aGroup] = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
    tx.select({ id: meliAccountGroups.id }).from(meliAccountGroups).where(eq(meliAccountGroups.tenantId, A.tenantId)),
  );
  await inScope(s.database.db, { tenantId: A.tenantId }, async (tx) => {
    const listingId = randomUUID();
    await takeGtinCodes(tx, A.tenantId, listingId, 1);
    await recordMeliCall(tx, {
      tenantId: A.tenantId,
      accountGroupId: aGroup.id,
      listingId,
      batchId: randomUUID(),
      site: 1,
      method: "POST",
      path: "/items",
      status: 201,
      request: { title: aShopName },
      response: { id: "MLM1" },
      durationMs: 10,
    });
  });
  expect(await settleTasks(s.database.db, [A.tenantId, B.tenantId])).toBe(0);

  // A as an agency: the host records that A recommended a tenant, whose purchase pays A a commission (issue 19).
  hostToken = await s.adminToken();
  const invitee = await s.createTenant(uniqueName("invitee"));
  aInviteeName = invitee.tenantName;
  for (const [url, opts] of [
    ["/api/SystemConfigSetting/CreateOrUpdate", { body: { name: "佣金比例", key: "Agency.CommissionRate", value: "10" } }],
    ["/api/Hosted/SetRecommendTenant", { body: { tenantId: invitee.tenantId, recommandTenantId: A.tenantId, type: 1 } }],
    ["/api/Hosted/AddOrSubMoney", { body: { tenantId: invitee.tenantId, money: 100, type: 1, remark: "测试" } }],
  ] as const) {
    const r = await s.api("POST", url, { token: hostToken, headers: { "idempotency-key": randomUUID() }, ...opts });
    expect(r.status, r.raw).toBe(200);
  }
  const paid = await s.api("GET", "/api/WalletLog/Payment", {
    token: invitee.token,
    headers: { "idempotency-key": randomUUID() },
    query: { money: 50, remark: "购买" },
  });
  expect(paid.status, paid.raw).toBe(200);

  // A holds a module grant from a third tenant and has an unused code of its own (the authorization centre, issue 19):
  // B probes them by id (a grant id is what GetAuthProducts and CopyAuthProducts take).
  const grantor = await s.createTenant(uniqueName("grantor"));
  const grantorCode = await s.api("PUT", "/api/ModuleAuth/GenerateAuthCode", {
    token: grantor.token,
    headers: { "idempotency-key": randomUUID() },
  });
  expect(grantorCode.status, grantorCode.raw).toBe(200);
  const applied = await s.api("POST", "/api/ModuleAuth/ApplyAuth", {
    token: A.token,
    headers: { "idempotency-key": randomUUID() },
    body: {
      code: grantorCode.body.result.code,
      authContent: ["products", "products.copy"],
      expireTime: new Date(Date.now() + 86_400_000 * 30).toISOString(),
    },
  });
  expect(applied.status, applied.raw).toBe(200);
  const approved = await s.api("POST", "/api/ModuleAuth/AuditAuth", {
    token: grantor.token,
    headers: { "idempotency-key": randomUUID() },
    body: { id: applied.body.result.id, auditStatus: 2 },
  });
  expect(approved.status, approved.raw).toBe(200);
  const aCode = await s.api("PUT", "/api/ModuleAuth/GenerateAuthCode", { token: A.token, headers: { "idempotency-key": randomUUID() } });
  expect(aCode.status, aCode.raw).toBe(200);

  // A's order (its shop's sandbox order, read and stored by the orders service) and A's money, through the real calls.
  aOrder = await seedOrder(s, A, aShopName);
  aMoney = await seedMoney(s, A, hostToken);
  // Controls, before the snapshot (GetNewOrder stores the order again): A reaches each of them by id.
  const own = await s.api("PUT", "/api/Order/GetNewOrder", { token: A.token, query: { id: aOrder.id } });
  expect(own.status, own.raw).toBe(200);
  expect(own.body.result).toMatchObject({ id: aOrder.id, orderNo: aOrder.orderNo, accountGroupId: aOrder.groupId });
  const label = await s.app.inject({
    method: "GET",
    url: "/api/Order/GetOrderLabel",
    query: { orderId: aOrder.id },
    headers: { authorization: `Bearer ${A.token}` },
  });
  expect(label.statusCode, label.body).toBe(200);
  expect(label.headers["content-type"]).toBe("application/pdf");
  const invoice = await s.api("GET", "/api/Order/GetMeliOrderInvoice", { token: A.token, query: { orderId: aOrder.id } });
  expect(invoice.status, invoice.raw).toBe(200);
  expect(invoice.body.result.orderNo).toBe(aOrder.orderNo);

  aIds = await tenantIds(s.database.db, A.tenantId);
  // The catalogue reads the new tables by itself (every public table with tenant_id): A's seeded rows are among the ids.
  for (const [table, id] of [
    ["orders", aOrder.id],
    ["charge_records", aMoney.chargeRecordId],
    ["charge_records", aMoney.pendingChargeRecordId],
    ["withdrawals", aMoney.withdrawalId],
    ["sub_account_orders", aMoney.subAccOrderId],
  ] as const)
    expect(aIds.byTable[table], table).toContain(id);
  markers = [
    ...new Set([
      A.tenantId,
      A.tenantName,
      aInviteeName,
      subA1.userName,
      subA2.userName,
      aEmail,
      aRemark,
      aShopName,
      aGtin,
      aOrder.orderNo,
      aMoney.picFile,
      aMoney.alipayAccount,
      aMoney.chargeRemark,
      aMoney.withdrawRemark,
      ...aIds.all,
    ]),
  ];
  before = await tenantSnapshot(s.database.db, A.tenantId);
  for (const table of ["orders", "order_items", "charge_records", "withdrawals", "sub_account_orders", "wallet_logs"])
    expect(before[table]?.length, `A's ${table} rows in the snapshot`).toBeGreaterThan(0);
});

afterAll(async () => {
  console.log(
    "[security] cross-tenant matrix\n" +
      Object.entries(summary)
        .map(([k, v]) => `  ${k}: ${v}`)
        .join("\n") +
      `\n  violations: ${violations.length}` +
      (violations.length ? "\n    " + violations.join("\n    ") : ""),
  );
  await s?.close();
});

/** A table's name flattened: charge_records -> chargerecord. */
const flatTable = (t: string) => t.replace(/_/g, "").replace(/s$/, "");

/**
 * A's ids for a field: the tenant id for tenant fields, the ids of the table the name points to, else (a bare `id`)
 * the ids of the call group's table first (GetNewOrder's id: orders; OrderSubAcc's: sub_account_orders), then one id
 * of each table, then every id.
 */
function poolFor(name: string, caseIndex: number, group = ""): string[] {
  const stem = name
    .replace(/ids?$/i, "")
    .replace(/[^a-z]/gi, "")
    .toLowerCase();
  let pool: string[];
  if (stem.includes("tenant")) pool = [A.tenantId];
  else if (/user|creator|owner|sub|salesperson/.test(stem)) pool = [subA1.id, A.userId, subA2.id];
  else {
    const tables = Object.keys(aIds.byTable).filter((t) => {
      const flat = flatTable(t);
      return stem.length > 1 && (flat.includes(stem) || stem.includes(flat));
    });
    pool = tables.flatMap((t) => aIds.byTable[t]);
    if (!pool.length) {
      // The group's own table, then one id from each table, so successive cases try a user, a task, ... before
      // repeating a table.
      const g = group.toLowerCase();
      const own = g
        ? Object.keys(aIds.byTable)
            .filter((t) => flatTable(t) === g || flatTable(t).startsWith(g))
            .flatMap((t) => aIds.byTable[t])
        : [];
      const firsts = Object.values(aIds.byTable)
        .map((ids) => ids[0])
        .filter(Boolean);
      pool = [...new Set([...own, ...firsts, ...aIds.all])];
    }
  }
  if (!pool.length) pool = aIds.all;
  const k = caseIndex % pool.length;
  return [...pool.slice(k), ...pool.slice(0, k)];
}

type IdField = { name: string; required: boolean; scalar: boolean; where: "query" | "params" | "body" };

function idFields(op: Operation): IdField[] {
  const out: IdField[] = [];
  for (const p of op.query)
    if (isIdName(p.name)) out.push({ name: p.name, required: p.required, scalar: p.schema?.type !== "array", where: "query" });
  for (const p of op.params) if (isIdName(p.name)) out.push({ name: p.name, required: true, scalar: true, where: "params" });
  const walk = (sch: JsonSchema | undefined, required: boolean, depth: number) => {
    if (!sch || depth > 4) return;
    for (const b of [...(sch.anyOf ?? []), ...(sch.oneOf ?? []), ...(sch.allOf ?? [])]) walk(b, required, depth + 1);
    const req: string[] = sch.required ?? [];
    for (const [k, v] of Object.entries<JsonSchema>(sch.properties ?? {})) {
      const isArray = v?.type === "array" || (v?.anyOf ?? []).some((x: JsonSchema) => x?.type === "array");
      if (isIdName(k)) out.push({ name: k, required: required && req.includes(k), scalar: depth === 0 && !isArray, where: "body" });
      walk(v, required && req.includes(k), depth + 1);
      if (v?.items) walk(v.items, false, depth + 1);
    }
  };
  walk(op.body ?? undefined, true, 0);
  return out;
}

/** Whether a required, scalar id field of the request carries one of A's ids: the call then addresses A's entity. */
function addressesForeignEntity(op: Operation, fields: IdField[], req: Request): boolean {
  const aSet = new Set(aIds.all.concat(A.tenantId));
  for (const f of fields) {
    if (!f.required || !f.scalar) continue;
    let v: unknown;
    if (f.where === "query") v = req.query[f.name];
    else if (f.where === "body") v = (req.body as Record<string, unknown> | undefined)?.[f.name];
    else v = aIds.all.find((id) => req.url.includes(id)) ?? (req.url.includes(A.tenantId) ? A.tenantId : undefined);
    if (typeof v === "string" && aSet.has(v)) return true;
  }
  return false;
}

/** Names (not ids) B has sent at any time: B may legitimately store them in its own rows (a sub-account name). */
const namesSentByB = new Set<string>();
const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/** A's markers in the answer that B did not send (now, or earlier: `record` false keeps this request's names out of that). */
function leaks(req: Request, res: ApiResponse, record = true): string[] {
  const sent = JSON.stringify([req.url, req.query, req.body ?? null]).toLowerCase();
  if (record) for (const m of markers) if (!isUuid(m) && sent.includes(m.toLowerCase())) namesSentByB.add(m);
  const text = (res.raw ?? "").toLowerCase();
  return markers.filter((m) => !sent.includes(m.toLowerCase()) && !namesSentByB.has(m) && text.includes(m.toLowerCase()));
}

const okStatuses = new Set([400, 403, 404]);

describe("cross-tenant matrix (scenario 5)", () => {
  it("control: A's own main account sees its sub-account by id, so the leak detector has something to find", async () => {
    const res = await s.api("GET", "/api/User/GetSubUserById", { token: A.token, query: { id: subA1.id } });
    expect(res.status).toBe(200);
    expect(leaks({ url: "", query: {}, body: null }, res)).toEqual(expect.arrayContaining([subA1.userName, aRemark, aEmail]));
    // A's order and money lists hold the markers B must never see.
    const none = { url: "", query: {}, body: null };
    for (const [url, expected] of [
      ["/api/Order/GetOrders", [aOrder.orderNo, aOrder.id]],
      ["/api/ChargeRecord/GetChargeRecords", [aMoney.picFile, aMoney.chargeRemark, aMoney.chargeRecordId, aMoney.pendingChargeRecordId]],
      ["/api/Withdraw/GetWithdraws", [aMoney.alipayAccount, aMoney.withdrawRemark, aMoney.withdrawalId]],
      ["/api/SubAccountOrder/GetMySubAccOrder", [aMoney.subAccOrderId]],
    ] as const) {
      const own = await s.api("GET", url, { token: A.token });
      expect(own.status, own.raw).toBe(200);
      expect(leaks(none, own, false), url).toEqual(expect.arrayContaining([...expected]));
    }
  });

  it("B's accounts, given A's ids in every id-like field of every user/main call, get 403/404 and see none of A's data", async () => {
    const bMain = new Actor("B main", B.tenantId, B.userId, B.token);
    const bSub = new Actor("B sub", B.tenantId, subB.id, subB.token);
    const reached = new Set<string>();
    const tried = new Set<string>();
    const validationOnly = new Set<string>();
    let requests = 0;
    let cases = 0;
    const answers = new Map<string, number[]>();
    // A's order and money rows: the calls whose probes carried one of their ids.
    const seeded = [aOrder.id, aMoney.chargeRecordId, aMoney.pendingChargeRecordId, aMoney.withdrawalId, aMoney.subAccOrderId];
    const metSeeded = new Set<string>();
    for (const actor of [bMain, bSub]) {
      for (const op of ops) {
        const { access } = op.call;
        if (!(access === "user" || (access === "main" && actor === bMain))) continue;
        const label = callLabel(op.call);
        tried.add(label);
        const fields = idFields(op);
        const group = op.call.group;
        const caseCount = fields.length ? Math.min(6, Math.max(...fields.map((f) => poolFor(f.name, 0, group).length))) : 1;
        for (let c = 0; c < caseCount; c++) {
          cases++;
          const ch = new Choices((name) => poolFor(name, c, group), [subA1.userName, A.tenantName, aEmail]);
          let { req, res, rounds } = await sendValid(s, op, ch, () => actor.token);
          requests += rounds;
          if (res.status === 401) {
            await actor.renew();
            ({ req, res, rounds } = await sendValid(s, op, ch, () => actor.token));
            requests += rounds;
          }
          const sentText = JSON.stringify([req.url, req.query, req.body ?? null]);
          if (seeded.some((id) => sentText.includes(id))) metSeeded.add(label);
          const key = `${actor === bMain ? "main" : "sub"} ${label}`;
          answers.set(key, [...(answers.get(key) ?? []), res.status]);
          const where = `${actor.label} ${label} case ${c} ${JSON.stringify({ query: req.query, body: req.body }).slice(0, 300)}`;
          if (!isValidationAnswer(res)) reached.add(label);
          else if (process.env.DEBUG_MATRIX) console.log("VALIDATION", where, res.raw.slice(0, 400));
          const leaked = leaks(req, res);
          if (leaked.length) violations.push(`${where}: answer ${res.status} contains A's ${leaked.join(", ")}`);
          if (res.status >= 200 && res.status < 300) {
            if (addressesForeignEntity(op, fields, req)) violations.push(`${where}: answered ${res.status} to A's id (expected 403/404)`);
          } else if (!okStatuses.has(res.status)) {
            violations.push(`${where}: answered ${res.status} ${res.raw.slice(0, 200)}`);
          }
          if (res.status >= 400) {
            const bad = envelopeProblem(res);
            if (bad) violations.push(`${where}: ${bad}`);
          }
        }
      }
    }
    for (const label of tried) if (!reached.has(label)) validationOnly.add(label);
    summary["user/main calls reached by B with A's ids"] = `${reached.size}/${tried.size}`;
    summary["cases / requests"] = `${cases} / ${requests}`;
    summary["answers per call (B main|sub)"] =
      "\n    " +
      [...answers]
        .map(
          ([k, v]) =>
            `${k}: ${Object.entries(v.reduce<Record<number, number>>((m, x) => ((m[x] = (m[x] ?? 0) + 1), m), {}))
              .map(([st, n]) => `${st}×${n}`)
              .join(" ")}`,
        )
        .join("\n    ");
    summary["calls only answered by validation (not reached)"] = validationOnly.size ? [...validationOnly].join(", ") : "none";
    summary["calls probed with A's order/money ids"] = [...metSeeded].join(", ");
    expect(violations).toEqual([]);
    expect([...validationOnly], "every user/main call must have a case that reaches the service").toEqual([]);
    for (const call of [
      "PUT /api/Order/GetNewOrder",
      "GET /api/Order/GetOrderLabel",
      "GET /api/Order/GetMeliOrderInvoice",
      "GET /api/Order/GetOrders",
      "GET /api/Order/GetOrderSources",
      "POST /api/Order/SetPurchase",
    ])
      expect(metSeeded, `${call} was probed with A's order id`).toContain(call);
    expect(tried.size).toBe(ops.filter((o) => o.call.access === "user" || o.call.access === "main").length);
    // Thousands of requests over every user/main call: a hang guard, not a speed bound (60 s ran out on PostgreSQL at
    // load 10).
  }, 300_000);

  it("B meets A's order, top-ups, withdrawal and package purchase by id and by their texts, and gets none of them", async () => {
    const bMain = await sessionToken(s, B.tenantId, B.userId);
    const bSub = await sessionToken(s, B.tenantId, subB.id);
    const bad: string[] = [];
    let n = 0;
    const probe = async (
      who: string,
      token: string,
      method: string,
      url: string,
      input: { query?: Record<string, string>; body?: Record<string, unknown> },
      expected: number[],
      empty = false,
    ) => {
      const res = await s.api(method, url, { token, headers: { "idempotency-key": randomUUID() }, ...input });
      n++;
      const label = `${who} ${method} ${url} ${JSON.stringify(input)}`;
      if (!expected.includes(res.status)) bad.push(`${label}: expected ${expected.join("/")}, got ${res.status} ${res.raw.slice(0, 200)}`);
      if (res.status >= 400 && envelopeProblem(res)) bad.push(`${label}: ${envelopeProblem(res)}`);
      if (empty && res.status === 200 && res.body.result.totalCount !== 0) bad.push(`${label}: totalCount ${res.body.result.totalCount}`);
      const leaked = leaks({ url, query: input.query ?? {}, body: input.body ?? null }, res, false);
      if (leaked.length) bad.push(`${label}: answer contains A's ${leaked.join(", ")}`);
    };
    const notThere = [403, 404];
    for (const [who, token, main] of [
      ["B main", bMain, true],
      ["B sub", bSub, false],
    ] as const) {
      // A's order by its id, its number and its shop group.
      await probe(who, token, "PUT", "/api/Order/GetNewOrder", { query: { id: aOrder.id } }, notThere);
      await probe(who, token, "GET", "/api/Order/GetOrderLabel", { query: { orderId: aOrder.id } }, notThere);
      await probe(who, token, "GET", "/api/Order/GetMeliOrderInvoice", { query: { orderId: aOrder.id } }, notThere);
      const orderFilters: Record<string, string>[] = [
        { OrderNo: aOrder.orderNo },
        { OrderId: aOrder.id },
        { AccountGroupId: aOrder.groupId },
        {},
      ];
      for (const query of orderFilters) await probe(who, token, "GET", "/api/Order/GetOrders", { query }, [200], true);
      await probe(who, token, "GET", "/api/Order/GetMeliOrderGroupInfo", { query: { OrderNo: aOrder.orderNo } }, [200]);
      await probe(who, token, "GET", "/api/Order/FetchOrders", { query: { GroupId: aOrder.groupId } }, notThere);
      // 批量打单 (issue 32): A's order by id is not found; A's shop group as the filter holds nothing B may print.
      await probe(who, token, "POST", "/api/Order/PrintLabels", { body: { orderIds: [aOrder.id] } }, notThere);
      await probe(who, token, "POST", "/api/Order/PrintLabels", { body: { filter: { AccountGroupId: aOrder.groupId } } }, [400]);
      await probe(who, token, "GET", "/api/Order/DownloadPrintedLabels", { query: { taskId: aTaskId } }, notThere);
      // Margin that follows the rate (issue 32): A's shop group as the filter shows and reprices none of A's listings,
      // and A's task is no reprice B may undo.
      const drift = "/api/MeliStatNew/GetMarginDrift";
      await probe(who, token, "POST", drift, { body: { accountGroupId: aOrder.groupId } }, [200], true);
      await probe(who, token, "POST", drift, { body: { accountGroupId: aOrder.groupId, margin: "negative" } }, [200], true);
      const reprice = { filter: { accountGroupId: aOrder.groupId } };
      await probe(who, token, "POST", "/api/MeliStatNew/Reprice", { body: { ...reprice, dryRun: true } }, [200]);
      await probe(who, token, "POST", "/api/MeliStatNew/Reprice", { body: reprice }, [403]);
      await probe(who, token, "POST", "/api/MeliStatNew/UndoReprice", { body: { taskId: aTaskId } }, notThere);
      // The source behind A's order and its purchase list (issue 32).
      await probe(who, token, "GET", "/api/Order/GetOrderSources", { query: { orderId: aOrder.id } }, notThere);
      await probe(who, token, "POST", "/api/Order/SetPurchase", { body: { orderId: aOrder.id, line: 1, cost: 1 } }, notThere);
      for (const body of [{ OrderId: aOrder.id }, { OrderNo: aOrder.orderNo, OrderStatus: 2 }, { AccountGroupId: aOrder.groupId }, {}])
        await probe(who, token, "POST", "/api/Order/GetPurchaseList", { body }, [200]);
      // A's money: its lists searched by A's texts, A's receipt named in B's own top-up and withdrawal.
      for (const Search of [aMoney.chargeRemark, aMoney.picFile, A.tenantName, ""])
        await probe(who, token, "GET", "/api/ChargeRecord/GetChargeRecords", { query: Search ? { Search } : {} }, [200], true);
      await probe(who, token, "GET", "/api/WalletLog/GetWalletLogs", { query: { UserId: A.userId } }, [200], true);
      await probe(who, token, "GET", "/api/WalletLog/GetWalletLogs", {}, [200]);
      await probe(
        who,
        token,
        "POST",
        "/api/ChargeRecord/SubmitChagreRecord",
        { body: { money: 1, payType: 1, pic: aMoney.pic, remark: "probe" } },
        [400, 403, 404],
      );
      if (main) {
        for (const Search of [aMoney.alipayAccount, aMoney.withdrawRemark, ""])
          await probe(who, token, "GET", "/api/Withdraw/GetWithdraws", { query: Search ? { Search } : {} }, [200], true);
        await probe(who, token, "GET", "/api/SubAccountOrder/GetMySubAccOrder", {}, [200], true);
        await probe(who, token, "POST", "/api/SubAccountOrder/OrderSubAcc", { query: { id: aMoney.subAccOrderId } }, notThere);
        await probe(
          who,
          token,
          "POST",
          "/api/Withdraw/RequestWithdraw",
          { body: { money: 1, alipayAccount: "probe@example.com", pic: aMoney.pic } },
          [400, 403, 404],
        );
      }
    }
    summary["A's orders and money probed by B (explicit)"] = `${n} requests`;
    violations.push(...bad);
    expect(bad).toEqual([]);
  });

  it("serves A's receipt image to A and the host, and to no one of B (404, also by a rewritten path)", async () => {
    for (const token of [A.token, hostToken]) {
      const res = await getReceipt(s, token, aMoney.pic);
      expect(res.status, res.raw).toBe(200);
      expect(res.type).toBe("image/png");
      expect(res.bytes.equals(Buffer.from(aMoney.receipt))).toBe(true);
    }
    const forged = [
      aMoney.pic,
      aMoney.pic.toUpperCase(),
      `${B.tenantId}/${aMoney.picFile}`,
      `${B.tenantId}/../${aMoney.pic}`,
      `../${aMoney.pic}`,
      `${aMoney.pic}?x=1`,
      ` ${aMoney.pic} `,
      `${A.tenantId}/./${aMoney.picFile}`,
      encodeURIComponent(aMoney.pic),
    ];
    const bad: string[] = [];
    for (const [who, token] of [
      ["B main", await sessionToken(s, B.tenantId, B.userId)],
      ["B sub", await sessionToken(s, B.tenantId, subB.id)],
    ] as const) {
      for (const pic of forged) {
        const res = await getReceipt(s, token, pic);
        if (res.status !== 404 && res.status !== 400) bad.push(`${who} pic=${pic}: ${res.status} ${res.type}`);
        if (res.bytes.includes(Buffer.from(aMoney.receipt.subarray(0, 24)))) bad.push(`${who} pic=${pic}: the image's bytes`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("leaves every row of A unchanged", async () => {
    expect(await settleTasks(s.database.db, [A.tenantId, B.tenantId])).toBe(0);
    const after = await tenantSnapshot(s.database.db, A.tenantId);
    const changed = Object.keys({ ...before, ...after }).filter((t) => JSON.stringify(before[t] ?? []) !== JSON.stringify(after[t] ?? []));
    const tables = Object.keys(before);
    summary["A's tables compared (rows)"] = tables.map((t) => `${t}(${before[t].length})`).join(", ");
    expect(changed, `tables whose A rows changed: ${changed.join(", ")}`).toEqual([]);
    expect(Object.values(before).flat().length).toBeGreaterThan(3);
  });

  it("refuses B's token with a forged __tenant naming A (by name or id) on every call, with 403", async () => {
    let n = 0;
    const bad: string[] = [];
    for (const op of ops) {
      for (const tenant of [A.tenantName, A.tenantId, A.tenantName.toUpperCase()]) {
        for (const token of [B.token, subB.token]) {
          const url = op.call.url.replace(/:(\w+)/g, () => A.tenantId);
          const res = await s.api(op.call.method, url, { token, tenant });
          n++;
          if (res.status !== 403 || envelopeProblem(res))
            bad.push(`${callLabel(op.call)} __tenant=${tenant}: ${res.status} ${res.raw.slice(0, 120)}`);
          const leaked = leaks({ url, query: {}, body: null }, res).filter((m) => m !== tenant);
          if (leaked.length) bad.push(`${callLabel(op.call)}: forged-header answer contains ${leaked.join(", ")}`);
        }
      }
    }
    summary["forged __tenant refused"] = `${n - bad.length}/${n} requests over ${ops.length} calls`;
    violations.push(...bad);
    expect(bad).toEqual([]);
  });

  it("accepts B's own tenant in the header (control for the refusal above)", async () => {
    for (const tenant of [B.tenantName, B.tenantId, "11111111"]) {
      const res = await s.api("GET", "/api/User/GetMyInfo", { token: B.token, tenant });
      expect(res.status, tenant).toBe(200);
    }
  });

  it("refuses host-only calls to tenant tokens and main-only calls to sub-accounts (403), and every non-anonymous call without a token (401)", async () => {
    const bad: string[] = [];
    let host = 0;
    let mainOnly = 0;
    let anon = 0;
    const expectStatus = (label: string, res: ApiResponse, status: number) => {
      if (res.status !== status || envelopeProblem(res))
        bad.push(`${label}: expected ${status}, got ${res.status} ${res.raw.slice(0, 160)}`);
      const leaked = leaks({ url: "", query: {}, body: null }, res);
      if (leaked.length) bad.push(`${label}: answer contains A's ${leaked.join(", ")}`);
    };
    for (const op of ops) {
      const label = callLabel(op.call);
      const ch = new Choices((name) => poolFor(name, 0, op.call.group), [A.tenantName]);
      const valid = buildRequest(op, ch);
      const bare = { url: op.call.url.replace(/:(\w+)/g, () => A.tenantId), query: {}, body: undefined };
      for (const req of [bare, valid]) {
        if (op.call.access === "host") {
          for (const [who, token] of [
            ["B main", B.token],
            ["B sub", subB.token],
            ["A main", A.token],
          ] as const) {
            host++;
            expectStatus(
              `${who} ${label}`,
              await s.api(op.call.method, req.url, { token, query: req.query as never, body: req.body }),
              403,
            );
          }
        }
        if (op.call.access === "main") {
          mainOnly++;
          expectStatus(
            `B sub ${label}`,
            await s.api(op.call.method, req.url, { token: subB.token, query: req.query as never, body: req.body }),
            403,
          );
        }
        if (op.call.access !== "anonymous") {
          anon += 2;
          expectStatus(`no token ${label}`, await s.api(op.call.method, req.url, { query: req.query as never, body: req.body }), 401);
          expectStatus(
            `no token, __tenant A ${label}`,
            await s.api(op.call.method, req.url, { tenant: A.tenantName, query: req.query as never, body: req.body }),
            401,
          );
        }
      }
    }
    const count = (a: string) => ops.filter((o) => o.call.access === a).length;
    summary["host-only calls refused to tenant tokens"] = `${count("host")} calls, ${host} requests`;
    summary["main-only calls refused to sub-accounts"] = `${count("main")} calls, ${mainOnly} requests`;
    summary["calls refused without a token"] = `${ops.length - count("anonymous")} calls, ${anon} requests`;
    summary["routes covered / total"] =
      `${ops.length - count("anonymous")} non-anonymous + ${count("anonymous")} anonymous (header test only) / ${ops.length}`;
    violations.push(...bad);
    expect(bad).toEqual([]);
  });
});
