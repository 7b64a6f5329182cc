// The read-only live check against the sandbox: a connected seller with an item gets a row per read, every one
// matched; an answer that drifts from the schemas is a mismatch naming the field; a refused read is a row and the
// check goes on; the refresh grant the CLI uses spends the old refresh token.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectShop } from "../../testing/shop-kit.ts";
import { itemBody, plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { createItem } from "./endpoints/items.ts";
import { checkTable, runLiveCheck } from "./live-check.ts";
import type { ShopRef } from "./tokens.ts";

let s: TestServer;
let A: TestTenant;
let shop: ShopRef;

const control = () => s.deps.sandbox!.control;

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  const page = await connectShop(s, A.token, { nickname: uniqueName("CHECK").toUpperCase() });
  expect(page.ok, page.message).toBe(true);
  shop = { tenantId: A.tenantId, groupId: page.params.get("groupId")! };
  await createItem(s.deps.meli.shop(shop), itemBody(plainLeaf(s.deps.sandbox!, "MLM")), uniqueName("check-item"));
});
afterAll(() => s?.close());
beforeEach(() => control().clearInjections());

describe("meli:check (read-only live check)", () => {
  it("reads the seller, the sites, a leaf category with its attributes and fees, the seller's items and orders: all matched", async () => {
    const rows = await runLiveCheck({ seller: s.deps.meli.shop(shop), open: s.deps.meli.public });
    const calls = rows.map((r) => r.call);
    expect(calls[0]).toBe("GET /users/me");
    for (const expected of [
      /^GET \/sites$/,
      /^GET \/sites\/MLM\/categories$/,
      /\/attributes$/,
      /listing_prices$/,
      /items\/search$/,
      /^GET \/items\/MLM/,
      /^GET \/orders\/search$/,
    ]) {
      expect(
        calls.some((c) => expected.test(c)),
        String(expected),
      ).toBe(true);
    }
    expect(rows.filter((r) => r.outcome !== "matched" && r.outcome !== "skipped")).toEqual([]);
    expect(checkTable(rows).split("\n").at(-1)).toMatch(/^\d+ matched, 0 mismatched, 0 refused, \d+ skipped$/);
  });

  it("names the field of an answer that does not match, and stops where later reads need it", async () => {
    control().inject({ path: "/users/me", status: 200, body: { nickname: "NO_ID", site_id: "MLM" } });
    const rows = await runLiveCheck({ seller: s.deps.meli.shop(shop), open: s.deps.meli.public });
    expect(rows).toEqual([{ call: "GET /users/me", outcome: "mismatch", detail: expect.stringMatching(/GET \/users\/me: id: /) }]);
  });

  it("reports a refused read as a row and goes on", async () => {
    control().inject({ path: "/sites", status: 403, body: { message: "forbidden", error: "forbidden", status: 403, cause: [] } });
    const rows = await runLiveCheck({ seller: s.deps.meli.shop(shop), open: s.deps.meli.public });
    expect(rows.find((r) => r.call === "GET /sites")).toMatchObject({ outcome: "refused" });
    expect(rows.some((r) => r.call.endsWith("/items/search") && r.outcome === "matched")).toBe(true);
  });
});
