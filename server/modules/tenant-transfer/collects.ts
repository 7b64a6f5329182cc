// Collected products copied (or moved) to another tenant (chunks.ts): owned by the leg's owner, with the destination's
// label of the same name; the collection task that fetched them stays the source's (not linked). A collection the
// owner there already has from the same source item is not copied again (its unique key).
import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { collections } from "../../db/schema.ts";
import { copyChunk, countRows, type Chunk } from "./chunks.ts";
import { labelMap } from "./labels.ts";
import { copiedAudit, copyId, type Leg } from "./sql.ts";

function collectWhere(leg: Leg, srcUserId: string | null): SQL {
  const own = srcUserId ? sql` and s.user_id = ${srcUserId}::uuid` : sql``;
  return sql`s.tenant_id = ${leg.src}::uuid${own}`;
}

export const countCollects = (tx: Tx, leg: Leg, srcUserId: string | null) => countRows(tx, collections, collectWhere(leg, srcUserId));

export const labelsOfCollects = (leg: Leg, srcUserId: string | null) =>
  sql`select s.label_id from collections s where ${collectWhere(leg, srcUserId)} and s.label_id is not null`;

export function copyCollectChunk(
  tx: Tx,
  leg: Leg,
  srcUserId: string | null,
  after: string | null,
  size: number,
  move: boolean,
): Promise<Chunk> {
  return copyChunk(
    tx,
    {
      table: collections,
      where: collectWhere(leg, srcUserId),
      overrides: {
        tenant_id: sql`${leg.dest}::uuid`,
        id: copyId(leg, sql`s.id`),
        user_id: sql`${leg.owner}::uuid`,
        label_id: sql`lm.did`,
        collect_task_id: sql`null`,
        ...copiedAudit(leg, collections),
      },
      joins: sql`left join ${labelMap(leg)} lm on lm.sid = s.label_id`,
      afterCopy: move ? async (inRange) => void (await tx.execute(sql`delete from collections s where ${inRange}`)) : undefined,
    },
    after,
    size,
  );
}
