// For tests outside the server (the shared client's): products written and read straight in the database, so a test
// can tell how many times a call did its work without going through the call it is testing.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { products } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import type { TestTenant } from "./harness.ts";

/** A 1688 item as the extension sends it to CrawlProductByPlugin (one image, no options). */
export const collectedItem = (itemId: string, title: string) => ({
  platform: "1688",
  itemId,
  sourceUrl: `https://detail.1688.com/offer/${itemId}.html`,
  title: { zh: title },
  titleLanguage: "zh",
  currency: "CNY",
  price: 12.5,
  images: ["https://img.example.com/a.jpg"],
  attributes: [],
  options: [],
  variants: [],
});

/** Products of the tenant's main account at the given prices, all with the sku `tag`. */
export async function seedPricedProducts(database: Database, tenant: TestTenant, tag: string, prices: number[]): Promise<void> {
  await inScope(database.db, { tenantId: tenant.tenantId }, (tx) =>
    tx
      .insert(products)
      .values(prices.map((p) => ({ tenantId: tenant.tenantId, id: randomUUID(), userId: tenant.userId, sku: tag, price: p.toFixed(2) }))),
  );
}

/** The prices of the tenant's products with the sku `tag`, lowest first, as stored. */
export async function pricesOfSku(database: Database, tenant: TestTenant, tag: string): Promise<(string | null)[]> {
  const rows = await inScope(database.db, { tenantId: tenant.tenantId }, (tx) =>
    tx.select({ price: products.price }).from(products).where(eq(products.sku, tag)).orderBy(products.price),
  );
  return rows.map((r) => r.price);
}
