// Collected products (spec §7 Collect): the extension's collect, the list and its filters, edits, batch status and
// delete, the crawled-sku check, the collect settings, the infringement rule and screening, and the move to products.
// A sub-account works on its own collections, a main account on its tenant's; row-level security backs the tenant.
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { columnsText, Params, rowsOf, textRows, type Tx } from "../../db/client.ts";
import { collectConfigs, collections, infringementRuleSettings, products, SETTINGS_PROFILE, users } from "../../db/schema.ts";
import { cappedPageJson, containsPattern, isoText, pagedJsonStatement, sortOfText } from "../../db/query.ts";
import { JsonText, type CallContext } from "../../http/calls.ts";
import { badRequest, conflict, notFound } from "../../http/errors.ts";
import {
  COLLECT_COUNT_CAP,
  platformTypeOf,
  type batchUpdateCollectStatusInput,
  type CollectDetail,
  type CollectedProduct,
  type CollectListItem,
  type getCollectInput,
  type getCrawledSkusInput,
  type updateCollectConfigInput,
  type updateCollectInput,
  type updateInfringementRuleSettingInput,
} from "#shared/contract/collect.ts";
import { CollectSource, CollectStatus, ProductStatus } from "#shared/contract/enums.ts";
import type { ProductService } from "../products/index.ts";
import { mainText, readCollectConfig, readInfringementRule, storeCollection, wordMatch } from "./store.ts";
import { createCrawler, type CrawlerDeps } from "./crawler.ts";
import { createUrlQueue } from "./urls.ts";

type CollectionRow = typeof collections.$inferSelect;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The rows the caller may see: its tenant's for a main account, its own for a sub-account. */
function ownedBy(ctx: CallContext): SQL {
  const u = ctx.user!;
  const tenant = eq(collections.tenantId, u.tenantId);
  return u.isMainAccount ? tenant : and(tenant, eq(collections.userId, u.id))!;
}

/** The extractor's incomplete fields kept in extractInfo (rows stored before it had them have none). */
function incompleteFieldsOf(info: unknown): string[] {
  const list = (info as { incompleteFields?: unknown } | null)?.incompleteFields;
  return Array.isArray(list) ? list.filter((f): f is string => typeof f === "string") : [];
}

function toListItem(r: CollectionRow, owner: string | null): CollectListItem {
  return {
    id: r.id,
    platformType: r.platformType,
    status: r.status,
    country: r.country,
    image: r.image,
    images: (r.images as string[]) ?? [],
    sourceUrl: r.sourceUrl,
    currency: r.currency,
    price: r.price,
    priceMax: r.priceMax,
    title: (r.title as Record<string, string>) ?? {},
    creationTime: r.creationTime.toISOString(),
    owner,
    userId: r.userId,
    labelId: r.labelId,
    labelName: null,
    infringementWord: r.infringementWord,
    incompleteFields: incompleteFieldsOf(r.extractInfo),
    logs: [],
    sku: r.itemId,
  };
}

type StoredVariant = {
  sku: string;
  optionValues?: string[];
  price?: number | null;
  originalPrice?: number | null;
  discountPrice?: number | null;
  stock?: number | null;
  image?: string | null;
  weightG?: number | null;
};

function toDetail(r: CollectionRow, owner: string | null): CollectDetail {
  const options = (r.options as { name: string; values: { id: string; name: string; image?: string }[] }[]) ?? [];
  const keys = options.map((o) => o.name);
  const variants = ((r.variants as StoredVariant[]) ?? []).map((v) => {
    const ids = v.optionValues ?? [];
    const values = ids.map((id, i) => options[i]?.values.find((x) => x.id === id)?.name ?? id);
    return {
      sku: v.sku,
      price: v.price === null || v.price === undefined ? null : Number(v.price).toFixed(2),
      originalPrice: v.originalPrice === null || v.originalPrice === undefined ? null : Number(v.originalPrice).toFixed(2),
      discountPrice: v.discountPrice === null || v.discountPrice === undefined ? null : Number(v.discountPrice).toFixed(2),
      stock: v.stock ?? null,
      images: v.image ? [v.image] : [],
      variant_Key: keys.slice(0, values.length),
      variant_Values: values,
      weight: v.weightG ?? null,
    };
  });
  return {
    ...toListItem(r, owner),
    itemId: r.itemId,
    variants,
    options,
    attributes: (r.attributes as { name: string; value: string }[]) ?? [],
    stock: r.stock,
    brand: r.brand,
    size: r.size,
    weight: r.weight,
    description: (r.description as Record<string, string>) ?? {},
    descriptionUrl: r.descriptionUrl,
    lastModificationTime: iso(r.lastModificationTime),
    videoUrl: r.videoUrl,
    shop: (r.shop as CollectDetail["shop"]) ?? null,
    isDiscountPrice: r.isDiscountPrice,
    source: r.source,
    extractInfo: (r.extractInfo as Record<string, unknown>) ?? {},
    concurrencyStamp: r.concurrencyStamp,
  };
}

async function crawlProductByPlugin(ctx: CallContext, body: CollectedProduct) {
  const u = ctx.user!;
  return storeCollection(ctx.tx, { tenantId: u.tenantId, userId: u.id }, body, { source: CollectSource.Plugin });
}

/** The collections table's columns as SQL text ("collections"."tenant_id"). */
const C = columnsText(collections);

const sortColumns = {
  creationTime: C.creationTime,
  lastModificationTime: C.lastModificationTime,
  price: C.price,
  status: C.status,
  platformType: C.platformType,
};

/**
 * One collection's list row as PostgreSQL selects it for row_to_json: the columns named and valued as toListItem makes
 * them (CollectListItem), so the page needs no row mapping in this process (collects.test.ts holds the two equal).
 * Constant, so its text is rendered once.
 */
const rowSelect = new PgDialect().sqlToQuery(sql`select ${collections.id} as "id", ${collections.platformType} as "platformType",
    ${collections.status} as "status", ${collections.country} as "country", ${collections.image} as "image",
    coalesce(${collections.images}, '[]'::jsonb) as "images", ${collections.sourceUrl} as "sourceUrl",
    ${collections.currency} as "currency", ${collections.price}::text as "price", ${collections.priceMax}::text as "priceMax",
    coalesce(${collections.title}, '{}'::jsonb) as "title", ${isoText(collections.creationTime)} as "creationTime",
    ${users.userName} as "owner", ${collections.userId} as "userId", ${collections.labelId} as "labelId",
    null::text as "labelName", ${collections.infringementWord} as "infringementWord",
    coalesce((select jsonb_agg(x.f order by x.n) from jsonb_array_elements(case
        when jsonb_typeof(${collections.extractInfo} -> 'incompleteFields') = 'array' then ${collections.extractInfo} -> 'incompleteFields' end)
        with ordinality as x(f, n) where jsonb_typeof(x.f) = 'string'), '[]'::jsonb) as "incompleteFields",
    '[]'::json as "logs", ${collections.itemId} as "sku"
    from ${collections}
    left join ${users} on ${users.tenantId} = ${collections.tenantId} and ${users.id} = ${collections.userId}`).sql;

/**
 * The WHERE of the collections the caller sees matching the list's filter, as text over `p`'s parameters (its
 * tenant's for a main account, its own for a sub-account, as ownedBy). Text, as the product list's: rendering it
 * with drizzle cost the server more CPU per call than the statement cost the database.
 */
function collectWhereText(ctx: CallContext, q: Partial<z.output<typeof getCollectInput>>, p: Params): string {
  const u = ctx.user!;
  const c = [`${C.tenantId} = ${p.tenant}`];
  if (!u.isMainAccount) c.push(`${C.userId} = ${p.add(u.id)}`);
  if (q.userId) c.push(`${C.userId} = ${p.add(q.userId)}`);
  if (q.status != null) c.push(`${C.status} = ${p.add(q.status)}`);
  if (q.platformType != null) c.push(`${C.platformType} = ${p.add(q.platformType)}`);
  if (q.sku) c.push(`${C.itemId} = ${p.add(q.sku)}`);
  if (q.title) c.push(`${C.titleText} ilike ${p.add(containsPattern(q.title))}`);
  if (q.ids?.length) c.push(`${C.id} in (${p.list(q.ids)})`);
  if (q.currrency) c.push(`${C.currency} = ${p.add(q.currrency.toUpperCase())}`);
  if (q.minPrice != null) c.push(`${C.price} >= ${p.add(q.minPrice.toFixed(2))}`);
  if (q.maxPrice != null) c.push(`${C.price} <= ${p.add(q.maxPrice.toFixed(2))}`);
  if (q.startDate) c.push(`${C.creationTime} >= ${p.add(q.startDate.toISOString())}`);
  if (q.endDate) c.push(`${C.creationTime} <= ${p.add(q.endDate.toISOString())}`);
  if (q.hasInfringement === true) c.push(`${C.infringementWord} is not null`);
  if (q.hasInfringement === false) c.push(`${C.infringementWord} is null`);
  return c.map((x) => `(${x})`).join(" and ");
}

/**
 * Whether the count of the filter's rows is one range of one index, read without the table (an index-only count) or
 * a few rows by construction: no filter but dates, the owner (a sub-account's own, or userId) or the status, on
 * (tenant[, user | status], creation time); a sku (its index, a few rows) or ids (up to a page). Any other filter the
 * index cannot answer, so an exact count reads every row of the tenant that the indexed part lets through.
 */
function countsExactly(ctx: CallContext, q: Partial<z.output<typeof getCollectInput>>): boolean {
  if (q.sku || q.ids?.length) return true;
  if (q.title || q.platformType != null || q.currrency || q.minPrice != null || q.maxPrice != null || q.hasInfringement != null) {
    return false;
  }
  const byOwner = !ctx.user!.isMainAccount || !!q.userId;
  return !(byOwner && q.status != null);
}

/**
 * GetCollect in one statement (the product list's pattern): the count and the page's rows as JSON text PostgreSQL
 * builds, sent as the answer without parsing it (JsonText). The order: the sort field, then the newest first, then
 * the id in the sort's direction (pages never overlap); default newest first.
 * - The count is exact where it is an index-only range (countsExactly); under any other filter it stops at
 *   COLLECT_COUNT_CAP + 1 rows (totalCountCapped), so a broad filter over a million collections stays bounded.
 * - A title search reads its first matches on the trigram index (fewFirst, as the product list): when they are all,
 *   only they are sorted and counted; a common word's page walks the sort index.
 */
export async function getCollect(ctx: CallContext, q: z.output<typeof getCollectInput>): Promise<JsonText> {
  if (q.startDate && q.endDate && q.startDate > q.endDate) throw badRequest("开始时间不能晚于结束时间");
  if (q.minPrice != null && q.maxPrice != null && q.minPrice > q.maxPrice) throw badRequest("最低价不能高于最高价");
  const { skipCount, maxResultCount, sorting, ...filter } = q;
  const p = new Params(ctx.user!.tenantId!);
  const where = collectWhereText(ctx, filter, p);
  const exact = countsExactly(ctx, filter);
  const sort = sortOfText(sorting, sortColumns, "creationTime");
  const statement = pagedJsonStatement({
    table: "collections",
    columns: C,
    where,
    sort: { ...sort, then: sort.column === C.creationTime ? [] : [{ column: C.creationTime, dir: "desc" }] },
    limit: p.add(maxResultCount),
    offset: p.add(skipCount),
    tenant: p.tenant,
    cap: COLLECT_COUNT_CAP,
    rowSelect,
    count: exact ? `(select count(*) from collections where ${where})` : undefined,
    fewFirst: !!filter.title,
  });
  const [r] = await textRows<{ n: number; items: string }>(ctx.tx, statement, p.values);
  return new JsonText(cappedPageJson(r, exact ? Infinity : COLLECT_COUNT_CAP));
}

async function findOwned(ctx: CallContext, id: string): Promise<{ c: CollectionRow; owner: string | null }> {
  const [row] = await ctx.tx
    .select({ c: collections, owner: users.userName })
    .from(collections)
    .leftJoin(users, and(eq(users.tenantId, collections.tenantId), eq(users.id, collections.userId)))
    .where(and(ownedBy(ctx), eq(collections.id, id)));
  if (!row) throw notFound("采集商品不存在");
  return row;
}

async function getCollectById(ctx: CallContext, id: string): Promise<CollectDetail> {
  const row = await findOwned(ctx, id);
  return toDetail(row.c, row.owner);
}

async function updateCollect(ctx: CallContext, body: z.output<typeof updateCollectInput>): Promise<CollectDetail> {
  const { c: row } = await findOwned(ctx, body.id);
  if (body.concurrencyStamp && body.concurrencyStamp !== row.concurrencyStamp) throw conflict();
  const change: Partial<typeof collections.$inferInsert> = {};
  if (body.title !== undefined) {
    const text = mainText(body.title);
    if (!text) throw badRequest("标题不能为空");
    change.title = body.title;
    change.titleText = text;
  }
  if (body.price !== undefined) change.price = body.price === null ? null : body.price.toFixed(2);
  if (body.currency !== undefined) change.currency = body.currency?.toUpperCase() ?? null;
  if (body.images !== undefined) {
    change.images = body.images;
    change.image = body.images[0] ?? null;
  }
  if (body.description !== undefined) change.description = body.description;
  if (body.weight !== undefined) change.weight = body.weight === null ? null : body.weight.toFixed(2);
  if (body.size !== undefined) change.size = body.size;
  if (body.stock !== undefined) change.stock = body.stock;
  if (body.brand !== undefined) change.brand = body.brand;
  if (body.status !== undefined) change.status = body.status;
  if (body.attributes !== undefined) change.attributes = body.attributes;
  if (body.variants !== undefined) change.variants = body.variants;
  // The stamp in the condition too: a concurrent edit between the read and this write is a 409, not a lost update.
  const updated = await ctx.tx
    .update(collections)
    .set({ ...change, lastModificationTime: new Date(), lastModifierId: ctx.user!.id, concurrencyStamp: randomUUID() })
    .where(and(eq(collections.tenantId, row.tenantId), eq(collections.id, row.id), eq(collections.concurrencyStamp, row.concurrencyStamp)))
    .returning({ id: collections.id });
  if (!updated.length) throw conflict();
  return getCollectById(ctx, row.id);
}

async function deleteCollect(ctx: CallContext, id: string): Promise<void> {
  const rows = await ctx.tx
    .delete(collections)
    .where(and(ownedBy(ctx), eq(collections.id, id)))
    .returning({ id: collections.id });
  if (!rows.length) throw notFound("采集商品不存在");
}

async function batchDeleteCollects(ctx: CallContext, ids: string[]) {
  const rows = await ctx.tx
    .delete(collections)
    .where(and(ownedBy(ctx), inArray(collections.id, ids)))
    .returning({ id: collections.id });
  return { count: rows.length };
}

async function batchUpdateCollectStatus(ctx: CallContext, body: z.output<typeof batchUpdateCollectStatusInput>) {
  const rows = await ctx.tx
    .update(collections)
    .set({
      status: body.status,
      lastModificationTime: new Date(),
      lastModifierId: ctx.user!.id,
      concurrencyStamp: sql`gen_random_uuid()::text`,
    })
    .where(and(ownedBy(ctx), inArray(collections.id, body.ids)))
    .returning({ id: collections.id });
  return { count: rows.length };
}

/** Which of the given source item ids the caller has collected (the extension marks them on sight). */
async function getCrawledSkus(ctx: CallContext, body: z.output<typeof getCrawledSkusInput>): Promise<string[]> {
  if (!body.skus.length) return [];
  const u = ctx.user!;
  const c: SQL[] = [
    eq(collections.tenantId, u.tenantId),
    eq(collections.userId, u.id),
    inArray(collections.itemId, [...new Set(body.skus)]),
  ];
  const platformType = body.platformType ?? (body.platform ? platformTypeOf(body.platform) : null);
  if (platformType != null) c.push(eq(collections.platformType, platformType));
  const rows = await ctx.tx
    .selectDistinct({ sku: collections.itemId })
    .from(collections)
    .where(and(...c));
  return rows.map((r) => r.sku).sort();
}

// ---------------------------------------------------------------------------------------------------------------
// Settings.

const getCollectConfig = (ctx: CallContext) => readCollectConfig(ctx.tx, ctx.user!.tenantId);

async function updateCollectConfig(ctx: CallContext, body: z.output<typeof updateCollectConfigInput>) {
  const tenantId = ctx.user!.tenantId;
  const current = await readCollectConfig(ctx.tx, tenantId);
  const next = {
    isDiscountPrice: body.isDiscountPrice ?? current.isDiscountPrice,
    maxImageCount: body.maxImageCount ?? current.maxImageCount,
    maxVariantCount: body.maxVariantCount ?? current.maxVariantCount,
    isCollectDescription: body.isCollectDescription ?? current.isCollectDescription,
    isCollectVideo: body.isCollectVideo ?? current.isCollectVideo,
    lastModificationTime: new Date(),
    lastModifierId: ctx.user!.id,
  };
  await ctx.tx
    .insert(collectConfigs)
    .values({ tenantId, profile: SETTINGS_PROFILE, ...next })
    .onConflictDoUpdate({ target: [collectConfigs.tenantId, collectConfigs.profile], set: next });
  return readCollectConfig(ctx.tx, tenantId);
}

const getInfringementRuleSetting = (ctx: CallContext) => readInfringementRule(ctx.tx, ctx.user!.tenantId);

async function updateInfringementRuleSetting(ctx: CallContext, body: z.output<typeof updateInfringementRuleSettingInput>) {
  const tenantId = ctx.user!.tenantId;
  const set = {
    isAllowCollected: body.isAllowCollected,
    infringementRuleType: body.infringementRuleType,
    lastModificationTime: new Date(),
    lastModifierId: ctx.user!.id,
  };
  await ctx.tx
    .insert(infringementRuleSettings)
    .values({ tenantId, id: randomUUID(), profile: SETTINGS_PROFILE, ...set })
    .onConflictDoUpdate({ target: [infringementRuleSettings.tenantId, infringementRuleSettings.profile], set });
  return readInfringementRule(ctx.tx, tenantId);
}

/**
 * Checks the given collections' titles (every language) against the tenant's infringement words with the tenant's
 * rule, in one statement: the first (longest) word found is stored, or the flag is cleared.
 */
async function screeningforInfringement(ctx: CallContext, ids: string[]) {
  const u = ctx.user!;
  const rule = await readInfringementRule(ctx.tx, u.tenantId);
  const titles = sql`lower((select coalesce(string_agg(value, ' '), '') from jsonb_each_text(c.title)))`;
  const owner = u.isMainAccount ? sql`` : sql` and c.user_id = ${u.id}`;
  const rows = rowsOf<{ id: string; word: string | null }>(
    await ctx.tx.execute(sql`update collections c set infringement_word = (
        select w.word from infringement_words w
        where w.tenant_id = c.tenant_id and ${wordMatch(rule.infringementRuleType, titles, sql`w.normalized_word`)}
        order by length(w.word) desc, w.word limit 1),
      last_modification_time = now(), last_modifier_id = ${u.id}
      where c.tenant_id = ${u.tenantId}${owner} and c.id in (${sql.join(
        ids.map((i) => sql`${i}::uuid`),
        sql`, `,
      )})
      returning c.id, c.infringement_word as word`),
  );
  return { count: rows.length, flagged: rows.filter((r) => r.word !== null).length };
}

// ---------------------------------------------------------------------------------------------------------------
// Moving collections to the products.

/**
 * Creates a product from each given collection (not from one already moved: a product from it exists and is not
 * deleted), owned by the collection's owner, within each owner's productCount limit; the collections become Migrated.
 * One insert … select, one status update.
 */
async function migrateToProduct(productLimit: ProductLimit, ctx: CallContext, ids: string[]) {
  const u = ctx.user!;
  const tx = ctx.tx;
  const unique = [...new Set(ids)];
  const visible = await tx
    .select({ id: collections.id, userId: collections.userId })
    .from(collections)
    .where(and(ownedBy(ctx), inArray(collections.id, unique)));
  if (!visible.length) throw notFound("采集商品不存在");
  const moved = await tx
    .select({ id: products.sourceCollectionId })
    .from(products)
    .where(
      and(
        eq(products.tenantId, u.tenantId),
        eq(products.isDeleted, false),
        inArray(
          products.sourceCollectionId,
          visible.map((v) => v.id),
        ),
      ),
    );
  const already = new Set(moved.map((m) => m.id));
  const toMigrate = visible.filter((v) => !already.has(v.id));
  await checkProductLimits(productLimit, tx, u.tenantId, toMigrate);
  const productIds: string[] = [];
  if (toMigrate.length) {
    const pairs = toMigrate.map((t) => {
      const pid = randomUUID();
      productIds.push(pid);
      return sql`(${t.id}::uuid, ${pid}::uuid)`;
    });
    await tx.execute(sql`insert into products (tenant_id, id, user_id, source_collection_id, platform_type, source_url, item_id,
        title, image, images, price, currency, weight, size, stock, brand, country, video_url, description, attributes,
        options, variants, source_category, status, infringement_word, creation_time, creator_id)
      select c.tenant_id, m.pid, c.user_id, c.id, c.platform_type, c.source_url, c.item_id, c.title, c.image, c.images,
        c.price, c.currency, c.weight, c.size, c.stock, c.brand, c.country, c.video_url, c.description, c.attributes,
        c.options, c.variants, c.source_category, ${ProductStatus.Unedited}, c.infringement_word, now(), ${u.id}
      from (values ${sql.join(pairs, sql`, `)}) as m(cid, pid)
      join collections c on c.tenant_id = ${u.tenantId} and c.id = m.cid`);
    await tx
      .update(collections)
      .set({ status: CollectStatus.Migrated, lastModificationTime: new Date(), lastModifierId: u.id })
      .where(
        and(
          eq(collections.tenantId, u.tenantId),
          inArray(
            collections.id,
            toMigrate.map((t) => t.id),
          ),
        ),
      );
  }
  return { successCount: toMigrate.length, ignoreCount: visible.length - toMigrate.length, productIds };
}

/** What the collection centre uses of the product service: the owner's product limit, asked before a move. */
type ProductLimit = Pick<ProductService, "checkProductLimit">;

/** Refuses the move when an owner would pass its productCount limit (null: no limit). */
async function checkProductLimits(products: ProductLimit, tx: Tx, tenantId: string, moving: { userId: string }[]) {
  const perOwner = new Map<string, number>();
  for (const t of moving) perOwner.set(t.userId, (perOwner.get(t.userId) ?? 0) + 1);
  for (const [owner, n] of perOwner) await products.checkProductLimit(tx, tenantId, owner, n);
}

/** The collection centre: collections and their settings, the crawler and the URL queue (each with its worker). */
export function createCollectService(deps: CrawlerDeps & { products: ProductLimit }) {
  const crawler = createCrawler(deps);
  const urls = createUrlQueue(deps);
  return {
    crawlProductByPlugin,
    getCollect,
    getCollectById,
    updateCollect,
    deleteCollect,
    batchDeleteCollects,
    batchUpdateCollectStatus,
    getCrawledSkus,
    migrateToProduct: (ctx: CallContext, ids: string[]) => migrateToProduct(deps.products, ctx, ids),
    screeningforInfringement,
    getCollectConfig,
    updateCollectConfig,
    getInfringementRuleSetting,
    updateInfringementRuleSetting,
    ...crawler,
    ...urls,
    workers: [...crawler.workers, ...urls.workers],
  };
}

export type CollectService = ReturnType<typeof createCollectService>;
