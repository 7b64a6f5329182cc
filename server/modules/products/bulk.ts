// The product bulk edits (spec §3 Bulk edits; §7 Product and ProductLabel): prices, weight and size, status, category,
// find-and-replace, labels, assignment and deletion. Each is a plan (BulkEditPlan): the columns it changes, the rows
// (the selected ids or the list's filter) and the SET list, run set-based and recorded for undo by bulk-tasks.ts, in
// the call or, over a large selection, as a task in batches; plus the exact count of a filter.
import { and, count, eq, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf, type Tx } from "../../db/client.ts";
import { containsPattern } from "../../db/query.ts";
import { productLabels, products, users } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError, notFound } from "../../http/errors.ts";
import {
  assignProductInput,
  batchDeleteProductsInput,
  batchUpdateProductCategoryInput,
  batchUpdateProductPriceInput,
  batchUpdateProductSamePriceInput,
  batchUpdateProductStatusInput,
  batchUpdateProductWeightInput,
  cancelLinkProductLabelInput,
  deleteProductsInput,
  linkProductLabelInput,
  replaceKeywordInput,
  type ProductFilter,
  type ProductSelection,
} from "#shared/contract/product.ts";
import { editedStatus, type BulkEdit } from "./edits.ts";
import { productWhere, selectionWhere, type ProductScope } from "./filter.ts";

type Body<T extends z.ZodType> = z.output<T>;
export type SamePriceBody = Body<typeof batchUpdateProductSamePriceInput>;
export type PriceBody = Body<typeof batchUpdateProductPriceInput>;
type WeightBody = Body<typeof batchUpdateProductWeightInput>;
export type StatusBody = Body<typeof batchUpdateProductStatusInput>;
export type CategoryBody = Body<typeof batchUpdateProductCategoryInput>;
export type ReplaceKeywordBody = Body<typeof replaceKeywordInput>;
export type LabelBody = Body<typeof linkProductLabelInput>;
export type CancelLabelBody = Body<typeof cancelLinkProductLabelInput>;
export type AssignBody = Body<typeof assignProductInput>;

/** Who runs an edit: the call's, or a bulk edit task's batch (its own transaction, the user who started it). */
export type BulkScope = ProductScope & { tx: Tx; user: NonNullable<ProductScope["user"]> };

/**
 * A bulk edit as planned for a caller: what recordBulkEdit runs, and a check of the rows it changed (AssignProduct's
 * limit), run after the update in the same transaction, which a refusal rolls back.
 */
export type BulkEditPlan = BulkEdit & { check?: (changed: number) => Promise<void> };

// ---------------------------------------------------------------------------------------------------------------
// Prices. Money is computed in SQL numeric (never JavaScript floats); numbers go in as their decimal text.

const numeric = (n: number) => sql`${String(n)}::numeric`;

/** Every edit of a product's content here also moves it from 未编辑 to edited (editedStatus); status is recorded for undo. */
const edited = sql`status = ${editedStatus(sql`${products.status}`)}`;

/** x with its cents replaced: floor(x) + tinyPrice (at cents), or x when no tinyPrice is given. */
const endingOn = (x: SQL, tinyPrice: number | null | undefined) =>
  tinyPrice == null ? x : sql`round(floor(${x}) + ${numeric(tinyPrice)}, 2)`;

/** A variant (jsonb object) with a numeric price: a JSON number, or a string holding a plain decimal. */
const variantHasPrice = sql`(jsonb_typeof(x.v -> 'price') = 'number'
  or (jsonb_typeof(x.v -> 'price') = 'string' and x.v ->> 'price' ~ '^[[:space:]]*-?[0-9]+([.][0-9]+)?[[:space:]]*$'))`;

/**
 * The variants with new prices, in their order: `price(old)` for each variant with a price, or for every variant
 * (object) when `every`. The price is written as a JSON number.
 */
function variantsPriced(price: (old: SQL) => SQL, every: boolean): SQL {
  const which = every ? sql`jsonb_typeof(x.v) = 'object'` : sql`jsonb_typeof(x.v) = 'object' and ${variantHasPrice}`;
  return sql`case when jsonb_typeof(${products.variants}) = 'array' then (
      select coalesce(jsonb_agg(case when ${which}
          then jsonb_set(x.v, '{price}', to_jsonb(${price(sql`(x.v ->> 'price')::numeric`)}))
          else x.v end order by x.n), '[]'::jsonb)
      from jsonb_array_elements(${products.variants}) with ordinality as x(v, n)
    ) else ${products.variants} end`;
}

/** BatchUpdateProductSamePrice: price and every variant's price = round(fixPrice × (rate ?? 1), 2), ending on tinyPrice. */
function samePricePlan(ctx: BulkScope, body: SamePriceBody): BulkEditPlan {
  const value = endingOn(sql`round(${numeric(body.fixPrice)} * ${numeric(body.rate ?? 1)}, 2)`, body.tinyPrice);
  return {
    kind: "BatchUpdateProductSamePrice",
    columns: ["price", "variants", "status"],
    where: selectionWhere(ctx, body),
    set: sql`price = ${value}, variants = ${variantsPriced(() => value, true)}, ${edited}`,
    input: body,
  };
}

/** BatchUpdateProductPrice: each price (and variant price) = max(0, round(old × rate + price, 2) ending on tinyPrice). */
function pricePlan(ctx: BulkScope, body: PriceBody): BulkEditPlan {
  const next = (old: SQL) =>
    sql`greatest(0::numeric, ${endingOn(sql`round(${old} * ${numeric(body.rate)} + ${numeric(body.price)}, 2)`, body.tinyPrice)})`;
  return {
    kind: "BatchUpdateProductPrice",
    columns: ["price", "variants", "status"],
    where: selectionWhere(ctx, body),
    set: sql`price = case when ${products.price} is null then null else ${next(sql`${products.price}`)} end,
      variants = ${variantsPriced(next, false)}, ${edited}`,
    input: body,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Weight, size, status, category.

/** BatchUpdateProductWeight / WebBatchUpdateProductWeight: a weight (or each product its own random one) and/or a size. */
function weightPlan(ctx: BulkScope, body: WeightBody, kind: string): BulkEditPlan {
  const columns: string[] = [];
  const set: SQL[] = [];
  if (body.isRandom) {
    const min = numeric(body.minRandomWeight!);
    const max = numeric(body.maxRandomWeight!);
    columns.push("weight");
    set.push(sql`weight = round(${min} + random()::numeric * (${max} - ${min}), 2)`);
  } else if (body.weight != null) {
    columns.push("weight");
    set.push(sql`weight = round(${numeric(body.weight)}, 2)`);
  }
  if (body.size != null) {
    columns.push("size");
    set.push(sql`size = ${body.size}::text`);
  }
  if (columns.length) {
    columns.push("status");
    set.push(edited);
  }
  return { kind, columns, where: selectionWhere(ctx, body), set: sql.join(set, sql`, `), input: body };
}

function statusPlan(ctx: BulkScope, body: StatusBody): BulkEditPlan {
  return {
    kind: "BatchUpdateProductStatus",
    columns: ["status"],
    where: and(selectionWhere(ctx, body), sql`${products.status} <> ${body.status}::int`)!,
    set: sql`status = ${body.status}::int`,
    input: body,
  };
}

/** BatchUpdateProductCategory: cate_info {cateId, site, attrs} and its columns cate_id, site, category_name. */
function categoryPlan(ctx: BulkScope, body: CategoryBody): BulkEditPlan {
  const { cateId, site, attrs, categoryName } = body.productCateInfo;
  return {
    kind: "BatchUpdateProductCategory",
    columns: ["cate_info", "cate_id", "site", "category_name", "status"],
    where: selectionWhere(ctx, body),
    set: sql`cate_info = ${JSON.stringify({ cateId, site, attrs })}::jsonb, cate_id = ${cateId}::text, site = ${site}::int,
      category_name = ${categoryName ?? null}::text, ${edited}`,
    input: body,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Find and replace.

/** The keyword as a regular expression matching it literally (PostgreSQL ARE). */
export const literalPattern = (s: string) => s.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");
/** The replacement text for regexp_replace taken literally (a backslash starts a reference there: \1, \&). */
export const literalReplacement = (s: string) => s.replace(/\\/g, "\\\\");

/**
 * ReplaceKeyword: the keyword (literal text, any case when isIgnoreCase) replaced in every language of the titles
 * and/or descriptions; only products holding it are changed. The titles trigger keeps title_text and search_text.
 */
function replaceKeywordPlan(ctx: BulkScope, body: ReplaceKeywordBody): BulkEditPlan {
  const pattern = literalPattern(body.keyword);
  const replaced = (s: SQL) =>
    body.isIgnoreCase
      ? sql`regexp_replace(${s}, ${pattern}::text, ${literalReplacement(body.replaceText)}::text, 'gi')`
      : sql`replace(${s}, ${body.keyword}::text, ${body.replaceText}::text)`;
  const holds = (s: SQL) => (body.isIgnoreCase ? sql`${s} ~* ${pattern}::text` : sql`strpos(${s}, ${body.keyword}::text) > 0`);
  const texts = (column: SQL) => ({
    has: sql`(jsonb_typeof(${column}) = 'object' and exists (select 1 from jsonb_each(${column}) e
      where jsonb_typeof(e.value) = 'string' and ${holds(sql`(e.value #>> '{}')`)}))`,
    next: sql`case when jsonb_typeof(${column}) = 'object' then (
        select coalesce(jsonb_object_agg(e.key, case when jsonb_typeof(e.value) = 'string'
          then to_jsonb(${replaced(sql`(e.value #>> '{}')`)}) else e.value end), '{}'::jsonb)
        from jsonb_each(${column}) e
      ) else ${column} end`,
  });
  const columns: string[] = [];
  const set: SQL[] = [];
  const has: SQL[] = [];
  if (body.isReplaceTitle) {
    const t = texts(sql`${products.title}`);
    columns.push("title");
    set.push(sql`title = ${t.next}`);
    // search_text (every title, lower-cased) holds the keyword whenever a title does: the trigram index narrows first.
    has.push(sql`(${products.searchText} like lower(${containsPattern(body.keyword)}::text) and ${t.has})`);
  }
  if (body.isReplaceDescription) {
    const d = texts(sql`${products.description}`);
    columns.push("description");
    set.push(sql`description = ${d.next}`);
    has.push(d.has);
  }
  if (columns.length) {
    columns.push("status");
    set.push(edited);
  }
  return {
    kind: "ReplaceKeyword",
    columns,
    where: and(selectionWhere(ctx, body), sql`(${sql.join(has, sql` or `)})`)!,
    set: sql.join(set, sql`, `),
    input: body,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Labels, owner, deletion.

async function linkLabelPlan(ctx: BulkScope, body: LabelBody): Promise<BulkEditPlan> {
  const [label] = await ctx.tx
    .select({ id: productLabels.id })
    .from(productLabels)
    .where(and(eq(productLabels.tenantId, ctx.tenantId), eq(productLabels.id, body.labelId)));
  if (!label) throw notFound("标签不存在");
  return {
    kind: "LinkProductLabel",
    columns: ["label_id"],
    where: and(selectionWhere(ctx, body), sql`${products.labelId} is distinct from ${body.labelId}::uuid`)!,
    set: sql`label_id = ${body.labelId}::uuid`,
    input: body,
  };
}

/** CancelLinkProductLabel: the label off the selected products (only those carrying labelId, when given). */
function cancelLabelPlan(ctx: BulkScope, body: CancelLabelBody): BulkEditPlan {
  const which = body.labelId ? eq(products.labelId, body.labelId) : sql`${products.labelId} is not null`;
  return {
    kind: "CancelLinkProductLabel",
    columns: ["label_id"],
    where: and(selectionWhere(ctx, body), which)!,
    set: sql`label_id = null`,
    input: body,
  };
}

/**
 * AssignProduct (main account): the selected products to an active user of the tenant, within that user's
 * productCount limit. The user's row is locked first (as every product save does), the limit is checked on the
 * trigger-kept count after the move, and a refusal rolls the move back.
 */
async function assignPlan(ctx: BulkScope, body: AssignBody): Promise<BulkEditPlan> {
  const [target] = await ctx.tx
    .select({ userName: users.userName, productCount: users.productCount, isActive: users.isActive, isDeleted: users.isDeleted })
    .from(users)
    .where(and(eq(users.tenantId, ctx.tenantId), eq(users.id, body.userId)))
    .for("update");
  if (!target || target.isDeleted || !target.isActive) throw notFound("用户不存在或已停用");
  const check = async (changed: number) => {
    if (!changed || target.productCount === null) return;
    const [row] = rowsOf<{ n: number }>(
      await ctx.tx.execute(sql`select count as n from product_counts where tenant_id = ${ctx.tenantId} and user_id = ${body.userId}`),
    );
    const have = Number(row?.n ?? 0);
    if (have > target.productCount) {
      throw businessError(
        `${target.userName} 的产品数量将超过上限（${target.productCount} 个，已有 ${have - changed} 个，本次分配 ${changed} 个）`,
        "Product.LimitReached",
      );
    }
  };
  return {
    kind: "AssignProduct",
    columns: ["user_id"],
    where: and(selectionWhere(ctx, body), sql`${products.userId} <> ${body.userId}::uuid`)!,
    set: sql`user_id = ${body.userId}::uuid`,
    input: body,
    check,
  };
}

function softDeletePlan(ctx: BulkScope, kind: string, where: SQL, input: unknown): BulkEditPlan {
  return {
    kind,
    columns: ["is_deleted", "deleter_id", "deletion_time"],
    where,
    set: sql`is_deleted = true, deleter_id = ${ctx.user!.id}::uuid, deletion_time = now()`,
    input,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Every bulk call: its input (a task re-reads the body it was given with it) and its plan.

const entry = <B extends z.ZodType>(input: B, plan: (ctx: BulkScope, body: z.output<B>) => BulkEditPlan | Promise<BulkEditPlan>) => ({
  input,
  plan,
});

export const bulkEditPlans = {
  BatchUpdateProductSamePrice: entry(batchUpdateProductSamePriceInput, samePricePlan),
  BatchUpdateProductPrice: entry(batchUpdateProductPriceInput, pricePlan),
  BatchUpdateProductWeight: entry(batchUpdateProductWeightInput, (ctx, body) => weightPlan(ctx, body, "BatchUpdateProductWeight")),
  WebBatchUpdateProductWeight: entry(batchUpdateProductWeightInput, (ctx, body) => weightPlan(ctx, body, "WebBatchUpdateProductWeight")),
  BatchUpdateProductStatus: entry(batchUpdateProductStatusInput, statusPlan),
  BatchUpdateProductCategory: entry(batchUpdateProductCategoryInput, categoryPlan),
  ReplaceKeyword: entry(replaceKeywordInput, replaceKeywordPlan),
  LinkProductLabel: entry(linkProductLabelInput, linkLabelPlan),
  CancelLinkProductLabel: entry(cancelLinkProductLabelInput, cancelLabelPlan),
  AssignProduct: entry(assignProductInput, assignPlan),
  /** DeleteProducts ({ids}) and BatchDeleteProducts (a selection): soft delete, undone like any bulk edit. */
  DeleteProducts: entry(deleteProductsInput, (ctx, body) =>
    softDeletePlan(ctx, "DeleteProducts", selectionWhere(ctx, { ids: body.ids }), body),
  ),
  BatchDeleteProducts: entry(batchDeleteProductsInput, (ctx, body: ProductSelection) =>
    softDeletePlan(ctx, "BatchDeleteProducts", selectionWhere(ctx, body), body),
  ),
};
export type BulkEditKind = keyof typeof bulkEditPlans;
export type BulkEditBody<K extends BulkEditKind> = z.output<(typeof bulkEditPlans)[K]["input"]>;

/** The call's plan for its scope (the body as the call's input reads it). */
export function bulkEditPlan(kind: string, ctx: BulkScope, body: unknown): Promise<BulkEditPlan> | BulkEditPlan {
  const entry = bulkEditPlans[kind as BulkEditKind] as { plan: (c: BulkScope, b: unknown) => Promise<BulkEditPlan> | BulkEditPlan };
  return entry.plan(ctx, body);
}

/** CountProducts: how many visible products the filter matches, exact. */
export async function countProducts(ctx: CallContext, filter: ProductFilter) {
  const [r] = await ctx.tx.select({ n: count() }).from(products).where(productWhere(ctx, filter));
  return { count: Number(r?.n ?? 0) };
}
