// Product labels and label groups (spec §3 Product label / Label group, §7 ProductLabel). Labels are the tenant's:
// its main account (or the host, for the host tenant) creates, edits and deletes them and their groups; every user
// reads them, each label with the count of the caller's visible live products carrying it (a sub-account's own).
// Putting labels on products (LinkProductLabel, CancelLinkProductLabel) is a bulk edit of the product calls.
import { randomUUID } from "node:crypto";
import { and, asc, count, eq, inArray, isNotNull, ne, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { rowsOf } from "../../db/client.ts";
import { productLabelGroups, productLabels, products } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, badRequest, forbidden, notFound } from "../../http/errors.ts";
import {
  createOrUpdateProductLabelGroupInput,
  createOrUpdateProductLabelInput,
  MAX_PRODUCT_LABEL_GROUPS,
  MAX_PRODUCT_LABELS,
  type ProductLabel,
  type ProductLabelGroup,
  type ProductLabelList,
} from "#shared/contract/product-label.ts";
import { visibleProducts } from "./filter.ts";

type LabelInput = z.output<typeof createOrUpdateProductLabelInput>;
type GroupInput = z.output<typeof createOrUpdateProductLabelGroupInput>;

/** Writes are for the tenant's main account (the host keeps the host tenant's); 403 for a sub-account. */
function mustKeepLabels(ctx: CallContext) {
  const u = ctx.user!;
  if (!(u.isMainAccount || u.isHost)) throw forbidden("仅主账号可以维护标签");
}

/** A name another label (group) already has: 403, the names in details. */
const nameTaken = (message: string, names: string[]) => new AppError(403, message, null, names.join("、"));

const labelOrder = [asc(productLabels.sort), asc(productLabels.name), asc(productLabels.id)];

/**
 * The tenant's labels (those matching `where`, all without it) with the count of the caller's visible live products
 * carrying each: one grouped count joined to the labels, by sort then name.
 */
async function readLabels(ctx: CallContext, where?: SQL, labelIds?: string[]): Promise<ProductLabel[]> {
  const counted = ctx.tx
    .select({ labelId: products.labelId, n: count().as("n") })
    .from(products)
    .where(and(visibleProducts(ctx), isNotNull(products.labelId), labelIds ? inArray(products.labelId, labelIds) : undefined))
    .groupBy(products.labelId)
    .as("counted");
  return ctx.tx
    .select({
      id: productLabels.id,
      name: productLabels.name,
      sort: productLabels.sort,
      groupId: productLabels.groupId,
      count: sql<number>`coalesce(${counted.n}, 0)::int`.mapWith(Number),
    })
    .from(productLabels)
    .leftJoin(counted, eq(counted.labelId, productLabels.id))
    .where(and(eq(productLabels.tenantId, ctx.tenantId), where))
    .orderBy(...labelOrder);
}

/** GetProductLabels: every label with its count, and every group with its labels. */
export async function getProductLabels(ctx: CallContext): Promise<ProductLabelList> {
  const labels = await readLabels(ctx);
  const groups = await ctx.tx
    .select({ id: productLabelGroups.id, name: productLabelGroups.name, sort: productLabelGroups.sort })
    .from(productLabelGroups)
    .where(eq(productLabelGroups.tenantId, ctx.tenantId))
    .orderBy(asc(productLabelGroups.sort), asc(productLabelGroups.name), asc(productLabelGroups.id));
  const byGroup = new Map<string, ProductLabel[]>();
  for (const l of labels) if (l.groupId) byGroup.set(l.groupId, [...(byGroup.get(l.groupId) ?? []), l]);
  return { labels, groups: groups.map((g) => ({ ...g, productLabels: byGroup.get(g.id) ?? [] })) };
}

/**
 * CreateOrUpdateProductLabels (and the single call, a batch of one): all or nothing. Checks first (ids known, groups
 * known, names unique in the request and against the tenant's other labels, the size limit), then one update for the
 * edited labels and one insert for the new ones. Names may move between labels of the batch (a swap): the renamed
 * labels pass through a placeholder name no real name can have (a control character), since the unique index is
 * checked row by row.
 */
export async function createOrUpdateProductLabels(ctx: CallContext, items: LabelInput[]): Promise<ProductLabel[]> {
  mustKeepLabels(ctx);
  const tenantId = ctx.tenantId;
  const userId = ctx.user!.id;
  const editIds = items.flatMap((i) => (i.id ? [i.id] : []));
  if (new Set(editIds).size !== editIds.length) throw badRequest("同一个标签在请求中出现了多次");
  const names = items.map((i) => i.name);
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  if (repeated.length) throw badRequest("标签名称重复", [...new Set(repeated)].join("、"));

  const known = await ctx.tx
    .select({ id: productLabels.id, name: productLabels.name, sort: productLabels.sort, groupId: productLabels.groupId })
    .from(productLabels)
    .where(
      and(
        eq(productLabels.tenantId, tenantId),
        editIds.length
          ? sql`(${inArray(productLabels.id, editIds)} or ${inArray(productLabels.name, names)})`
          : inArray(productLabels.name, names),
      ),
    )
    .for("update");
  const byId = new Map(known.map((l) => [l.id, l]));
  if (editIds.some((id) => !byId.has(id))) throw notFound("标签不存在");
  // A name is taken when a label outside the batch holds it; a label of the batch gives its name up or keeps it.
  const batchIds = new Set(editIds);
  const taken = known.filter((l) => names.includes(l.name) && !batchIds.has(l.id)).map((l) => l.name);
  if (taken.length) throw nameTaken("标签名称已存在", taken);

  const groupIds = [...new Set(items.flatMap((i) => (i.groupId ? [i.groupId] : [])))];
  if (groupIds.length) {
    // FOR SHARE: a group deleted at the same time waits for this transaction, then ungroups these labels too.
    const groups = await ctx.tx
      .select({ id: productLabelGroups.id })
      .from(productLabelGroups)
      .where(and(eq(productLabelGroups.tenantId, tenantId), inArray(productLabelGroups.id, groupIds)))
      .for("share");
    if (groups.length !== groupIds.length) throw notFound("标签分组不存在");
  }

  const edits = items
    .filter((i) => i.id)
    .map((i) => {
      const old = byId.get(i.id!)!;
      return {
        id: old.id,
        name: i.name,
        sort: i.sort ?? old.sort,
        group_id: i.groupId === undefined ? old.groupId : i.groupId,
        renamed: i.name !== old.name,
      };
    });
  const renamed = edits.filter((e) => e.renamed).map((e) => e.id);
  const heldInBatch = new Set(known.filter((l) => batchIds.has(l.id)).map((l) => l.name));
  if (edits.some((e) => e.renamed && heldInBatch.has(e.name))) {
    await ctx.tx
      .update(productLabels)
      .set({ name: sql`chr(1) || ${productLabels.id}::text` })
      .where(and(eq(productLabels.tenantId, tenantId), inArray(productLabels.id, renamed)));
  }
  if (edits.length) {
    await ctx.tx.execute(sql`update product_labels l
      set name = v.name, sort = v.sort, group_id = v.group_id, last_modification_time = now(), last_modifier_id = ${userId}
      from jsonb_to_recordset(${JSON.stringify(edits)}::jsonb) as v(id uuid, name text, sort integer, group_id uuid)
      where l.tenant_id = ${tenantId} and l.id = v.id`);
  }

  const created = items
    .filter((i) => !i.id)
    .map((i) => ({ tenantId, id: randomUUID(), name: i.name, sort: i.sort ?? 0, groupId: i.groupId ?? null, creatorId: userId }));
  if (created.length) {
    await ctx.tx.insert(productLabels).values(created);
    const [{ n }] = await ctx.tx.select({ n: count() }).from(productLabels).where(eq(productLabels.tenantId, tenantId));
    if (Number(n) > MAX_PRODUCT_LABELS) throw badRequest(`标签最多 ${MAX_PRODUCT_LABELS} 个，请先删除不需要的标签`);
  }

  let next = 0;
  const ids = items.map((i) => i.id ?? created[next++].id);
  const labels = new Map((await readLabels(ctx, inArray(productLabels.id, ids), ids)).map((l) => [l.id, l]));
  return ids.map((id) => labels.get(id)!);
}

/** DeleteProductLabel: the label goes, and every product of the tenant carrying it (deleted ones too) loses it. */
export async function deleteProductLabel(ctx: CallContext, id: string) {
  mustKeepLabels(ctx);
  const [gone] = await ctx.tx
    .delete(productLabels)
    .where(and(eq(productLabels.tenantId, ctx.tenantId), eq(productLabels.id, id)))
    .returning({ id: productLabels.id });
  if (!gone) throw notFound("标签不存在");
  // One statement over live and deleted rows; the two arms of the OR let the planner combine the partial indexes over
  // live rows by label and over the tenant's deleted rows (BitmapOr) instead of reading every row of the tenant.
  const [{ n }] = rowsOf<{ n: number }>(
    await ctx.tx.execute(sql`with cleared as (
        update products set label_id = null, last_modification_time = now(), last_modifier_id = ${ctx.user!.id},
          concurrency_stamp = gen_random_uuid()::text
        where tenant_id = ${ctx.tenantId} and label_id = ${id} and (is_deleted = false or is_deleted = true)
        returning 1)
      select count(*)::int as n from cleared`),
  );
  return { count: Number(n) };
}

async function readGroup(ctx: CallContext, id: string): Promise<ProductLabelGroup> {
  const [g] = await ctx.tx
    .select({ id: productLabelGroups.id, name: productLabelGroups.name, sort: productLabelGroups.sort })
    .from(productLabelGroups)
    .where(and(eq(productLabelGroups.tenantId, ctx.tenantId), eq(productLabelGroups.id, id)));
  return { ...g, productLabels: await readLabels(ctx, eq(productLabels.groupId, id)) };
}

/** CreateOrUpdateProductLabelGroup: a new group (sort 0 unless given), or the group's new name / sort. */
export async function createOrUpdateProductLabelGroup(ctx: CallContext, input: GroupInput): Promise<ProductLabelGroup> {
  mustKeepLabels(ctx);
  const tenantId = ctx.tenantId;
  const userId = ctx.user!.id;
  const other = input.id ? ne(productLabelGroups.id, input.id) : undefined;
  const [clash] = await ctx.tx
    .select({ id: productLabelGroups.id })
    .from(productLabelGroups)
    .where(and(eq(productLabelGroups.tenantId, tenantId), eq(productLabelGroups.name, input.name), other));
  if (input.id) {
    const [old] = await ctx.tx
      .select({ sort: productLabelGroups.sort })
      .from(productLabelGroups)
      .where(and(eq(productLabelGroups.tenantId, tenantId), eq(productLabelGroups.id, input.id)))
      .for("update");
    if (!old) throw notFound("标签分组不存在");
    if (clash) throw nameTaken("标签分组名称已存在", [input.name]);
    await ctx.tx
      .update(productLabelGroups)
      .set({ name: input.name, sort: input.sort ?? old.sort, lastModificationTime: new Date(), lastModifierId: userId })
      .where(and(eq(productLabelGroups.tenantId, tenantId), eq(productLabelGroups.id, input.id)));
    return readGroup(ctx, input.id);
  }
  if (clash) throw nameTaken("标签分组名称已存在", [input.name]);
  const id = randomUUID();
  await ctx.tx.insert(productLabelGroups).values({ tenantId, id, name: input.name, sort: input.sort ?? 0, creatorId: userId });
  const [{ n }] = await ctx.tx.select({ n: count() }).from(productLabelGroups).where(eq(productLabelGroups.tenantId, tenantId));
  if (Number(n) > MAX_PRODUCT_LABEL_GROUPS) throw badRequest(`标签分组最多 ${MAX_PRODUCT_LABEL_GROUPS} 个，请先删除不需要的分组`);
  return readGroup(ctx, id);
}

/** DeleteProductLabelGroup: the group goes and its labels become ungrouped (answers how many). */
export async function deleteProductLabelGroup(ctx: CallContext, id: string) {
  mustKeepLabels(ctx);
  // Delete first: it waits for a label write holding the group FOR SHARE, and the ungrouping (a later statement)
  // then sees that label too.
  const [gone] = await ctx.tx
    .delete(productLabelGroups)
    .where(and(eq(productLabelGroups.tenantId, ctx.tenantId), eq(productLabelGroups.id, id)))
    .returning({ id: productLabelGroups.id });
  if (!gone) throw notFound("标签分组不存在");
  const rows = await ctx.tx
    .update(productLabels)
    .set({ groupId: null, lastModificationTime: new Date(), lastModifierId: ctx.user!.id })
    .where(and(eq(productLabels.tenantId, ctx.tenantId), eq(productLabels.groupId, id)))
    .returning({ id: productLabels.id });
  return { count: rows.length };
}
