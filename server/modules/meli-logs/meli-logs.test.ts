// The marketplace call log through the HTTP stack: recordMeliCall scrubs secrets and caps bodies, GetLogsByPage pages
// and filters without bodies, GetLogDetail answers the bodies; tenants and sub-accounts see only their own.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { meliAccounts } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { MELI_LOG_BODY_MAX_BYTES } from "#shared/contract/meli-logs.ts";
import { recordMeliCall, type MeliCallEntry } from "./service.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let sub: { id: string; token: string };
let mainGroup: string;
let subGroup: string;

const ACCESS = "APP_USR-1234567890123456-112612-0123456789abcdef0123456789abcdef-123456789";
const REFRESH = "TG-6745a1b2c3d4e5f6a7b8c9d0-123456789";

async function groupOf(t: TestTenant, ownerId: string): Promise<string> {
  const [row] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select({ groupId: meliAccounts.groupId })
      .from(meliAccounts)
      .where(and(eq(meliAccounts.tenantId, t.tenantId), eq(meliAccounts.ownerId, ownerId))),
  );
  return row.groupId;
}

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  sub = await s.createSubUser(A);
  expect((await connectShop(s, A.token, { nickname: uniqueName("MAINSHOP").toUpperCase() })).ok).toBe(true);
  expect((await connectShop(s, sub.token, { nickname: uniqueName("SUBSHOP").toUpperCase() })).ok).toBe(true);
  mainGroup = await groupOf(A, A.userId);
  subGroup = await groupOf(A, sub.id);
});
afterAll(() => s?.close());

const entry = (t: TestTenant, more: Partial<MeliCallEntry> = {}): MeliCallEntry => ({
  tenantId: t.tenantId,
  method: "POST",
  path: "/items",
  status: 201,
  request: { title: "Zapato" },
  response: { id: "MLM123" },
  durationMs: 120,
  ...more,
});
const record = (e: MeliCallEntry) => inScope(s.database.db, { tenantId: e.tenantId }, (tx) => recordMeliCall(tx, e));
const list = (token: string, query: Record<string, string | number> = {}) =>
  s.api("GET", "/api/MeliStatLog/GetLogsByPage", { token, query });
const detail = (token: string, id: string) => s.api("GET", "/api/MeliStatLog/GetLogDetail", { token, query: { id } });

describe("recordMeliCall", () => {
  it("stores no token, secret, authorization header or OAuth code, whatever shape the bodies take", async () => {
    const id = await record(
      entry(A, {
        accountGroupId: mainGroup,
        path: `/items?access_token=${ACCESS}&attributes=id`,
        request: {
          headers: { Authorization: `Bearer ${ACCESS}`, "content-type": "application/json" },
          body: { title: "Zapato", note: `token ${REFRESH} inline`, causes: [{ code: "item.title.length" }] },
        },
        response: JSON.stringify({ access_token: ACCESS, refresh_token: REFRESH, token_type: "bearer", user_id: 42 }),
      }),
    );
    const oauth = await record(
      entry(A, {
        accountGroupId: mainGroup,
        path: "/oauth/token",
        request: `grant_type=authorization_code&client_id=1&client_secret=s3cr3t&code=TG-abc-123&redirect_uri=x`,
        response: { access_token: ACCESS, refresh_token: REFRESH },
      }),
    );
    const oauthJson = await record(
      entry(A, {
        accountGroupId: mainGroup,
        path: "/oauth/token",
        request: { grant_type: "authorization_code", code: "abc-plain", client_secret: "s3cr3t" },
      }),
    );
    for (const logId of [id, oauth, oauthJson]) {
      const res = await detail(A.token, logId);
      expect(res.status, res.raw).toBe(200);
      for (const secret of [ACCESS, REFRESH, "APP_USR-", "TG-", "s3cr3t", "abc-plain"]) expect(res.raw).not.toContain(secret);
    }
    const d = (await detail(A.token, id)).body.result;
    expect(d.path).toBe("/items?access_token=***&attributes=id");
    expect(JSON.parse(d.request)).toEqual({
      headers: { Authorization: "***", "content-type": "application/json" },
      body: { title: "Zapato", note: "token *** inline", causes: [{ code: "item.title.length" }] },
    });
    expect(JSON.parse(d.response)).toEqual({ access_token: "***", refresh_token: "***", token_type: "bearer", user_id: 42 });
    expect((await detail(A.token, oauth)).body.result.request).toBe(
      "grant_type=authorization_code&client_id=1&client_secret=***&code=***&redirect_uri=x",
    );
  });

  it("cuts a body past 64 KB and says so", async () => {
    const big = "é".repeat(MELI_LOG_BODY_MAX_BYTES); // 2 bytes each
    const id = await record(entry(A, { accountGroupId: mainGroup, request: big, response: null }));
    const d = (await detail(A.token, id)).body.result;
    expect(Buffer.byteLength(d.request.split("\n…")[0], "utf8")).toBe(MELI_LOG_BODY_MAX_BYTES);
    expect(d.request).toContain(`已截断：原 ${MELI_LOG_BODY_MAX_BYTES * 2} 字节`);
    expect(d.response).toBeNull();
  });

  it("writes inside the caller's transaction, which may roll it back", async () => {
    const path = `/items/${randomUUID()}`;
    await inScope(s.database.db, { tenantId: A.tenantId }, async (tx) => {
      await recordMeliCall(tx, entry(A, { path }));
      throw new Error("rolled back");
    }).catch(() => null);
    const res = await list(A.token, { MaxResultCount: 1000 });
    expect(res.body.result.items.some((l: { path: string }) => l.path === path)).toBe(false);
  });
});

describe("GetLogsByPage and GetLogDetail", () => {
  let t: TestTenant;
  let ids: string[];
  const base = Date.parse("2026-03-01T00:00:00Z");
  beforeAll(async () => {
    t = await s.createTenant();
    ids = [];
    const group = randomUUID();
    for (let i = 0; i < 25; i++) {
      ids.push(
        await record(
          entry(t, { accountGroupId: i % 5 === 0 ? group : null, path: `/items/${i}`, status: i % 2 ? 400 : 201, listingId: null }),
        ),
      );
    }
    // Spread the calls over 25 days (the log's time is the call's: set here as if they were made then).
    await inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
      for (let i = 0; i < ids.length; i++)
        await tx.execute(sql`update meli_call_logs set creation_time = ${new Date(base + i * 86_400_000)} where id = ${ids[i]}`);
    });
  });

  it("pages newest first without bodies, and filters by group and time", async () => {
    const p1 = await list(t.token, { MaxResultCount: 10 });
    expect(p1.status, p1.raw).toBe(200);
    expect(p1.body.result.totalCount).toBe(25);
    expect(p1.body.result.totalCountCapped).toBe(false);
    expect(p1.body.result.items.map((l: { path: string }) => l.path)).toEqual(Array.from({ length: 10 }, (_, i) => `/items/${24 - i}`));
    expect(p1.body.result.items[0]).not.toHaveProperty("request");
    expect(p1.body.result.items[0]).not.toHaveProperty("response");
    const p3 = await list(t.token, { MaxResultCount: 10, SkipCount: 20 });
    expect(p3.body.result.items).toHaveLength(5);
    const asc = await list(t.token, { MaxResultCount: 3, Sorting: "creationTime asc" });
    expect(asc.body.result.items.map((l: { path: string }) => l.path)).toEqual(["/items/0", "/items/1", "/items/2"]);

    const { items } = (await list(t.token, { MaxResultCount: 100 })).body.result;
    const group = items.find((l: { accountGroupId: string | null }) => l.accountGroupId)!.accountGroupId;
    const byGroup = await list(t.token, { AccountgroupId: group, MaxResultCount: 100 });
    expect(byGroup.body.result.items.map((l: { path: string }) => l.path)).toEqual([
      "/items/20",
      "/items/15",
      "/items/10",
      "/items/5",
      "/items/0",
    ]);

    const window = await list(t.token, { StartTime: "2026-03-03", EndTime: "2026-03-05T00:00:00Z", Sorting: "creationTime asc" });
    expect(window.body.result.items.map((l: { path: string }) => l.path)).toEqual(["/items/2", "/items/3", "/items/4"]);
  });

  it("answers one call with its bodies", async () => {
    const res = await detail(t.token, ids[3]);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: ids[3], path: "/items/3", method: "POST", status: 400, durationMs: 120 });
    expect(JSON.parse(res.body.result.request)).toEqual({ title: "Zapato" });
  });

  it("refuses bad input with a 400", async () => {
    for (const query of <Record<string, string | number>[]>[
      { StartTime: "yesterday" },
      { StartTime: "2026-03-05", EndTime: "2026-03-01" },
      { AccountgroupId: "not-a-guid" },
      { Sorting: "request desc" },
      { MaxResultCount: 0 },
      { SkipCount: -1 },
    ]) {
      const res = await list(t.token, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
    expect((await detail(t.token, "nope")).status).toBe(400);
    expect((await s.api("GET", "/api/MeliStatLog/GetLogDetail", { token: t.token })).status).toBe(400);
    expect((await detail(t.token, randomUUID())).status).toBe(404);
  });

  it("shows another tenant nothing", async () => {
    const res = await list(B.token, { MaxResultCount: 1000 });
    expect(res.body.result).toEqual({ items: [], totalCount: 0, totalCountCapped: false });
    const probe = await detail(B.token, ids[0]);
    expect(probe.status).toBe(404);
    expect(probe.raw).not.toContain("/items/0");
    const forged = await s.api("GET", "/api/MeliStatLog/GetLogDetail", { token: B.token, tenant: t.tenantId, query: { id: ids[0] } });
    expect(forged.status).toBe(403);
  });
});

describe("a sub-account", () => {
  it("sees the calls of its own shop group only", async () => {
    const mine = await record(entry(A, { accountGroupId: subGroup, path: "/items/sub" }));
    const boss = await record(entry(A, { accountGroupId: mainGroup, path: "/items/boss" }));
    const none = await record(entry(A, { accountGroupId: null, path: "/items/nogroup" }));
    const seen = (await list(sub.token, { MaxResultCount: 1000 })).body.result.items.map((l: { id: string }) => l.id);
    expect(seen).toContain(mine);
    expect(seen).not.toContain(boss);
    expect(seen).not.toContain(none);
    expect((await detail(sub.token, mine)).status).toBe(200);
    expect((await detail(sub.token, boss)).status).toBe(404);
    expect((await list(sub.token, { AccountgroupId: mainGroup })).body.result.totalCount).toBe(0);
    const all = (await list(A.token, { MaxResultCount: 1000 })).body.result.items.map((l: { id: string }) => l.id);
    expect(all).toEqual(expect.arrayContaining([mine, boss, none]));
  });
});
