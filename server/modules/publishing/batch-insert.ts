// A publish batch's listings as rows (ListingRow) and their insert: one statement per chunk with the rows as one JSON
// parameter (building a 1,000-row insert with drizzle's parameters took 130+ ms of synchronous work, issue 29).
import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import type { ListingPlan } from "./types.ts";

/** A listing as Publish writes it (the columns of LISTING_COLUMNS). */
export type ListingRow = {
  tenantId: string;
  id: string;
  batchId: string;
  accountGroupId: string;
  accountId: string;
  userId: string;
  productId: string;
  productLabelId: string | null;
  site: number;
  cateId: string | null;
  cateName: string | null;
  title: string | null;
  price: string | null;
  currency: string | null;
  priceContent: unknown;
  listingType: string;
  image: string | null;
  stock: number | null;
  duplicateAllowed: boolean;
  creatorId: string;
  status: number;
  reason: string | null;
  problems: ListingPlan["problems"];
  warningMessage: string | null;
};

/** Each written column, its type in jsonb_to_recordset and the row's field it comes from. */
const LISTING_COLUMNS: [column: string, type: string, field: keyof ListingRow][] = [
  ["tenant_id", "uuid", "tenantId"],
  ["id", "uuid", "id"],
  ["batch_id", "uuid", "batchId"],
  ["account_group_id", "uuid", "accountGroupId"],
  ["account_id", "uuid", "accountId"],
  ["user_id", "uuid", "userId"],
  ["product_id", "uuid", "productId"],
  ["product_label_id", "uuid", "productLabelId"],
  ["site", "int", "site"],
  ["cate_id", "text", "cateId"],
  ["cate_name", "text", "cateName"],
  ["title", "text", "title"],
  ["price", "numeric", "price"],
  ["currency", "text", "currency"],
  ["price_content", "jsonb", "priceContent"],
  ["listing_type", "text", "listingType"],
  ["image", "text", "image"],
  ["stock", "int", "stock"],
  ["duplicate_allowed", "boolean", "duplicateAllowed"],
  ["creator_id", "uuid", "creatorId"],
  ["status", "int", "status"],
  ["reason", "text", "reason"],
  ["problems", "jsonb", "problems"],
  ["warning_message", "text", "warningMessage"],
];
const columnList = sql.raw(LISTING_COLUMNS.map(([c]) => c).join(", "));
const recordType = sql.raw(LISTING_COLUMNS.map(([c, t]) => `${c} ${t}`).join(", "));
/** Listings per statement. */
export const LISTING_CHUNK = 500;

/**
 * Inserts `rows` (at most a chunk's) in one statement with the rows as one JSON parameter; answers the ids written.
 * Pending ones go in with ON CONFLICT DO NOTHING against the one-listing-per-shop-site index (migration 0026).
 */
export async function insertRows(tx: Tx, rows: ListingRow[], onConflictDoNothing: boolean): Promise<Set<string>> {
  const json = JSON.stringify(rows.map((r) => Object.fromEntries(LISTING_COLUMNS.map(([c, , f]) => [c, r[f] ?? null]))));
  const done = rowsOf<{ id: string }>(
    await tx.execute(sql`insert into listings (${columnList})
      select ${columnList} from jsonb_to_recordset(${json}::jsonb) as v(${recordType})
      ${onConflictDoNothing ? sql`on conflict do nothing` : sql``} returning id`),
  );
  return new Set(done.map((d) => d.id));
}
