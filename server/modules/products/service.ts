// The product list, the detail and the editor's saves (spec §7 Product: GetProductsByPage, GetProductById(s),
// CreateOrUpdateProduct, UpdateProductAttr, UpdateProductPrice, CopyProduct). A sub-account works on its own
// products, a main account on its tenant's, the host reads a tenant's list by tenantId; row-level security backs it.
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { Params, rowsOf, textRows, type Tx } from "../../db/client.ts";
import { cappedPageJson, isoText, pagedJsonStatement, sortOfText } from "../../db/query.ts";
import { productCounts, productLabels, products, users } from "../../db/schema.ts";
import { setScope } from "../../db/scope.ts";
import { JsonText, type CallContext } from "../../http/calls.ts";
import { badRequest, businessError, conflict, notFound } from "../../http/errors.ts";
import { ProductStatus } from "#shared/contract/enums.ts";
import {
  PRODUCT_COUNT_CAP,
  type copyProductInput,
  type createOrUpdateProductInput,
  type getProductsByPageInput,
  type ProductDetail,
  type ProductListItem,
  type updateProductAttrInput,
  type updateProductPriceInput,
} from "#shared/contract/product.ts";
import { filtersAnything, P, productWhereText, visibleProducts } from "./filter.ts";
import { rememberCategoryPicks } from "../category-mappings/index.ts";
import { fromVariantModel, toVariantItems, toVariantModel, type StoredOption, type StoredVariant } from "./variants.ts";
import { countProducts } from "./bulk.ts";
import { createProductBulkEdits, type ProductBulkEditDeps } from "./bulk-tasks.ts";
import { editedStatus, getLastProductEdit } from "./edits.ts";
import { createProductExport, type ProductExportDeps } from "./export.ts";
import {
  createOrUpdateProductLabelGroup,
  createOrUpdateProductLabels,
  deleteProductLabel,
  deleteProductLabelGroup,
  getProductLabels,
} from "./labels.ts";
import { predictWeightByTitle } from "./predict-weight.ts";
import { createProductTranslation, type ProductTranslationDeps } from "./translate.ts";

type ProductRow = typeof products.$inferSelect;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The host reads one tenant's products: the transaction's scope moves to that tenant (row-level security follows). */
async function readingContext(ctx: CallContext, tenantId: string | null | undefined): Promise<CallContext> {
  if (!ctx.user!.isHost || !tenantId || tenantId === ctx.tenantId) return ctx;
  await setScope(ctx.tx, { tenantId });
  return { ...ctx, tenantId };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading.

/** A product's list fields (the detail's first part; the list itself is built by PostgreSQL, rowSelect below). */
function toListItem(r: ProductRow, owner: string | null, labelName: string | null): ProductListItem {
  return {
    id: r.id,
    platformType: r.platformType,
    status: r.status,
    country: r.country,
    image: r.image,
    images: r.images as string[],
    sourceUrl: r.sourceUrl,
    currency: r.currency,
    price: r.price,
    title: r.title as Record<string, string>,
    titleText: r.titleText,
    creationTime: r.creationTime.toISOString(),
    owner,
    userId: r.userId,
    labelId: r.labelId,
    labelName,
    infringementWord: r.infringementWord,
    logs: [],
    sku: r.sku,
    weight: r.weight,
    stock: r.stock,
    site: r.site,
    cateId: r.cateId,
  };
}

function toDetail(r: ProductRow, owner: string | null, labelName: string | null): ProductDetail {
  const options = r.options as StoredOption[];
  const variants = r.variants as StoredVariant[];
  const cate = r.cateInfo as ProductDetail["cateInfo"];
  return {
    ...toListItem(r, owner, labelName),
    variants: toVariantItems(options, variants),
    variantModel: toVariantModel(options, variants),
    attributes: r.attributes as { name: string; value: string }[],
    brand: r.brand,
    size: r.size,
    description: r.description as Record<string, string>,
    cateInfo: cate ? { cateId: cate.cateId, site: cate.site, attrs: cate.attrs ?? [] } : null,
    categoryName: r.categoryName,
    lastModificationTime: iso(r.lastModificationTime),
    videoUrl: r.videoUrl,
    profit: r.profit,
    itemId: r.itemId,
    concurrencyStamp: r.concurrencyStamp,
  };
}

/** Products with their owner's and label's names: one query, whatever the number of rows. */
function selectWithNames(tx: Tx) {
  return tx
    .select({ row: products, owner: users.userName, labelName: productLabels.name })
    .from(products)
    .leftJoin(users, and(eq(users.tenantId, products.tenantId), eq(users.id, products.userId)))
    .leftJoin(productLabels, and(eq(productLabels.tenantId, products.tenantId), eq(productLabels.id, products.labelId)));
}

const sortColumns = {
  creationTime: P.creationTime,
  lastModificationTime: P.lastModificationTime,
  price: P.price,
  weight: P.weight,
  stock: P.stock,
  status: P.status,
};
/** The sort columns that may be empty: their products go last whichever the direction. */
const nullable = new Set(
  Object.entries(sortColumns)
    .filter(([k]) => !products[k as keyof typeof sortColumns].notNull)
    .map(([, c]) => c),
);

/**
 * One product's list row as PostgreSQL selects it for row_to_json: the columns named and valued as toListItem makes
 * them (ProductListItem, with its owner's and label's names), so the page needs no row mapping in this process
 * (products.test.ts holds the two equal). Constant, so its text is rendered once.
 */
const rowSelect = new PgDialect().sqlToQuery(sql`select ${products.id} as "id", ${products.platformType} as "platformType",
    ${products.status} as "status", ${products.country} as "country", ${products.image} as "image",
    ${products.images} as "images", ${products.sourceUrl} as "sourceUrl", ${products.currency} as "currency",
    ${products.price}::text as "price", ${products.title} as "title", ${products.titleText} as "titleText",
    ${isoText(products.creationTime)} as "creationTime", ${users.userName} as "owner", ${products.userId} as "userId",
    ${products.labelId} as "labelId", ${productLabels.name} as "labelName", ${products.infringementWord} as "infringementWord",
    '[]'::json as "logs", ${products.sku} as "sku", ${products.weight}::text as "weight", ${products.stock} as "stock",
    ${products.site} as "site", ${products.cateId} as "cateId"
    from ${products}
    left join ${users} on ${users.tenantId} = ${products.tenantId} and ${users.id} = ${products.userId}
    left join ${productLabels} on ${productLabels.tenantId} = ${products.tenantId} and ${productLabels.id} = ${products.labelId}`).sql;

/**
 * GetProductsByPage in one statement, as text (the listing list's pattern): the total and the page's rows as JSON
 * text PostgreSQL builds, sent as the answer without parsing it (JsonText); a request is three round trips (begin
 * with the scope and the session check, this, commit) and no per-row work in this process.
 * - The order: the sort field (products without a value last, whichever the direction), then the id in the same
 *   direction, so pages never overlap; default newest first. "nulls last" only where a column can be empty: on a NOT
 *   NULL column it would stop a backward index scan (which gives DESC NULLS FIRST) from serving the order.
 * - The total is what is listed (the list's own WHERE): the live count kept per owner (product_counts) when the filter
 *   narrows nothing but the owner, else a count that stops at PRODUCT_COUNT_CAP + 1 rows, so a broad filter over a
 *   million products stays an index range of bounded length.
 * - A title search: the planner cannot tell a rare word from a common one and may walk the sort index for a rare one
 *   (the whole tenant); the first matches are read on the trigram index and, when they are all, only they are sorted.
 */
export async function getProductsByPage(ctx: CallContext, body: z.output<typeof getProductsByPageInput>): Promise<JsonText> {
  const c = await readingContext(ctx, body.tenantId);
  const { skipCount, maxResultCount, sorting, ...filter } = body;
  const p = new Params(c.tenantId);
  const where = productWhereText(c, filter, p);
  const { userId, ...rest } = filter;
  let count: string | undefined;
  if (!filtersAnything(rest)) {
    // The owners `where` lets through: a sub-account sees only its own, so another owner's id matches nothing.
    const u = c.user!;
    const visibleOwner = u.isMainAccount || u.isHost ? null : u.id;
    const owner = visibleOwner ?? userId ?? null;
    count =
      visibleOwner && userId && userId !== visibleOwner
        ? "0"
        : `(select coalesce(sum(count), 0) from product_counts where tenant_id = ${p.tenant}${owner ? ` and user_id = ${p.add(owner)}` : ""})`;
  }
  const sort = sortOfText(sorting, sortColumns, "creationTime");
  const statement = pagedJsonStatement({
    table: "products",
    columns: P,
    where,
    sort: { ...sort, nullsLast: nullable.has(sort.column) },
    limit: p.add(maxResultCount),
    offset: p.add(skipCount),
    tenant: p.tenant,
    cap: PRODUCT_COUNT_CAP,
    rowSelect,
    count,
    fewFirst: !!filter.title,
  });
  const [r] = await textRows<{ n: number; items: string }>(c.tx, statement, p.values);
  // The kept count is exact however large: never capped.
  return new JsonText(cappedPageJson(r, count ? Infinity : PRODUCT_COUNT_CAP));
}

async function readDetails(ctx: CallContext, ids: string[]): Promise<ProductDetail[]> {
  if (!ids.length) return [];
  const rows = await selectWithNames(ctx.tx).where(and(visibleProducts(ctx), inArray(products.id, ids)));
  const byId = new Map(rows.map((r) => [r.row.id, toDetail(r.row, r.owner, r.labelName)]));
  return ids.map((i) => byId.get(i)).filter((d): d is ProductDetail => !!d);
}

async function getProductById(ctx: CallContext, id: string): Promise<ProductDetail> {
  const [d] = await readDetails(ctx, [id]);
  if (!d) throw notFound("商品不存在");
  return d;
}

/** The visible ones of the given products, in the order asked (missing ones left out). */
function getProductByIds(ctx: CallContext, ids: string[]): Promise<ProductDetail[]> {
  return readDetails(ctx, [...new Set(ids)]);
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

/**
 * Refuses when an owner would pass its productCount limit (null: no limit). The owner's row is locked first, so two
 * saves cannot pass the limit together; the count is the trigger-kept product_counts row.
 */
async function checkProductLimit(tx: Tx, tenantId: string, userId: string, adding: number): Promise<void> {
  if (adding <= 0) return;
  const [owner] = await tx
    .select({ userName: users.userName, productCount: users.productCount })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .for("update");
  if (!owner) throw notFound("用户不存在");
  if (owner.productCount === null) return;
  const [r] = await tx
    .select({ n: productCounts.count })
    .from(productCounts)
    .where(and(eq(productCounts.tenantId, tenantId), eq(productCounts.userId, userId)));
  const have = r?.n ?? 0;
  if (have + adding > owner.productCount) {
    throw businessError(`${owner.userName} 的产品数量将超过上限（${owner.productCount} 个，已有 ${have} 个）`, "Product.LimitReached");
  }
}

async function checkLabel(ctx: CallContext, labelId: string | null | undefined) {
  if (!labelId) return;
  const [l] = await ctx.tx
    .select({ id: productLabels.id })
    .from(productLabels)
    .where(and(eq(productLabels.tenantId, ctx.tenantId), eq(productLabels.id, labelId)));
  if (!l) throw notFound("标签不存在");
}

const fixed = (n: number | null | undefined) => (n === null || n === undefined ? null : n.toFixed(2));

/** The lowest variant price, and the variants' total stock, for a product saved with variants. */
function fromVariants(variants: StoredVariant[]) {
  const prices = variants.map((v) => (v.price == null ? NaN : Number(v.price))).filter((n) => Number.isFinite(n) && n >= 0);
  const stocks = variants.map((v) => v.stock).filter((s): s is number => typeof s === "number");
  return {
    price: prices.length ? Math.min(...prices) : null,
    stock: stocks.length ? stocks.reduce((a, b) => a + b, 0) : null,
  };
}

async function createOrUpdateProduct(ctx: CallContext, body: z.output<typeof createOrUpdateProductInput>): Promise<ProductDetail> {
  const u = ctx.user!;
  if (u.isHost) throw businessError("平台管理员不能编辑商品");
  await checkLabel(ctx, body.labelId);
  const now = new Date();
  let before: ProductRow | null = null;
  if (body.id) {
    [before] = await ctx.tx
      .select()
      .from(products)
      .where(and(visibleProducts(ctx), eq(products.id, body.id)))
      .for("update");
    if (!before) throw notFound("商品不存在");
    if (body.concurrencyStamp && body.concurrencyStamp !== before.concurrencyStamp) throw conflict();
  }

  const values: Partial<typeof products.$inferInsert> = {};
  const set = <K extends keyof typeof products.$inferInsert>(k: K, v: (typeof products.$inferInsert)[K] | undefined) => {
    if (v !== undefined) values[k] = v;
  };
  set("title", body.title);
  set("description", body.description);
  set("sku", body.sku);
  set("price", body.price === undefined ? undefined : fixed(body.price));
  set("currency", body.currency);
  set("stock", body.stock);
  set("brand", body.brand);
  set("size", body.size);
  set("weight", body.weight === undefined ? undefined : fixed(body.weight));
  set("videoUrl", body.videoUrl);
  set("profit", body.profit === undefined ? undefined : fixed(body.profit));
  set("images", body.images);
  set("image", body.image === undefined ? (body.images ? (body.images[0] ?? null) : undefined) : body.image);
  set("country", body.country === undefined ? undefined : (body.country?.toUpperCase() ?? null));
  set("sourceUrl", body.sourceUrl);
  set("platformType", body.platformType);
  set("status", body.status);
  set("labelId", body.labelId);
  set("attributes", body.attributes);
  set("categoryName", body.categoryName);
  if (body.cateInfo !== undefined) {
    values.cateInfo = body.cateInfo;
    values.cateId = body.cateInfo?.cateId ?? null;
    values.site = body.cateInfo?.site ?? null;
  }
  if (body.variantModel) {
    const old = { options: (before?.options ?? []) as StoredOption[], variants: (before?.variants ?? []) as StoredVariant[] };
    const { options, variants } = fromVariantModel(body.variantModel, old, body.sku ?? before?.sku ?? before?.itemId ?? "SKU");
    values.options = options;
    values.variants = variants;
    const derived = fromVariants(variants);
    if (body.price === undefined && derived.price !== null) values.price = fixed(derived.price);
    if (body.stock === undefined && derived.stock !== null) values.stock = derived.stock;
  }

  if (!before) {
    if (!body.title || !Object.values(body.title).some((t) => t.trim())) {
      throw badRequest("请输入商品标题", undefined, [{ message: "请输入商品标题", members: ["title"] }]);
    }
    await checkProductLimit(ctx.tx, ctx.tenantId, u.id, 1);
    const id = randomUUID();
    await ctx.tx.insert(products).values({
      ...values,
      tenantId: ctx.tenantId,
      id,
      userId: u.id,
      title: body.title,
      status: body.status ?? ProductStatus.Unedited,
      creationTime: now,
      creatorId: u.id,
    });
    return getProductById(ctx, id);
  }
  // A first save in the editor marks an unedited product ready to publish.
  if (body.status === undefined && before.status === ProductStatus.Unedited) values.status = ProductStatus.Ready;
  await ctx.tx
    .update(products)
    .set({ ...values, lastModificationTime: now, lastModifierId: u.id, concurrencyStamp: randomUUID() })
    .where(and(eq(products.tenantId, ctx.tenantId), eq(products.id, before.id)));
  // The seller's pick of a category is remembered against the product's source category (类目映射).
  const picked = body.cateInfo;
  if (picked?.cateId && picked.cateId !== before.cateId) {
    await rememberCategoryPicks(ctx.tx, ctx.tenantId, [{ productId: before.id, site: picked.site, cateId: picked.cateId }]);
  }
  return getProductById(ctx, before.id);
}

/** UpdateProductAttr: the category attributes of one product (its category must be set). */
async function updateProductAttr(ctx: CallContext, body: z.output<typeof updateProductAttrInput>): Promise<ProductDetail> {
  const [p] = await ctx.tx
    .select({ id: products.id, cateInfo: products.cateInfo })
    .from(products)
    .where(and(visibleProducts(ctx), eq(products.id, body.productId)))
    .for("update");
  if (!p) throw notFound("商品不存在");
  const cate = p.cateInfo as { cateId: string; site: number } | null;
  if (!cate) throw badRequest("请先选择商品类目", undefined, [{ message: "请先选择商品类目", members: ["productId"] }]);
  await ctx.tx
    .update(products)
    .set({
      cateInfo: { ...cate, attrs: body.attrs },
      status: editedStatus(sql`${products.status}`),
      lastModificationTime: new Date(),
      lastModifierId: ctx.user!.id,
      concurrencyStamp: randomUUID(),
    })
    .where(and(eq(products.tenantId, ctx.tenantId), eq(products.id, p.id)));
  return getProductById(ctx, p.id);
}

/**
 * UpdateProductPrice: one product's price and currency. Variant prices keep their proportion to the product price
 * (all set to the new price when the old one was 0 or unknown). One update statement.
 */
async function updateProductPrice(ctx: CallContext, body: z.output<typeof updateProductPriceInput>): Promise<ProductDetail> {
  const newPrice = body.price.toFixed(2);
  const ratio = sql`case when p.price is null or p.price = 0 then null else ${newPrice}::numeric / p.price end`;
  const result = await ctx.tx.execute(sql`update products p set
      price = ${newPrice}::numeric,
      currency = coalesce(${body.cur ?? null}::text, p.currency),
      variants = (select coalesce(jsonb_agg(case when x.v ? 'price'
          then jsonb_set(x.v, '{price}', to_jsonb(round(coalesce((x.v->>'price')::numeric * ${ratio}, ${newPrice}::numeric), 2)))
          else x.v end order by x.n), '[]'::jsonb)
        from jsonb_array_elements(p.variants) with ordinality as x(v, n)),
      status = ${editedStatus(sql`p.status`)},
      last_modification_time = now(), last_modifier_id = ${ctx.user!.id}, concurrency_stamp = gen_random_uuid()::text
    where ${visibleProductsRaw(ctx)} and p.id = ${body.productId}
    returning p.id`);
  if (!rowsOf(result).length) throw notFound("商品不存在");
  return getProductById(ctx, body.productId);
}

/** visibleProducts for raw SQL over `products p`. */
function visibleProductsRaw(ctx: CallContext): SQL {
  const u = ctx.user!;
  const own = u.isMainAccount || u.isHost ? sql`` : sql` and p.user_id = ${u.id}`;
  return sql`p.tenant_id = ${ctx.tenantId} and p.is_deleted = false${own}`;
}

/**
 * CopyProduct: each product copied as a new, unedited product of the caller (within its productCount limit), with
 * its titles, descriptions, prices, variants and category; the copy is not linked to the collection it came from.
 * One insert … select.
 */
async function copyProduct(ctx: CallContext, body: z.output<typeof copyProductInput>) {
  const u = ctx.user!;
  const unique = [...new Set(body.productIds)];
  const visible = await ctx.tx
    .select({ id: products.id })
    .from(products)
    .where(and(visibleProducts(ctx), inArray(products.id, unique)));
  if (!visible.length) throw notFound("商品不存在");
  await checkProductLimit(ctx.tx, ctx.tenantId, u.id, visible.length);
  const pairs = visible.map((v) => ({ from: v.id, to: randomUUID() }));
  const mapping = sql.join(
    pairs.map((p) => sql`(${p.from}::uuid, ${p.to}::uuid)`),
    sql`, `,
  );
  await ctx.tx.execute(sql`insert into products (tenant_id, id, user_id, platform_type, source_url, item_id, sku, title,
      image, images, price, currency, weight, size, stock, brand, country, video_url, profit, description, attributes,
      options, variants, site, cate_id, cate_info, category_name, label_id, status, infringement_word, creation_time,
      creator_id)
    select p.tenant_id, m.to_id, ${u.id}, p.platform_type, p.source_url, p.item_id, p.sku, p.title, p.image, p.images,
      p.price, p.currency, p.weight, p.size, p.stock, p.brand, p.country, p.video_url, p.profit, p.description,
      p.attributes, p.options, p.variants, p.site, p.cate_id, p.cate_info, p.category_name, p.label_id,
      ${ProductStatus.Unedited}, p.infringement_word, now(), ${u.id}
    from (values ${mapping}) as m(from_id, to_id)
    join products p on p.tenant_id = ${ctx.tenantId} and p.id = m.from_id`);
  const order = new Map(unique.map((id, i) => [id, i]));
  pairs.sort((a, b) => order.get(a.from)! - order.get(b.from)!);
  return { count: pairs.length, productIds: pairs.map((p) => p.to) };
}

/** The product centre: products, bulk edits and their undo, labels, weight prediction, export and translation jobs. */
export function createProductService(deps: ProductExportDeps & ProductTranslationDeps & ProductBulkEditDeps) {
  const bulkEdits = createProductBulkEdits(deps);
  const exports = createProductExport(deps);
  const translation = createProductTranslation(deps);
  return {
    getProductsByPage,
    getProductById,
    getProductByIds,
    /** Refuses adding products past the owner's limit (other areas that add products ask it: deps.ts hands it over). */
    checkProductLimit,
    createOrUpdateProduct,
    updateProductAttr,
    updateProductPrice,
    copyProduct,
    // The bulk calls and UndoProductEdit: in the call, or as a task over a large selection.
    ...bulkEdits,
    countProducts,
    getLastProductEdit,
    getProductLabels,
    createOrUpdateProductLabels,
    deleteProductLabel,
    createOrUpdateProductLabelGroup,
    deleteProductLabelGroup,
    predictWeightByTitle,
    ...exports,
    ...translation,
    workers: [...bulkEdits.workers, ...exports.workers, ...translation.workers],
  };
}

export type ProductService = ReturnType<typeof createProductService>;
