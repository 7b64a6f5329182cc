// Labels go with what carries them, merged by name: a label (and a label group) the destination already has by that
// name is the one its copies carry; the others are copied (with their group). The group copy (CopyGroupsToTenant)
// is this alone, over every label of the source or those a user's products carry.
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { productLabelGroups, productLabels } from "../../db/schema.ts";
import { copiedAudit, copyId, copyRows, type Leg } from "./sql.ts";

/** Source label id → destination label id (same name), as a relation to join: `left join ${labelMap(leg)} lm on …`. */
export const labelMap = (leg: Leg) => sql`(select sl.id as sid, dl.id as did from product_labels sl
  join product_labels dl on dl.tenant_id = ${leg.dest}::uuid and dl.name = sl.name where sl.tenant_id = ${leg.src}::uuid)`;

/** The destination's label of the same name as the source label `column` names (null: none, or no label). */
export const mappedLabel = (leg: Leg, column: SQL) => sql`(select lm.did from ${labelMap(leg)} lm where lm.sid = ${column})`;

/**
 * Copies the source's labels named by `labelIds` (a subquery of source label ids; null: all of them) and their groups,
 * each unless the destination has one by its name. Answers how many labels were added.
 */
export async function copyLabels(tx: Tx, leg: Leg, labelIds: SQL | null): Promise<number> {
  const src = sql`${leg.src}::uuid`;
  const dest = sql`${leg.dest}::uuid`;
  const chosenLabels = labelIds ? sql` and s.id in (${labelIds})` : sql``;
  const chosenGroups = labelIds
    ? sql` and s.id in (select l.group_id from product_labels l where l.tenant_id = ${src} and l.id in (${labelIds}))`
    : sql``;
  await tx.execute(
    sql`${copyRows(
      productLabelGroups,
      { tenant_id: dest, id: copyId(leg, sql`s.id`), ...copiedAudit(leg, productLabelGroups) },
      sql`product_label_groups s where s.tenant_id = ${src}${chosenGroups}`,
    )} on conflict do nothing`,
  );
  const groupOf = sql`(select dg.id from product_label_groups sg join product_label_groups dg on dg.tenant_id = ${dest} and dg.name = sg.name
    where sg.tenant_id = ${src} and sg.id = s.group_id)`;
  const added = await tx.execute(
    sql`${copyRows(
      productLabels,
      { tenant_id: dest, id: copyId(leg, sql`s.id`), group_id: groupOf, ...copiedAudit(leg, productLabels) },
      sql`product_labels s where s.tenant_id = ${src}${chosenLabels}`,
    )} on conflict do nothing returning 1`,
  );
  return rowsOf(added).length;
}
