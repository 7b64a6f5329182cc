// Who sees which products, and the product filter as SQL: the one place the list, the exact count, every bulk edit
// ("all matching") and the export turn a filter into conditions. Most conditions match an index of the products
// table (partial over live rows; see schema.ts), so a filter stays an index scan at a million products; price and
// weight ranges have none (bulk edits of them stay heap-only, migration 0006) and narrow the other conditions' scan.
import type { SQL } from "drizzle-orm";
import { columnsText, Params, sqlOfText } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { containsPattern } from "../../db/query.ts";
import type { SessionUser } from "../../http/session-user.ts";
import { badRequest } from "../../http/errors.ts";
import type { ProductFilter, ProductSelection } from "#shared/contract/product.ts";

/** Who asks, as far as visibility goes: a call's context, or a bulk edit task's (bulk-tasks.ts). */
export type ProductScope = { tenantId: string; user: Pick<SessionUser, "id" | "isMainAccount" | "isHost"> | null };

/** The products table's columns as SQL text ("products"."tenant_id"). */
export const P = columnsText(products);

/**
 * The live products the caller may see and change, as text over `p`'s parameters: its tenant's for a main account,
 * its own for a sub-account. Live is written as the partial indexes' predicate (a literal), so they serve it.
 */
function visibleProductsText(ctx: ProductScope, p: Params): string {
  const u = ctx.user!;
  const live = `${P.tenantId} = ${p.tenant} and ${P.isDeleted} = false`;
  return u.isMainAccount || u.isHost ? live : `${live} and ${P.userId} = ${p.add(u.id)}`;
}

/** visibleProducts as a drizzle condition. */
export function visibleProducts(ctx: ProductScope): SQL {
  const p = new Params(ctx.tenantId);
  return sqlOfText(visibleProductsText(ctx, p), p.values);
}

/**
 * The filter's conditions (without visibility), as text over `p`'s parameters. Written as text, not drizzle: the
 * product list is the product centre's hottest read, and rendering its filter with drizzle cost the server more CPU
 * per call than the statement cost the database (the listing list's finding, bench/RESULTS.md).
 */
function filterConditionsText(f: Partial<ProductFilter>, p: Params): string[] {
  const c: string[] = [];
  if (f.startTime) c.push(`${P.creationTime} >= ${p.add(f.startTime.toISOString())}`);
  if (f.endTime) c.push(`${P.creationTime} < ${p.add(f.endTime.toISOString())}`);
  if (f.status != null) c.push(`${P.status} = ${p.add(f.status)}`);
  if (f.country) c.push(`${P.country} = ${p.add(f.country.toUpperCase())}`);
  if (f.sku) c.push(`${P.sku} = ${p.add(f.sku)}`);
  if (f.site != null) c.push(`${P.site} = ${p.add(f.site)}`);
  if (f.cateId) c.push(`${P.cateId} = ${p.add(f.cateId)}`);
  if (f.ids?.length) c.push(`${P.id} in (${p.list(f.ids)})`);
  if (f.userId) c.push(`${P.userId} = ${p.add(f.userId)}`);
  // Lower-cased like search_text; the trigram index serves LIKE from three characters on.
  if (f.title) c.push(`${P.searchText} like ${p.add(containsPattern(f.title.toLowerCase()))}`);
  if (f.labelId) c.push(`${P.labelId} = ${p.add(f.labelId)}`);
  if (f.currrency) c.push(`${P.currency} = ${p.add(f.currrency.toUpperCase())}`);
  if (f.minPrice != null) c.push(`${P.price} >= ${p.add(f.minPrice.toFixed(2))}`);
  if (f.maxPrice != null) c.push(`${P.price} <= ${p.add(f.maxPrice.toFixed(2))}`);
  if (f.minWeight != null) c.push(`${P.weight} >= ${p.add(f.minWeight.toFixed(2))}`);
  if (f.maxWeight != null) c.push(`${P.weight} <= ${p.add(f.maxWeight.toFixed(2))}`);
  if (f.sourceIds?.length) c.push(`${P.itemId} in (${p.list(f.sourceIds)})`);
  if (f.platformType != null) c.push(`${P.platformType} = ${p.add(f.platformType)}`);
  if (f.hasInfringement === true) c.push(`${P.infringementWord} is not null`);
  if (f.hasInfringement === false) c.push(`${P.infringementWord} is null`);
  return c;
}

/** Whether the filter narrows anything at all. */
export const filtersAnything = (f: Partial<ProductFilter>) => filterConditionsText(f, new Params("")).length > 0;

/** Visible products matching a filter, as text over `p`'s parameters. */
export function productWhereText(ctx: ProductScope, f: Partial<ProductFilter>, p: Params): string {
  return [visibleProductsText(ctx, p), ...filterConditionsText(f, p)].map((x) => `(${x})`).join(" and ");
}

/** Visible products matching a filter, as a drizzle condition. */
export function productWhere(ctx: ProductScope, f: Partial<ProductFilter>): SQL {
  const p = new Params(ctx.tenantId);
  return sqlOfText(productWhereText(ctx, f, p), p.values);
}

/** Visible products a bulk edit selected: by ids (productIds and/or ids), by the list's filter, or the ids within it. */
export function selectionWhere(ctx: ProductScope, s: ProductSelection): SQL {
  const list = s.productIds || s.ids ? [...new Set([...(s.productIds ?? []), ...(s.ids ?? [])])] : null;
  if (!list && !s.filter) throw badRequest("请选择商品");
  const p = new Params(ctx.tenantId);
  const c = [visibleProductsText(ctx, p)];
  // An empty list selects nothing (as drizzle's inArray of none did).
  if (list) c.push(list.length ? `${P.id} in (${p.list(list)})` : "false");
  if (s.filter) c.push(...filterConditionsText(s.filter, p));
  return sqlOfText(c.map((x) => `(${x})`).join(" and "), p.values);
}
