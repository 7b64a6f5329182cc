// The category tables' writes and the tree they serve. Every write is set-based (one statement per batch through
// jsonb_to_recordset, never a query per row) and skips rows that would not change, so a re-sync of an unchanged tree
// writes nothing and keeps its version. Writes run as host-side work (erp_host); tenants only read (migration 0008).
import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { buildTree, hashOf, type NodeRow, type TreeRow } from "./shape.ts";
import type { CategoryAttribute } from "#shared/contract/category.ts";

const CHUNK = 2000;

function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * Upserts a site's tree from Mercado Libre's dump and marks what the dump no longer has as removed (kept: products
 * name those ids). Answers how many rows were new or changed, and how many became removed.
 */
export async function writeTree(tx: Tx, site: number, rows: TreeRow[]): Promise<{ changed: number; removed: number }> {
  let changed = 0;
  for (const part of chunks(rows)) {
    const json = JSON.stringify(
      part.map((r) => ({
        cate_id: r.cateId,
        level: r.level,
        name: r.name,
        p_id: r.pId,
        is_leaf: r.isLeaf,
        full_name: r.fullName,
        path_name: r.pathName,
        sort: r.sort,
        listing_allowed: r.listingAllowed,
        domain: r.domain,
        max_title_length: r.maxTitleLength,
        max_pictures: r.maxPictures,
        minimum_price: r.minimumPrice,
        currency: r.currency,
      })),
    );
    const result = await tx.execute(sql`
      insert into meli_categories as c (site, cate_id, level, name, p_id, is_leaf, full_name, path_name, sort, listing_allowed,
        domain, max_title_length, max_pictures, minimum_price, currency, meli_status, sync_time)
      select ${site}::int, v.cate_id, v.level, v.name, v.p_id, v.is_leaf, v.full_name, v.path_name, v.sort, v.listing_allowed,
        v.domain, v.max_title_length, v.max_pictures, v.minimum_price, v.currency, 'enabled', now()
      from jsonb_to_recordset(${json}::jsonb) as v(cate_id text, level int, name text, p_id text, is_leaf boolean,
        full_name text, path_name text, sort int, listing_allowed boolean, domain text, max_title_length int,
        max_pictures int, minimum_price numeric, currency text)
      on conflict (site, cate_id) do update set
        level = excluded.level, name = excluded.name, p_id = excluded.p_id, is_leaf = excluded.is_leaf,
        full_name = excluded.full_name, path_name = excluded.path_name, sort = excluded.sort,
        listing_allowed = excluded.listing_allowed, domain = excluded.domain, max_title_length = excluded.max_title_length,
        max_pictures = excluded.max_pictures, minimum_price = excluded.minimum_price, currency = excluded.currency,
        meli_status = 'enabled', sync_time = now(), last_modification_time = now()
      where (c.level, c.name, c.p_id, c.is_leaf, c.full_name, c.path_name, c.sort, c.listing_allowed, c.domain,
          c.max_title_length, c.max_pictures, c.minimum_price, c.currency, c.meli_status)
        is distinct from (excluded.level, excluded.name, excluded.p_id, excluded.is_leaf, excluded.full_name, excluded.path_name,
          excluded.sort, excluded.listing_allowed, excluded.domain, excluded.max_title_length, excluded.max_pictures,
          excluded.minimum_price, excluded.currency, 'enabled')
      returning c.cate_id`);
    changed += rowsOf(result).length;
  }
  const ids = rows.map((r) => r.cateId);
  const removed = rowsOf(
    await tx.execute(sql`update meli_categories set meli_status = 'removed', last_modification_time = now()
      where site = ${site} and meli_status <> 'removed' and cate_id not in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
      returning cate_id`),
  ).length;
  return { changed, removed };
}

/** Recomputes full_zh of a site: the path of Chinese names (a name stands in where none) once any ancestor has one. */
export async function refreshFullZh(tx: Tx, site: number): Promise<void> {
  await tx.execute(sql`
    with recursive t as (
      select cate_id, zh is not null as has, coalesce(zh, name) as path
      from meli_categories where site = ${site} and p_id is null
      union all
      select c.cate_id, t.has or c.zh is not null, t.path || ${" > "} || coalesce(c.zh, c.name)
      from meli_categories c join t on c.site = ${site} and c.p_id = t.cate_id
    )
    update meli_categories m set full_zh = case when t.has then t.path end
    from t
    where m.site = ${site} and m.cate_id = t.cate_id and m.full_zh is distinct from (case when t.has then t.path end)`);
}

/** The leaves of a site that Mercado Libre still has, in tree order: what attributes and fees are read for. */
export async function leafIds(tx: Tx, site: number): Promise<{ cateId: string; minimumPrice: number | null }[]> {
  return rowsOf<{ cateId: string; minimumPrice: string | null }>(
    await tx.execute(sql`select cate_id as "cateId", minimum_price as "minimumPrice" from meli_categories
      where site = ${site} and is_leaf and meli_status = 'enabled' order by path_name`),
  ).map((r) => ({ cateId: r.cateId, minimumPrice: r.minimumPrice === null ? null : Number(r.minimumPrice) }));
}

export type AttributeWrite = { cateId: string; hash: string; attributes: CategoryAttribute[]; variantKeys: string[] };

/** The stored attribute lists (hash and list) of some categories, to skip unchanged ones and keep their Chinese names. */
export async function storedAttributes(
  tx: Tx,
  site: number,
  cateIds: string[],
): Promise<Map<string, { hash: string; attributes: CategoryAttribute[] }>> {
  const rows = rowsOf<{ cateId: string; hash: string; attributes: CategoryAttribute[] }>(
    await tx.execute(sql`select cate_id as "cateId", hash, attributes from meli_category_attributes
      where site = ${site} and cate_id in (select jsonb_array_elements_text(${JSON.stringify(cateIds)}::jsonb))`),
  );
  return new Map(rows.map((r) => [r.cateId, { hash: r.hash, attributes: r.attributes }]));
}

/** Writes changed attribute lists and the categories' variantKeys; stamps every read category's attribute sync time. */
export async function writeAttributes(tx: Tx, site: number, changed: AttributeWrite[], read: string[]): Promise<void> {
  if (changed.length) {
    const json = JSON.stringify(
      changed.map((w) => ({
        cate_id: w.cateId,
        hash: w.hash,
        attributes: w.attributes,
        attribute_count: w.attributes.length,
        required_count: w.attributes.filter((a) => a.isRequired).length,
        variant_keys: w.variantKeys,
      })),
    );
    await tx.execute(sql`
      insert into meli_category_attributes as a (site, cate_id, attributes, attribute_count, required_count, hash, sync_time)
      select ${site}::int, v.cate_id, v.attributes, v.attribute_count, v.required_count, v.hash, now()
      from jsonb_to_recordset(${json}::jsonb) as v(cate_id text, attributes jsonb, attribute_count int, required_count int, hash text)
      on conflict (site, cate_id) do update set attributes = excluded.attributes, attribute_count = excluded.attribute_count,
        required_count = excluded.required_count, hash = excluded.hash, sync_time = now()
      where a.hash is distinct from excluded.hash`);
    await tx.execute(sql`
      update meli_categories c set variant_keys = v.variant_keys, last_modification_time = now()
      from jsonb_to_recordset(${json}::jsonb) as v(cate_id text, variant_keys jsonb)
      where c.site = ${site} and c.cate_id = v.cate_id and c.variant_keys is distinct from v.variant_keys`);
  }
  if (read.length) {
    await tx.execute(sql`update meli_categories set attr_sync_time = now()
      where site = ${site} and cate_id in (select jsonb_array_elements_text(${JSON.stringify(read)}::jsonb))`);
  }
}

export type FeeWrite = { cateId: string; classic: number | null; premium: number | null };

/** Stores the fees read; answers the categories whose fee moved (their listings' margins are computed again). */
export async function writeFees(tx: Tx, site: number, fees: FeeWrite[]): Promise<string[]> {
  if (!fees.length) return [];
  const json = JSON.stringify(fees.map((f) => ({ cate_id: f.cateId, classic: f.classic, premium: f.premium })));
  const rows = rowsOf<{ cateId: string; moved: boolean }>(
    await tx.execute(sql`
      with old as (select cate_id, classic_fee, premium_fee from meli_categories
        where site = ${site} and cate_id in (select v.cate_id from jsonb_to_recordset(${json}::jsonb) as v(cate_id text)))
      update meli_categories c set classic_fee = v.classic, premium_fee = v.premium, fee_sync_time = now()
      from jsonb_to_recordset(${json}::jsonb) as v(cate_id text, classic numeric, premium numeric), old o
      where c.site = ${site} and c.cate_id = v.cate_id and o.cate_id = v.cate_id
      returning c.cate_id as "cateId", (o.classic_fee, o.premium_fee) is distinct from (v.classic, v.premium) as moved`),
  );
  return rows.filter((r) => r.moved).map((r) => r.cateId);
}

/**
 * The gender mappings of a site from its stored attributes: one per domain whose categories have a GENDER attribute
 * (the first such category, by level then id, names it); domains that lost theirs are dropped.
 */
export async function refreshGenderMappings(tx: Tx, site: number): Promise<void> {
  await tx.execute(sql`
    insert into meli_gender_mappings as g (site, domain_id, gender_attr_id, gender_attr_name, alias)
    select distinct on (c.domain) c.site, c.domain, a->>'id', a->>'name', c.full_name
    from meli_categories c
    join meli_category_attributes ma on ma.site = c.site and ma.cate_id = c.cate_id
    cross join lateral jsonb_array_elements(ma.attributes) a
    where c.site = ${site} and c.domain is not null and c.meli_status = 'enabled' and a->>'id' = 'GENDER'
    order by c.domain, c.level, c.cate_id
    on conflict (site, domain_id) do update set gender_attr_id = excluded.gender_attr_id,
      gender_attr_name = excluded.gender_attr_name, alias = excluded.alias
    where (g.gender_attr_id, g.gender_attr_name, g.alias) is distinct from
      (excluded.gender_attr_id, excluded.gender_attr_name, excluded.alias)`);
  await tx.execute(sql`
    delete from meli_gender_mappings g where g.site = ${site} and not exists (
      select 1 from meli_categories c
      join meli_category_attributes ma on ma.site = c.site and ma.cate_id = c.cate_id
      where c.site = g.site and c.domain = g.domain_id and c.meli_status = 'enabled'
        and ma.attributes @> '[{"id": "GENDER"}]'::jsonb)`);
}

export type SiteTimes = { tree?: boolean; attributes?: boolean; fees?: boolean };

/**
 * Builds the site's tree as GetAllCategory serves it and stores it with its version (a hash of the tree), counts and
 * the sync times named in `stamp`. The version moves only when the tree's text changes. Answers the version.
 */
export async function rebuildSiteTree(tx: Tx, site: number, stamp: SiteTimes = {}): Promise<string> {
  // One rebuild of a site at a time: a rebuild that read the rows before another's change committed cannot write its
  // older tree after that one (the second waits here, then reads the committed rows).
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('erp:category-tree'), ${site}::int)`);
  const rows = rowsOf<NodeRow & { meliStatus: string }>(
    await tx.execute(sql`select cate_id as "cateId", p_id as "pId", name, full_name as "fullName", zh, alias,
        is_leaf as "isLeaf", listing_allowed as "listingAllowed", enable and meli_status = 'enabled' as visible,
        meli_status as "meliStatus"
      from meli_categories where site = ${site} order by level, sort, cate_id`),
  );
  const { roots, count } = buildTree(rows);
  const tree = JSON.stringify(roots);
  const version = hashOf(tree).slice(0, 16);
  const live = rows.filter((r) => r.meliStatus === "enabled");
  const categoryCount = live.length;
  const leafCount = live.filter((r) => r.isLeaf).length;
  await tx.execute(sql`
    insert into meli_category_sites as s (site, version, tree, category_count, leaf_count, node_count, sync_time, fee_sync_time,
      attr_sync_time, last_modification_time)
    values (${site}, ${version}, ${tree}, ${categoryCount}, ${leafCount}, ${count},
      case when ${!!stamp.tree}::boolean then now() end, case when ${!!stamp.fees}::boolean then now() end,
      case when ${!!stamp.attributes}::boolean then now() end, now())
    on conflict (site) do update set
      version = excluded.version, tree = excluded.tree, category_count = excluded.category_count,
      leaf_count = excluded.leaf_count, node_count = excluded.node_count,
      sync_time = coalesce(excluded.sync_time, s.sync_time), fee_sync_time = coalesce(excluded.fee_sync_time, s.fee_sync_time),
      attr_sync_time = coalesce(excluded.attr_sync_time, s.attr_sync_time),
      last_modification_time = case when s.version = excluded.version then s.last_modification_time else now() end`);
  return version;
}
