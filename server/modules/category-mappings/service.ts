// Category mapping calls (类目映射): the tenant's mappings listed, searched, changed to another category and deleted,
// and the mapping suggested for a product's source category on a site. Every query is the caller's tenant's.
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf, type Tx } from "../../db/client.ts";
import { containsPattern } from "../../db/query.ts";
import { products } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import {
  sourceKeyOf,
  type CategoryMapping,
  type CategoryMappingPage,
  type getCategoryMappingsQuery,
  type getSuggestedCategoryQuery,
  type SourceCategory,
  type updateCategoryMappingInput,
} from "#shared/contract/category-mapping.ts";
import type { MeliSiteNumber } from "#shared/contract/meli.ts";
import { visibleProducts } from "../products/index.ts";

type Row = Omit<CategoryMapping, "lastModificationTime" | "site"> & { site: number; lastModificationTime: Date | string };

const columns = sql`m.id, m.platform_type as "platformType", m.source_key as "sourceKey", m.source_path as "sourcePath",
  m.site, m.cate_id as "cateId", m.category_name as "categoryName", c.full_zh as "fullZh", m.use_count as "useCount",
  m.last_modification_time as "lastModificationTime"`;
const fromMappings = sql`from category_mappings m left join meli_categories c on c.site = m.site and c.cate_id = m.cate_id`;

const toMapping = (r: Row): CategoryMapping => ({
  ...r,
  site: r.site as MeliSiteNumber,
  lastModificationTime: new Date(r.lastModificationTime).toISOString(),
});

const sortColumns: Record<string, SQL> = {
  lastmodificationtime: sql`m.last_modification_time`,
  usecount: sql`m.use_count`,
  site: sql`m.site`,
  platformtype: sql`m.platform_type`,
};

function orderOf(sorting: string | undefined): SQL {
  const [field, dir] = (sorting ?? "").trim().split(/\s+/);
  const column = sortColumns[field?.toLowerCase() ?? ""] ?? sql`m.last_modification_time`;
  const way = sorting && dir?.toLowerCase() !== "desc" ? sql`asc` : sql`desc`;
  return sql`${column} ${way}, m.id`;
}

async function mappingById(tx: Tx, tenantId: string, id: string): Promise<CategoryMapping | null> {
  const [r] = rowsOf<Row>(await tx.execute(sql`select ${columns} ${fromMappings} where m.tenant_id = ${tenantId} and m.id = ${id}`));
  return r ? toMapping(r) : null;
}

export function createCategoryMappingService() {
  return {
    async getCategoryMappings(ctx: CallContext, q: z.output<typeof getCategoryMappingsQuery>): Promise<CategoryMappingPage> {
      const where: SQL[] = [sql`m.tenant_id = ${ctx.tenantId}`];
      if (q.Site) where.push(sql`m.site = ${q.Site}`);
      if (q.PlatformType) where.push(sql`m.platform_type = ${q.PlatformType}`);
      if (q.Filter) {
        const like = containsPattern(q.Filter);
        where.push(sql`(m.source_key ilike ${like} or m.source_path ilike ${like} or m.category_name ilike ${like}
          or m.cate_id ilike ${like} or c.full_zh ilike ${like})`);
      }
      const cond = sql.join(where, sql` and `);
      const [{ n }] = rowsOf<{ n: number }>(await ctx.tx.execute(sql`select count(*)::int as n ${fromMappings} where ${cond}`));
      const rows = rowsOf<Row>(
        await ctx.tx.execute(sql`select ${columns} ${fromMappings} where ${cond}
          order by ${orderOf(q.Sorting)} limit ${q.MaxResultCount} offset ${q.SkipCount}`),
      );
      return { items: rows.map(toMapping), totalCount: n };
    },

    /** Points a mapping at another category of its site: a choosable leaf of the synced tree. */
    async updateCategoryMapping(ctx: CallContext, body: z.output<typeof updateCategoryMappingInput>): Promise<CategoryMapping> {
      const before = await mappingById(ctx.tx, ctx.tenantId, body.id);
      if (!before) throw notFound("类目映射不存在");
      const [cate] = rowsOf<{ fullName: string; ok: boolean }>(
        await ctx.tx.execute(sql`select full_name as "fullName", is_leaf and listing_allowed and enable and meli_status = 'enabled' as ok
          from meli_categories where site = ${before.site} and cate_id = ${body.cateId}`),
      );
      if (!cate?.ok) {
        const message = cate ? "该类目不能刊登商品，请选择最末级类目" : "该站点没有这个类目";
        throw badRequest(message, undefined, [{ message, members: ["cateId"] }]);
      }
      await ctx.tx.execute(sql`update category_mappings set cate_id = ${body.cateId}, category_name = ${cate.fullName},
          use_count = case when cate_id = ${body.cateId} then use_count else 1 end, last_modification_time = now()
        where tenant_id = ${ctx.tenantId} and id = ${body.id}`);
      return (await mappingById(ctx.tx, ctx.tenantId, body.id))!;
    },

    async deleteCategoryMapping(ctx: CallContext, id: string): Promise<{ count: number }> {
      const gone = rowsOf(
        await ctx.tx.execute(sql`delete from category_mappings where tenant_id = ${ctx.tenantId} and id = ${id} returning id`),
      );
      if (!gone.length) throw notFound("类目映射不存在");
      return { count: gone.length };
    },

    /** The mapping of the product's source category on the site (null without one). */
    async getSuggestedCategory(ctx: CallContext, q: z.output<typeof getSuggestedCategoryQuery>): Promise<CategoryMapping | null> {
      const [p] = await ctx.tx
        .select({ platformType: products.platformType, sourceCategory: products.sourceCategory })
        .from(products)
        .where(and(visibleProducts(ctx), eq(products.id, q.productId)));
      if (!p) throw notFound("商品不存在");
      const key = sourceKeyOf(p.sourceCategory as SourceCategory | null);
      if (p.platformType === null || !key) return null;
      const [r] = rowsOf<Row>(
        await ctx.tx.execute(sql`select ${columns} ${fromMappings} where m.tenant_id = ${ctx.tenantId}
          and m.platform_type = ${p.platformType} and m.source_key = ${key.slice(0, 500)} and m.site = ${q.site}`),
      );
      return r ? toMapping(r) : null;
    },
  };
}
export type CategoryMappingService = ReturnType<typeof createCategoryMappingService>;
