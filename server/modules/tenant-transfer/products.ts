// Products copied (or moved) to another tenant (chunks.ts): each copy owned by the leg's owner, carrying the
// destination's label of the same name and, when the collection it came from was copied there too, that copy. Only
// live products go; a move deletes the source rows in the chunk's own transaction.
import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { copyChunk, countRows, type Chunk } from "./chunks.ts";
import { labelMap } from "./labels.ts";
import { copiedAudit, copyId, uuids, type Leg } from "./sql.ts";

/** Which of the source's live products: a user's, chosen ids, those the listings of some shop groups were published from. */
export type ProductFilter = { srcUserId?: string | null; productIds?: string[] | null; listedByGroups?: string[] | null };

/**
 * What a move leaves in the source: "no" (a copy), "all" (the source's listings of them lose their product link, as
 * an imported listing has none), "unlisted" (a shop group's migration: a product another shop there still lists stays).
 */
export type DeleteSource = "no" | "all" | "unlisted";

function productWhere(leg: Leg, f: ProductFilter): SQL {
  const src = sql`${leg.src}::uuid`;
  const parts = [sql`s.tenant_id = ${src} and s.is_deleted = false`];
  if (f.srcUserId) parts.push(sql`s.user_id = ${f.srcUserId}::uuid`);
  if (f.productIds) parts.push(sql`s.id = any(${uuids(f.productIds)})`);
  if (f.listedByGroups)
    parts.push(
      sql`s.id in (select l.product_id from listings l where l.tenant_id = ${src} and l.account_group_id = any(${uuids(f.listedByGroups)}))`,
    );
  return sql.join(parts, sql` and `);
}

export const countProducts = (tx: Tx, leg: Leg, f: ProductFilter) => countRows(tx, products, productWhere(leg, f));

/** The labels the chosen products carry (source ids), for copyLabels. */
export const labelsOfProducts = (leg: Leg, f: ProductFilter) =>
  sql`select s.label_id from products s where ${productWhere(leg, f)} and s.label_id is not null`;

/** The next `size` chosen products after `after` (a source id), copied. */
export function copyProductChunk(
  tx: Tx,
  leg: Leg,
  f: ProductFilter,
  after: string | null,
  size: number,
  how: DeleteSource,
): Promise<Chunk> {
  const dest = sql`${leg.dest}::uuid`;
  return copyChunk(
    tx,
    {
      table: products,
      where: productWhere(leg, f),
      overrides: {
        tenant_id: dest,
        id: copyId(leg, sql`s.id`),
        user_id: sql`${leg.owner}::uuid`,
        label_id: sql`lm.did`,
        source_collection_id: sql`dc.id`,
        ...copiedAudit(leg, products),
      },
      joins: sql`left join ${labelMap(leg)} lm on lm.sid = s.label_id
        left join collections dc on dc.tenant_id = ${dest} and dc.id = ${copyId(leg, sql`s.source_collection_id`)}`,
      afterCopy: how === "no" ? undefined : (inRange) => deleteSourceRange(tx, leg, f, inRange, how),
    },
    after,
    size,
  );
}

async function deleteSourceRange(tx: Tx, leg: Leg, f: ProductFilter, inRange: SQL, how: Exclude<DeleteSource, "no">) {
  const src = sql`${leg.src}::uuid`;
  if (how === "all") {
    await tx.execute(sql`update listings set product_id = null
      where tenant_id = ${src} and product_id in (select s.id from products s where ${inRange})`);
    await tx.execute(sql`delete from products s where ${inRange}`);
    return;
  }
  const moving = f.listedByGroups ?? [];
  await tx.execute(sql`delete from products s where ${inRange} and not exists (select 1 from listings l
    where l.tenant_id = ${src} and l.product_id = s.id and not (l.account_group_id = any(${uuids(moving)})))`);
}
