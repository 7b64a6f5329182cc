// The order calls' client wiring against the real server over HTTP: query names, dates, the PUT with its query, the
// label's address, and refusals as ApiError. The calls' own rules are tested in server/modules/orders.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, type TestTenant } from "../../server/testing/harness.ts";
import { OrderStatus } from "../contract/enums.ts";
import { ApiError } from "./errors.ts";
import { createApi, type Api } from "./index.ts";

let s: TestServer;
let a: TestTenant;
let api: Api;
let baseUrl: string;

beforeAll(async () => {
  s = await startTestServer();
  await s.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
  a = await s.createTenant();
  api = createApi({ baseUrl, getToken: () => a.token, getTenant: () => a.tenantName });
});
afterAll(() => s?.close());

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("the call did not fail");
    },
    (e: unknown) => e as ApiError,
  );

describe("order calls", () => {
  it("lists and counts with typed filters; fetches, re-reads and reads invoices with their refusals; gives the label's address", async () => {
    const page = await api.order.getOrders({
      StartTime: new Date("2026-01-01T00:00:00Z"),
      OrderStatus: OrderStatus.ReadyToShip,
      Site: 1,
      Sorting: "mustSendTime asc",
      MaxResultCount: 5,
    });
    expect(page).toEqual({ items: [], totalCount: 0, totalCountCapped: false });
    const tabs = await api.order.getMeliOrderGroupInfo({ Site: 2 });
    expect(tabs.statuses.map((x) => x.status)).toEqual(Object.values(OrderStatus));
    expect(tabs.total).toEqual({ count: 0, capped: false });

    const noShop = await rejection(api.order.fetchOrders({ StartTime: new Date(Date.now() - 86_400_000) }));
    expect(noShop.status).toBe(400);
    expect(noShop.message).toBe("没有开启接收订单的店铺");
    const missing = "00000000-0000-4000-8000-000000000001";
    expect((await rejection(api.order.getNewOrder({ id: missing }))).status).toBe(404);
    expect((await rejection(api.order.getMeliOrderInvoice({ orderId: missing }))).status).toBe(404);
    const url = await api.order.getOrderLabel({ orderId: missing });
    expect(url).toBe(`${baseUrl}/api/Order/GetOrderLabel?orderId=${missing}`);
    const res = await fetch(url, { headers: { authorization: `Bearer ${a.token}` } });
    expect(res.status).toBe(404);
  });
});
