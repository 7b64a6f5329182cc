import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";

let s: TestServer;
let a: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
});
afterAll(() => s?.close());

describe("GetMyInfo", () => {
  it("answers the caller's account summary inside {result}", async () => {
    const res = await s.api("GET", "/api/User/GetMyInfo", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ userName: "boss", tenantName: a.tenantName, tenantId: a.tenantId, isMainAccount: true, isHost: false, subAccountCount: 0 });
  });

  it("matches the path case-insensitively", async () => {
    const res = await s.api("GET", "/API/user/getmyinfo", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.result.id).toBe(a.userId);
  });

  it("refuses a call without a token with 401 in the error envelope", async () => {
    const res = await s.api("GET", "/api/User/GetMyInfo");
    expect(res.status).toBe(401);
    expect(res.headers["_aberrorformat"] ?? res.headers["_abperrorformat"]).toBe("true");
    expect(res.body.error.message).toBeTruthy();
  });
});
