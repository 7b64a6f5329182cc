// MigrateWord: the source's infringement words added to the destination's, one statement; a word the destination has
// (the same normalized word) stays once. Naturally idempotent: running it again adds nothing.
import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { infringementWords } from "../../db/schema.ts";
import { copiedAudit, copyId, copyRows, type Leg } from "./sql.ts";

export async function copyWords(tx: Tx, leg: Leg): Promise<{ count: number; skipped: number }> {
  const src = sql`${leg.src}::uuid`;
  const insert = copyRows(
    infringementWords,
    { tenant_id: sql`${leg.dest}::uuid`, id: copyId(leg, sql`s.id`), ...copiedAudit(leg, infringementWords) },
    sql`infringement_words s where s.tenant_id = ${src}`,
  );
  const [r] = rowsOf<{ count: number; total: number }>(
    await tx.execute(sql`with ins as (${insert} on conflict do nothing returning 1)
      select (select count(*)::int from ins) as count, (select count(*)::int from infringement_words where tenant_id = ${src}) as total`),
  );
  return { count: r?.count ?? 0, skipped: (r?.total ?? 0) - (r?.count ?? 0) };
}
