// Who sees which products, and the product filter as SQL: the one place the list, the exact count, every bulk edit
// ("all matching") and the export turn a filter into conditions. Most conditions match an index of the products
// table (partial over live rows; see schema.ts), so a filter stays an index scan at a million products; price and
// weight ranges have none (bulk edits of them stay heap-only, migration 0006) and narrow the other conditions' scan.
import { and, eq, gte, inArray, isNotNull, isNull, lt, lte, sql, type SQL } from "drizzle-orm";
import { products } from "../../db/schema.ts";
import { containsPattern } from "../../db/query.ts";
import type { SessionUser } from "../identity/session-user.ts";
import { badRequest } from "../../http/errors.ts";
import type { ProductFilter, ProductSelection } from "../../../shared/contract/product.ts";

/** Who asks, as far as visibility goes: a call's context, or a bulk edit task's (bulk-tasks.ts). */
export type ProductScope = { tenantId: string; user: Pick<SessionUser, "id" | "isMainAccount" | "isHost"> | null };

/** The live products the caller may see and change: its tenant's for a main account, its own for a sub-account. */
export function visibleProducts(ctx: ProductScope): SQL {
  const u = ctx.user!;
  const live = and(eq(products.tenantId, ctx.tenantId), eq(products.isDeleted, false))!;
  return u.isMainAccount || u.isHost ? live : and(live, eq(products.userId, u.id))!;
}

/** The filter's conditions (without visibility). */
export function filterConditions(f: Partial<ProductFilter>): SQL[] {
  const c: SQL[] = [];
  if (f.startTime) c.push(gte(products.creationTime, f.startTime));
  if (f.endTime) c.push(lt(products.creationTime, f.endTime));
  if (f.status != null) c.push(eq(products.status, f.status));
  if (f.country) c.push(eq(products.country, f.country.toUpperCase()));
  if (f.sku) c.push(eq(products.sku, f.sku));
  if (f.site != null) c.push(eq(products.site, f.site));
  if (f.cateId) c.push(eq(products.cateId, f.cateId));
  if (f.ids?.length) c.push(inArray(products.id, f.ids));
  if (f.userId) c.push(eq(products.userId, f.userId));
  // Lower-cased like search_text; the trigram index serves LIKE from three characters on.
  if (f.title) c.push(sql`${products.searchText} like ${containsPattern(f.title.toLowerCase())}`);
  if (f.labelId) c.push(eq(products.labelId, f.labelId));
  if (f.currrency) c.push(eq(products.currency, f.currrency.toUpperCase()));
  if (f.minPrice != null) c.push(gte(products.price, f.minPrice.toFixed(2)));
  if (f.maxPrice != null) c.push(lte(products.price, f.maxPrice.toFixed(2)));
  if (f.minWeight != null) c.push(gte(products.weight, f.minWeight.toFixed(2)));
  if (f.maxWeight != null) c.push(lte(products.weight, f.maxWeight.toFixed(2)));
  if (f.sourceIds?.length) c.push(inArray(products.itemId, f.sourceIds));
  if (f.platformType != null) c.push(eq(products.platformType, f.platformType));
  if (f.hasInfringement === true) c.push(isNotNull(products.infringementWord));
  if (f.hasInfringement === false) c.push(isNull(products.infringementWord));
  return c;
}

/** Visible products matching a filter. */
export function productWhere(ctx: ProductScope, f: Partial<ProductFilter>): SQL {
  return and(visibleProducts(ctx), ...filterConditions(f))!;
}

/** Visible products a bulk edit selected: by ids (productIds and/or ids), by the list's filter, or the ids within it. */
export function selectionWhere(ctx: ProductScope, s: ProductSelection): SQL {
  const list = s.productIds || s.ids ? [...new Set([...(s.productIds ?? []), ...(s.ids ?? [])])] : null;
  if (!list && !s.filter) throw badRequest("请选择商品");
  return and(visibleProducts(ctx), list ? inArray(products.id, list) : undefined, ...(s.filter ? filterConditions(s.filter) : []))!;
}
