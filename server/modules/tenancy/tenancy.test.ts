import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenants } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
});
afterAll(() => s?.close());

const unknown = { success: false, tenantId: null, name: null, isActive: false };

describe("GET /api/abp/multi-tenancy/tenants/by-name/{name}", () => {
  it("finds a tenant by name, any case", async () => {
    const res = await s.api("GET", `/api/abp/multi-tenancy/tenants/by-name/${a.tenantName.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ success: true, tenantId: a.tenantId, name: a.tenantName, isActive: true });
  });

  it("answers success false with nulls for an unknown name", async () => {
    const res = await s.api("GET", `/api/abp/multi-tenancy/tenants/by-name/${uniqueName("nobody")}`);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(unknown);
  });

  it("reads a name with non-ASCII characters", async () => {
    const res = await s.api("GET", `/api/abp/multi-tenancy/tenants/by-name/${encodeURIComponent("不存在的公司")}`);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(unknown);
  });

  it("answers a stopped tenant with isActive false", async () => {
    const c = await s.createTenant();
    await inScope(s.database.db, hostAllScope, (tx) => tx.update(tenants).set({ isActive: false }).where(eq(tenants.id, c.tenantId)));
    const res = await s.api("GET", `/api/abp/multi-tenancy/tenants/by-name/${c.tenantName}`);
    expect(res.body.result).toEqual({ success: true, tenantId: c.tenantId, name: c.tenantName, isActive: false });
  });

  it("needs no token, and a logged-in caller of another tenant may look up a name too", async () => {
    const res = await s.api("GET", `/api/abp/multi-tenancy/tenants/by-name/${a.tenantName}`, { token: b.token });
    expect(res.status).toBe(200);
    expect(res.body.result.tenantId).toBe(a.tenantId);
  });

  it("refuses a forged token with 401", async () => {
    const res = await s.api("GET", `/api/abp/multi-tenancy/tenants/by-name/${a.tenantName}`, { token: "not.a.jwt" });
    expect(res.status).toBe(401);
  });

  it("answers 404 公司未找到 for an unknown __tenant header", async () => {
    const res = await s.api("GET", `/api/abp/multi-tenancy/tenants/by-name/${a.tenantName}`, { tenant: uniqueName("ghost") });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("公司未找到");
  });
});

describe("GET /api/abp/multi-tenancy/tenants/by-id/{id}", () => {
  it("finds a tenant by id, any case", async () => {
    const res = await s.api("GET", `/api/abp/multi-tenancy/tenants/by-id/${b.tenantId.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ success: true, tenantId: b.tenantId, name: b.tenantName, isActive: true });
  });

  it("answers success false for an unknown id", async () => {
    const res = await s.api("GET", "/api/abp/multi-tenancy/tenants/by-id/7d3c3e1a-1111-4222-8333-944455556666");
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(unknown);
  });

  it("does not find the host's reserved tenant id", async () => {
    const res = await s.api("GET", "/api/abp/multi-tenancy/tenants/by-id/00000000-0000-0000-0000-000000000000");
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(unknown);
  });

  it("refuses a non-GUID id with 400 naming the parameter", async () => {
    const res = await s.api("GET", `/api/abp/multi-tenancy/tenants/by-id/${a.tenantName}`);
    expect(res.status).toBe(400);
    expect(res.body.error.validationErrors[0].members).toEqual(["id"]);
    expect(res.body.error.details).toContain("GUID");
  });
});

describe("GET /api/ErpTenant/GetTenantIdByName", () => {
  it("answers the tenant id in result", async () => {
    const res = await s.api("GET", "/api/ErpTenant/GetTenantIdByName", { query: { name: a.tenantName } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: a.tenantId });
  });

  it("matches the path and the query name case-insensitively and ignores pid", async () => {
    const res = await s.api("GET", "/api/erptenant/gettenantidbyname", { query: { Name: b.tenantName.toUpperCase(), pid: "anything" } });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(b.tenantId);
  });

  it("answers 404 公司未找到 for an unknown name", async () => {
    const res = await s.api("GET", "/api/ErpTenant/GetTenantIdByName", { query: { name: uniqueName("nobody") } });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("公司未找到");
  });

  it("refuses a missing name with the ABP message", async () => {
    const res = await s.api("GET", "/api/ErpTenant/GetTenantIdByName", { query: { pid: "1" } });
    expect(res.status).toBe(400);
    expect(res.body.error.validationErrors).toMatchObject([{ message: "The parameter name cannot be null.", members: ["name"] }]);
    expect(res.body.error.details).toBe("The parameter name cannot be null.");
  });

  it("refuses an empty name and an over-long pid with 400", async () => {
    const empty = await s.api("GET", "/api/ErpTenant/GetTenantIdByName", { query: { name: "" } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.validationErrors[0].members).toEqual(["name"]);
    const longPid = await s.api("GET", "/api/ErpTenant/GetTenantIdByName", { query: { name: a.tenantName, pid: "x".repeat(65) } });
    expect(longPid.status).toBe(400);
    expect(longPid.body.error.validationErrors[0].members).toEqual(["pid"]);
  });
});
