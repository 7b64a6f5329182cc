// Test helpers for the listing centre: sandbox items created by a connected shop's seller, and listing records of
// them inserted as publishing leaves them (so a test of sync, visits or edits starts from known rows).
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { listings, meliAccounts } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import type { TestServer, TestTenant } from "./harness.ts";
import { itemBody, plainLeaf } from "./sandbox-kit.ts";

/** A sandbox item created by the shop's seller through the app's Mercado Libre client. */
export async function createShopItem(
  s: TestServer,
  t: TestTenant,
  groupId: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const shop = s.deps.meli.shop({ tenantId: t.tenantId, groupId });
  const item = await shop.send<{ id: string }>("POST", "/items", { body: itemBody(plainLeaf(s.deps.sandbox!, "MLM"), overrides) });
  return item.id;
}

/** The shop group's (first) shop account. */
export async function accountOf(s: TestServer, t: TestTenant, groupId: string) {
  const [a] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.select({ id: meliAccounts.id, ownerId: meliAccounts.ownerId }).from(meliAccounts).where(eq(meliAccounts.groupId, groupId)),
  );
  return a;
}

/** Listing records of items (Mexico, live, price 1.00, stock 1), with `extra` columns; answers their ids in order. */
export async function recordListings(
  s: TestServer,
  t: TestTenant,
  groupId: string,
  itemIds: string[],
  extra: Partial<typeof listings.$inferInsert> = {},
): Promise<string[]> {
  const account = await accountOf(s, t, groupId);
  const rows = itemIds.map((itemId) => ({
    tenantId: t.tenantId,
    id: randomUUID(),
    accountGroupId: groupId,
    accountId: account.id,
    userId: t.userId,
    productId: randomUUID(),
    site: 1,
    itemId,
    title: "old",
    status: ListingStatus.Active,
    price: "1.00",
    stock: 1,
    ...extra,
  }));
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) => tx.insert(listings).values(rows));
  return rows.map((r) => r.id);
}
