// Issue 14, loose input: a date is an ISO 8601 string (a date or a date-time) or a 400 naming the field, in JSON bodies
// and query strings alike. `{"endDate": true}` used to be read as 1970-01-01 and answer 200.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, uniqueName, type ApiResponse, type TestServer, type TestTenant } from "../testing/harness.ts";
import { envelopeProblem } from "../testing/security-kit.ts";

let s: TestServer;
let T: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  T = await s.createTenant();
});
afterAll(() => s?.close());

const notDates: unknown[] = [true, 0, {}, "not-a-date", "2026-02-31"];
const dates = ["2026-11-26", "2026-11-26T08:30:00.000Z", "2026-11-26T08:30:00+08:00"];

function expectRefusedNaming(res: ApiResponse, field: string, sent: unknown) {
  const what = `${field}=${JSON.stringify(sent)}: ${res.raw}`;
  expect(res.status, what).toBe(400);
  expect(envelopeProblem(res), what).toBeNull();
  expect(res.body.error.validationErrors, what).toEqual([{ message: expect.stringContaining(field), members: [field] }]);
}

describe("dates in JSON bodies", () => {
  const bodyCalls = [
    { url: "/api/AquiredUrl/GetUrlSatatics", field: "endDate" },
    { url: "/api/AquiredUrl/GetUrlSatatics", field: "startDate" },
    { url: "/api/Collect/GetCollect", field: "startDate" },
    { url: "/api/Product/CountProducts", field: "endTime" },
  ];

  it("refuses true, 0, {}, text and a day that does not exist with a 400 naming the field", async () => {
    for (const { url, field } of bodyCalls) {
      for (const value of notDates)
        expectRefusedNaming(await s.api("POST", url, { token: T.token, body: { [field]: value } }), field, value);
    }
  });

  it("accepts a date and a date-time, and null or absent as no filter", async () => {
    for (const { url, field } of bodyCalls) {
      for (const value of [...dates, null]) {
        const res = await s.api("POST", url, { token: T.token, body: { [field]: value } });
        expect(res.status, `${url} ${field}=${value}: ${res.raw}`).toBe(200);
      }
    }
  });

  it("answers GetUrlSatatics over the days asked, never 1969/1970", async () => {
    const res = await s.api("POST", "/api/AquiredUrl/GetUrlSatatics", {
      token: T.token,
      body: { startDate: "2026-11-20", endDate: "2026-11-26T23:59:59Z" },
    });
    expect(res.status, res.raw).toBe(200);
    for (const row of res.body.result as { date: string }[])
      expect(row.date >= "2026-11-20" && row.date <= "2026-11-26", row.date).toBe(true);
  });

  it("refuses a boolean as the host's tenant expiry date", async () => {
    const admin = await s.adminToken();
    const body = { tenantName: uniqueName("exp"), userName: "boss", pwd: "Boss12345", accountExpireTime: true };
    expectRefusedNaming(await s.api("POST", "/api/Hosted/OpenTenantAccount", { token: admin, body }), "accountExpireTime", true);
  });
});

describe("dates in query strings", () => {
  it("refuses text that is no ISO date with a 400 naming the parameter, and accepts a date and a date-time", async () => {
    for (const value of ["not-a-date", "true", "0", "2026-13-01"]) {
      const res = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token: T.token, query: { StartDate: value } });
      expectRefusedNaming(res, "StartDate", value);
    }
    for (const value of dates) {
      const res = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token: T.token, query: { StartDate: value, EndDate: value } });
      expect(res.status, `${value}: ${res.raw}`).toBe(200);
    }
  });
});
