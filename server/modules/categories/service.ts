// The category calls' logic (spec §7 MeliCategory). Reads are for every logged-in user (categories are platform data,
// readable by the tenant role); writes are the host's. Mercado Libre is never called inside the call's transaction: a
// call that needs it answers through AfterCommit (network first, then a short transaction of its own).
import { and, asc, eq, ilike, isNull, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf, type Tx } from "../../db/client.ts";
import { meliCategories, meliCategoryAttributes, meliCategorySites } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { AfterCommit, JsonText, type CallContext } from "../../http/calls.ts";
import { notFound } from "../../http/errors.ts";
import type {
  CategoryAttribute,
  CategoryAttributes,
  CategorySiteStatus,
  getCategoriesByPageQuery,
  categoryStatusResult,
  getAllCategoryQuery,
  getCategoryBySiteIdQuery,
  MeliCategory,
  predictMeliCategoryInput,
  updateAllCategoryStatusInput,
  updateReferQuery,
} from "#shared/contract/category.ts";
import type { MeliSiteNumber } from "#shared/contract/meli.ts";
import { hashOf, toAttributes, variantKeysOf } from "./shape.ts";
import { rebuildSiteTree, refreshGenderMappings, storedAttributes, writeAttributes } from "./store.ts";
import { CHINESE_JOB, checkTranslator, chineseWorker, type ChineseJob } from "./chinese.ts";
import { predictMeliCategory } from "./predict.ts";
import { siteName, startCategoryJob, SYNC_JOB, syncContent, syncWorker, type CategoryDeps, type SyncJob, type SyncPart } from "./sync.ts";
import { getCategoryAttributes } from "../../integrations/mercadolibre/endpoints/categories.ts";

const CATEGORY_NOT_FOUND = "类目不存在（可能尚未同步，请联系管理员同步类目）";

type CategoryRow = typeof meliCategories.$inferSelect;

const num = (v: string | null) => (v === null ? null : Number(v));

function toCategory(r: CategoryRow): MeliCategory {
  return {
    id: r.id,
    site: r.site,
    cateId: r.cateId,
    level: r.level,
    name: r.name,
    zh: r.zh,
    pId: r.pId,
    isLeaf: r.isLeaf,
    fullZh: r.fullZh,
    fullName: r.fullName,
    alias: r.alias,
    pathName: r.pathName,
    classicFee: num(r.classicFee),
    premiumFee: num(r.premiumFee),
    enable: r.enable,
    variantKeys: (r.variantKeys as string[]) ?? [],
    domain: r.domain,
    listingAllowed: r.listingAllowed,
    meliStatus: r.meliStatus,
    maxTitleLength: r.maxTitleLength,
    maxPictures: r.maxPictures,
    minimumPrice: num(r.minimumPrice),
    currency: r.currency,
    syncTime: r.syncTime.toISOString(),
  };
}

async function findCategory(tx: Tx, site: number, cateId: string): Promise<CategoryRow | null> {
  const [row] = await tx
    .select()
    .from(meliCategories)
    .where(and(eq(meliCategories.site, site), eq(meliCategories.cateId, cateId)));
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------------------------
// GetAllCategory.

/** Whether an If-None-Match header names this entity tag. */
function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const list = (Array.isArray(header) ? header.join(",") : header).split(",").map((s) => s.trim().replace(/^W\//, ""));
  return list.includes("*") || list.includes(etag);
}

/**
 * The site's tree as built at its last change (one row read): an ETag and `version` let the console's cache ask
 * whether it is current (304, or notModified without the tree). The tree's stored JSON is sent as it is.
 */
async function getAllCategory(ctx: CallContext, q: z.output<typeof getAllCategoryQuery>) {
  const [meta] = await ctx.tx
    .select({ version: meliCategorySites.version, syncTime: meliCategorySites.syncTime, nodeCount: meliCategorySites.nodeCount })
    .from(meliCategorySites)
    .where(eq(meliCategorySites.site, q.site));
  if (!meta) return { site: q.site, version: null, syncTime: null, nodeCount: 0, notModified: false, tree: [] };
  const etag = `"${meta.version}"`;
  ctx.reply.header("etag", etag).header("cache-control", "private, no-cache");
  const head = { site: q.site, version: meta.version, syncTime: meta.syncTime?.toISOString() ?? null, nodeCount: meta.nodeCount };
  // The handler answers, never sends itself: a compressed answer is sent after the handler returns, so the call
  // could not tell that it had been sent.
  if (matchesEtag(ctx.req.headers["if-none-match"], etag)) return new AfterCommit(async (reply) => reply.code(304).send());
  if (q.version === meta.version) return { ...head, notModified: true, tree: null };
  const [row] = await ctx.tx.select({ tree: meliCategorySites.tree }).from(meliCategorySites).where(eq(meliCategorySites.site, q.site));
  const json = JSON.stringify({ ...head, notModified: false });
  return new JsonText(`${json.slice(0, -1)},"tree":${row.tree}}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The category fetch by site id.

async function getCategoryBySiteId(ctx: CallContext, q: z.output<typeof getCategoryBySiteIdQuery>): Promise<MeliCategory[]> {
  if (q.parentId && !(await findCategory(ctx.tx, q.siteId, q.parentId))) throw notFound(CATEGORY_NOT_FOUND);
  const rows = await ctx.tx
    .select()
    .from(meliCategories)
    .where(
      and(
        eq(meliCategories.site, q.siteId),
        q.parentId ? eq(meliCategories.pId, q.parentId) : isNull(meliCategories.pId),
        q.includeDisabled ? undefined : and(eq(meliCategories.enable, true), eq(meliCategories.meliStatus, "enabled")),
      ),
    )
    .orderBy(asc(meliCategories.sort), asc(meliCategories.cateId));
  return rows.map(toCategory);
}

// ---------------------------------------------------------------------------------------------------------------
// Attributes.

async function attributesAnswer(tx: Tx, category: CategoryRow): Promise<CategoryAttributes> {
  const [row] = await tx
    .select({ attributes: meliCategoryAttributes.attributes, syncTime: meliCategoryAttributes.syncTime })
    .from(meliCategoryAttributes)
    .where(and(eq(meliCategoryAttributes.site, category.site), eq(meliCategoryAttributes.cateId, category.cateId)));
  return {
    site: category.site,
    cateId: category.cateId,
    fullName: category.fullName,
    isLeaf: category.isLeaf,
    variantKeys: (category.variantKeys as string[]) ?? [],
    syncTime: row?.syncTime.toISOString() ?? null,
    attributes: (row?.attributes as CategoryAttribute[]) ?? [],
  };
}

/** Reads one category's attributes from Mercado Libre and stores them (host-side work); answers what is stored. */
async function syncOneCategoryAttributes(
  deps: Pick<CategoryDeps, "database" | "meli">,
  site: number,
  cateId: string,
): Promise<CategoryAttributes> {
  const list = await getCategoryAttributes(deps.meli.public, cateId);
  return inScope(deps.database.db, hostAllScope, async (tx) => {
    const category = await findCategory(tx, site, cateId);
    if (!category) throw notFound(CATEGORY_NOT_FOUND);
    const hash = hashOf(list);
    const before = (await storedAttributes(tx, site, [cateId])).get(cateId);
    if (before?.hash !== hash) {
      const attributes = toAttributes(list, before?.attributes);
      await writeAttributes(tx, site, [{ cateId, hash, attributes, variantKeys: variantKeysOf(attributes) }], [cateId]);
      await refreshGenderMappings(tx, site);
    } else {
      await writeAttributes(tx, site, [], [cateId]);
    }
    return attributesAnswer(tx, (await findCategory(tx, site, cateId))!);
  });
}

/**
 * GetAttributes. A leaf whose attributes were never read (a category added since the last full sync) has them read
 * from Mercado Libre now, so the product editor never waits for the host's next sync.
 */
async function getAttributes(deps: CategoryDeps, ctx: CallContext, q: { site: number; cateId: string }) {
  const category = await findCategory(ctx.tx, q.site, q.cateId);
  if (!category) throw notFound(CATEGORY_NOT_FOUND);
  const answer = await attributesAnswer(ctx.tx, category);
  if (answer.syncTime !== null || !category.isLeaf || category.meliStatus !== "enabled") return answer;
  return new AfterCommit(async (reply) => reply.send({ result: await syncOneCategoryAttributes(deps, q.site, q.cateId) }));
}

/** UpdateMeliAttrOne: the category's attributes read again now. */
async function updateMeliAttrOne(deps: CategoryDeps, ctx: CallContext, q: { site: number; cateId: string }) {
  if (!(await findCategory(ctx.tx, q.site, q.cateId))) throw notFound(CATEGORY_NOT_FOUND);
  return new AfterCommit(async (reply) => reply.send({ result: await syncOneCategoryAttributes(deps, q.site, q.cateId) }));
}

// ---------------------------------------------------------------------------------------------------------------
// The host's edits.

async function updateRefer(ctx: CallContext, q: z.output<typeof updateReferQuery>): Promise<MeliCategory> {
  const alias = q.refer?.trim() || null;
  const [row] = await ctx.tx
    .update(meliCategories)
    .set({ alias, lastModificationTime: new Date() })
    .where(and(eq(meliCategories.site, q.site), eq(meliCategories.cateId, q.cateId)))
    .returning();
  if (!row) throw notFound(CATEGORY_NOT_FOUND);
  await rebuildSiteTree(ctx.tx, q.site);
  return toCategory(row);
}

/**
 * UpdateAllCategoryStatus: enables or disables the given categories with everything under them (by their id path),
 * or every category of the site when the body says `all: true` (never by leaving the ids out). A disabled category
 * leaves the picker; products keep it.
 */
async function updateAllCategoryStatus(
  ctx: CallContext,
  site: number,
  body: z.output<typeof updateAllCategoryStatusInput>,
): Promise<z.output<typeof categoryStatusResult>> {
  let subtree = sql``;
  if (body.cateIds) {
    const ids = JSON.stringify([...new Set(body.cateIds)]);
    const found = rowsOf<{ n: number }>(
      await ctx.tx.execute(sql`select count(*)::int as n from meli_categories
        where site = ${site} and cate_id in (select jsonb_array_elements_text(${ids}::jsonb))`),
    )[0].n;
    if (!found) throw notFound(CATEGORY_NOT_FOUND);
    subtree = sql` and exists (select 1 from jsonb_array_elements_text(${ids}::jsonb) v
      where v = any(string_to_array(c.path_name, '/')))`;
  }
  const count = rowsOf(
    await ctx.tx.execute(sql`update meli_categories c set enable = ${body.enable}, last_modification_time = now()
      where c.site = ${site} and c.enable <> ${body.enable}${subtree}
      returning c.cate_id`),
  ).length;
  const [synced] = await ctx.tx.select({ site: meliCategorySites.site }).from(meliCategorySites).where(eq(meliCategorySites.site, site));
  const version = synced || count ? await rebuildSiteTree(ctx.tx, site) : null;
  return { count, version };
}

// ---------------------------------------------------------------------------------------------------------------
// The host's category sync screen.

/** Every site (1-5) with its version, counts and sync times; a site never synced has zeros and nulls. */
async function getCategorySyncStatus(ctx: CallContext): Promise<CategorySiteStatus[]> {
  const counts = rowsOf<{ site: number; categoryCount: number; leafCount: number; feeCount: number; zhCount: number }>(
    await ctx.tx.execute(sql`select site, count(*)::int as "categoryCount", count(*) filter (where is_leaf)::int as "leafCount",
        count(*) filter (where is_leaf and classic_fee is not null)::int as "feeCount",
        count(*) filter (where zh is not null and zh <> '')::int as "zhCount"
      from meli_categories group by site`),
  );
  const attributes = rowsOf<{ site: number; n: number }>(
    await ctx.tx.execute(sql`select site, count(*)::int as n from meli_category_attributes group by site`),
  );
  const sites = await ctx.tx.select().from(meliCategorySites);
  const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
  return ([1, 2, 3, 4, 5] as const).map((site) => {
    const c = counts.find((r) => r.site === site);
    const meta = sites.find((r) => r.site === site);
    return {
      site,
      version: meta?.version ?? null,
      categoryCount: c?.categoryCount ?? 0,
      leafCount: c?.leafCount ?? 0,
      attributeCount: attributes.find((r) => r.site === site)?.n ?? 0,
      feeCount: c?.feeCount ?? 0,
      zhCount: c?.zhCount ?? 0,
      syncTime: iso(meta?.syncTime),
      attrSyncTime: iso(meta?.attrSyncTime),
      feeSyncTime: iso(meta?.feeSyncTime),
    };
  });
}

const categorySortColumns = { cateId: meliCategories.cateId, name: meliCategories.name, zh: meliCategories.zh } as const;

/** A page of the site's categories (disabled ones too), searched in the name, Chinese name, refer and id. */
async function getCategoriesByPage(ctx: CallContext, q: z.output<typeof getCategoriesByPageQuery>) {
  const like = q.Filter ? `%${q.Filter.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    eq(meliCategories.site, q.site),
    like
      ? or(
          ilike(meliCategories.fullName, like),
          ilike(meliCategories.fullZh, like),
          ilike(meliCategories.zh, like),
          ilike(meliCategories.alias, like),
          ilike(meliCategories.cateId, like),
        )
      : undefined,
  );
  const [field, direction] = (q.Sorting ?? "cateId asc").split(" ");
  const column = categorySortColumns[field as keyof typeof categorySortColumns] ?? meliCategories.cateId;
  const [{ n }] = await ctx.tx
    .select({ n: sql<number>`count(*)::int` })
    .from(meliCategories)
    .where(where);
  const rows = await ctx.tx
    .select()
    .from(meliCategories)
    .where(where)
    .orderBy(direction?.toLowerCase() === "desc" ? sql`${column} desc nulls last` : asc(column), asc(meliCategories.cateId))
    .offset(q.SkipCount)
    .limit(q.MaxResultCount);
  return { items: rows.map(toCategory), totalCount: n };
}

const sitesText = (sites: MeliSiteNumber[]) => (sites.length === 5 ? "全部站点" : sites.map(siteName).join("、"));

/** The category area: the host's synced trees and their jobs (sync, Chinese names), and the category prediction. */
export function createCategoryService(deps: CategoryDeps) {
  const { jobs } = deps;
  return {
    workers: [syncWorker(deps), chineseWorker(deps)],
    getAllCategory,
    getCategoryBySiteId,
    getAttributes: (ctx: CallContext, q: { site: number; cateId: string }) => getAttributes(deps, ctx, q),
    updateMeliAttrOne: (ctx: CallContext, q: { site: number; cateId: string }) => updateMeliAttrOne(deps, ctx, q),
    updateRefer,
    updateAllCategoryStatus,
    getCategorySyncStatus,
    getCategoriesByPage,
    /** Starts a sync of the sites' trees, attributes or fees (one category job at a time). */
    startSync: (ctx: CallContext, sites: MeliSiteNumber[], parts: SyncPart[]) =>
      startCategoryJob<SyncJob>(jobs, ctx, { name: SYNC_JOB, content: syncContent(sites, parts), data: { sites, parts } }),
    /** Starts giving the sites' categories or attributes Chinese names; refused at once without a translator. */
    async startChinese(ctx: CallContext, kind: ChineseJob["kind"], sites: MeliSiteNumber[]) {
      await checkTranslator(ctx.tx, deps.secrets);
      const what = kind === "categories" ? "补充美客多类目中文名" : "补充美客多类目属性中文名";
      return startCategoryJob<ChineseJob>(jobs, ctx, { name: CHINESE_JOB, content: `${what}：${sitesText(sites)}`, data: { kind, sites } });
    },
    predictMeliCategory: (ctx: CallContext, body: z.output<typeof predictMeliCategoryInput>) => predictMeliCategory(deps, ctx, body),
  };
}

export type CategoryService = ReturnType<typeof createCategoryService>;
