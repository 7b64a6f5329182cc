// A sandbox kept in a file outlives its process: after a restart from the same file the seller's tokens, items, orders
// and clock are still there, the rotating refresh token still works once, and a corrupt file is set aside.
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { itemBody, plainLeaf, startSandbox, type TestSandbox } from "../testing/sandbox-kit.ts";

const open: TestSandbox[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

async function start(stateFile: string) {
  const t = await startSandbox({ stateFile });
  open.push(t);
  return t;
}

describe("the sandbox's state in a file", () => {
  it("keeps the seller's token, item, order and clock across a restart", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "sandbox-state-")), "meli-sandbox.json");
    const first = await start(file);
    const tokens = await first.connect("KEPT_SELLER");
    const created = await first.call("POST", "/items", { token: tokens.access_token, body: itemBody(plainLeaf(first.sandbox, "MLM")) });
    expect(created.status).toBe(201);
    const order = first.control.createOrder(tokens.user_id, { itemId: created.body.id, quantity: 1, status: "paid" });
    first.control.clock.advance(60_000);
    const clock = first.control.clock.now().getTime();
    // The item as stored before the restart: the sandbox's own buyers may add a sale while its clock moves on.
    const before = await first.call("GET", `/items/${created.body.id}`, { token: tokens.access_token });
    expect(before.body.sold_quantity).toBeGreaterThanOrEqual(1);
    await first.close();
    open.splice(0);

    const second = await start(file);
    expect(second.control.clock.now().getTime()).toBe(clock);
    const me = await second.call("GET", "/users/me", { token: tokens.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: tokens.user_id, nickname: "KEPT_SELLER" });
    const item = await second.call("GET", `/items/${created.body.id}`, { token: tokens.access_token });
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({
      id: created.body.id,
      title: created.body.title,
      status: "active",
      sold_quantity: before.body.sold_quantity,
    });
    const read = await second.call("GET", `/orders/${order.id}`, { token: tokens.access_token });
    expect(read.body).toMatchObject({ id: order.id, status: "paid" });

    // The refresh token rotates as before: it works once, then only its successor does.
    const { clientId, clientSecret } = second.control.app();
    const refresh = (refresh_token: string) =>
      second.call("POST", "/oauth/token", {
        form: { grant_type: "refresh_token", client_id: clientId, client_secret: clientSecret, refresh_token },
      });
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
    expect((await refresh(tokens.refresh_token)).body.error).toBe("invalid_grant");

    // A new item after the restart does not reuse the first one's id.
    const next = await second.call("POST", "/items", { token: tokens.access_token, body: itemBody(plainLeaf(second.sandbox, "MLM")) });
    expect(next.body.id).not.toBe(created.body.id);
  });

  it("sets an unreadable file aside and starts empty", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-state-"));
    const file = join(dir, "meli-sandbox.json");
    writeFileSync(file, "{not json");
    const t = await start(file);
    expect(t.control.seller(1)).toBeNull();
    expect(readdirSync(dir).some((f) => f.startsWith("meli-sandbox.json.unreadable-"))).toBe(true);
  });
});
