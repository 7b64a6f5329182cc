// The category mappings' writes other areas make: a seller's pick of a category for products with a source category
// (the product editor's save, a publish) is remembered per (source platform, source category, site). One statement
// for any number of products; a product without a source platform or source category is skipped.
import { sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";

export type CategoryPick = { productId: string; site: number; cateId: string };

/**
 * Remembers each pick against its product's source category: a new mapping, the same category used once more, or a
 * new category replacing the old one (its count starting again). The category's full name comes from the synced tree
 * (the id stands in for a category not synced).
 */
export async function rememberCategoryPicks(tx: Tx, tenantId: string, picks: CategoryPick[]): Promise<void> {
  if (!picks.length) return;
  const json = JSON.stringify(picks.map((p) => ({ product_id: p.productId, site: p.site, cate_id: p.cateId })));
  await tx.execute(sql`
    insert into category_mappings as m (tenant_id, id, platform_type, source_key, source_path, site, cate_id, category_name)
    select distinct on (p.platform_type, k.key, v.site) ${tenantId}::uuid, gen_random_uuid(), p.platform_type, k.key,
      nullif(p.source_category->>'path', ''), v.site, v.cate_id, coalesce(c.full_name, v.cate_id)
    from jsonb_to_recordset(${json}::jsonb) as v(product_id uuid, site int, cate_id text)
    join products p on p.tenant_id = ${tenantId} and p.id = v.product_id
    cross join lateral (select left(coalesce(nullif(trim(p.source_category->>'id'), ''), nullif(trim(p.source_category->>'path'), '')), 500) as key) k
    left join meli_categories c on c.site = v.site and c.cate_id = v.cate_id
    where p.platform_type is not null and k.key is not null
    order by p.platform_type, k.key, v.site
    on conflict (tenant_id, platform_type, source_key, site) do update set
      cate_id = excluded.cate_id, category_name = excluded.category_name,
      source_path = coalesce(excluded.source_path, m.source_path),
      use_count = case when m.cate_id = excluded.cate_id then m.use_count + 1 else 1 end,
      last_modification_time = now()`);
}
