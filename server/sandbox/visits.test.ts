// The visits resource (GET /visits/items): totals per item added through the control, in-process and over HTTP under
// /_sandbox; counted and rate-limited like every seller call; a global (CBT) item has no visits data.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { itemBody, plainLeaf, startSandbox, type TestSandbox } from "../testing/sandbox-kit.ts";

let t: TestSandbox;

beforeEach(async () => {
  t = await startSandbox({ rateLimit: { perSellerPerMinute: 3 } });
});
afterEach(() => t.close());

const visits = (token: string, ids: string) => t.call("GET", `/visits/items?ids=${ids}`, { token });

describe("GET /visits/items", () => {
  it("answers each item's total, counts the call and holds it to the seller's rate limit", async () => {
    const { access_token: token } = await t.connect("VISITS_A");
    const created = await t.call("POST", "/items", { token, body: itemBody(plainLeaf(t.sandbox, "MLM")) });
    expect(created.status, created.raw).toBe(201);
    const id = created.body.id as string;
    t.control.addVisits(id, 2);
    const added = await t.call("POST", "/_sandbox/visits", { body: { itemId: id, count: 3 } });
    expect(added.body).toEqual({ itemId: id, total: 5 });
    expect((await t.call("POST", "/_sandbox/visits", { body: { itemId: "MLM1" } })).status).toBe(404);

    t.control.resetCalls();
    const read = await visits(token, id);
    expect(read.status, read.raw).toBe(200);
    expect(read.body).toEqual({ [id]: 5 });
    expect(t.control.callCount("GET /visits/items")).toBe(1);
    expect((await visits(token, "")).status).toBe(400);
    expect((await visits(token, id)).status).toBe(429);
  });

  it("leaves a global item out of the answer", async () => {
    t.control.setRateLimit({ perSellerPerMinute: 100 });
    const { access_token: token } = await t.connect("VISITS_CBT", "CBT", ["MLM"]);
    const created = await t.call("POST", "/global/items", {
      token,
      body: itemBody(plainLeaf(t.sandbox, "CBT"), {
        currency_id: "USD",
        price: 20,
        sites_to_sell: [{ site_id: "MLM", logistic_type: "remote", listing_type_id: "gold_special", net_proceeds: 20 }],
      }),
    });
    expect(created.status, created.raw).toBe(201);
    const globalId = created.body.item_id as string;
    const siteId = created.body.site_items[0].item_id as string;
    t.control.addVisits(siteId, 4);
    expect((await visits(token, `${globalId},${siteId}`)).body).toEqual({ [siteId]: 4 });
  });
});
