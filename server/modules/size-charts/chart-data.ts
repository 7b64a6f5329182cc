// What the size-chart calls share: the shop group as the caller may see it, a fashion domain's genders (the GENDER
// values of its synced category attributes: Mercado Libre's search and creation both need one), the brands a group
// searches with, and a Mercado Libre chart as the row we store.
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { meliAccountGroups, meliAccounts, meliSizeCharts } from "../../db/schema.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { mainAttributeOf, type MeliChart } from "../../integrations/mercadolibre/endpoints/size-charts.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import type { SizeChart } from "#shared/contract/size-charts.ts";

export type Who = { id: string; isMain: boolean };
export type GroupShop = { site: MeliSiteNumber; custId: string; brand: string | null };

/** The group in the caller's tenant (a sub-account: one it has a shop of) with its shops, or 404. */
export async function visibleGroup(tx: Tx, tenantId: string, who: Who, groupId: string) {
  const [group] = await tx
    .select({ id: meliAccountGroups.id, isCbt: meliAccountGroups.isCbt, brand: meliAccountGroups.brand })
    .from(meliAccountGroups)
    .where(and(eq(meliAccountGroups.tenantId, tenantId), eq(meliAccountGroups.id, groupId)));
  const shops = group
    ? await tx
        .select({ site: meliAccounts.site, custId: meliAccounts.custId, brand: meliAccounts.brand, ownerId: meliAccounts.ownerId })
        .from(meliAccounts)
        .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.groupId, groupId)))
    : [];
  if (!group || (!who.isMain && !shops.some((s) => s.ownerId === who.id))) throw notFound("店铺不存在");
  return {
    ...group,
    shops: shops.map((s): GroupShop => ({ site: s.site as MeliSiteNumber, custId: s.custId, brand: s.brand })),
    sites: [...new Set(shops.map((s) => s.site as MeliSiteNumber))],
  };
}
export type VisibleGroup = Awaited<ReturnType<typeof visibleGroup>>;

/** The brands a group's charts are searched with: the one asked, the group's and its shops', else Mercado Libre's "Genérica". */
export function brandsOf(group: VisibleGroup, asked: string | null | undefined): string[] {
  const all = [asked, group.brand, ...group.shops.map((s) => s.brand)].map((b) => b?.trim() ?? "").filter(Boolean);
  const unique = [...new Map(all.map((b) => [b.toLowerCase(), b])).values()];
  return unique.length ? unique : ["Genérica"];
}

/** The GENDER values (id and name) of a fashion domain on a site, from a synced category of it; none: a 400 in Chinese. */
export async function gendersOf(tx: Tx, site: MeliSiteNumber, domainId: string): Promise<{ id: string | null; name: string }[]> {
  const [row] = rowsOf<{ values: { id?: string | null; name?: string }[] | null }>(
    await tx.execute(sql`
      select attr -> 'values' as "values"
      from meli_gender_mappings g
      join meli_categories c on c.site = g.site and c.domain = g.domain_id
      join meli_category_attributes a on a.site = c.site and a.cate_id = c.cate_id
      cross join lateral jsonb_array_elements(a.attributes) attr
      where g.site = ${site} and g.domain_id = ${domainId} and attr ->> 'id' = g.gender_attr_id
        and jsonb_array_length(coalesce(attr -> 'values', '[]'::jsonb)) > 0
      order by c.cate_id limit 1`),
  );
  const values = (row?.values ?? []).filter((v) => typeof v.name === "string" && v.name.trim());
  if (!values.length) throw badRequest(`类目领域 ${domainId} 的性别属性还没有同步，请先同步该类目的属性后再操作尺码表`);
  return values.map((v) => ({ id: v.id ?? null, name: v.name!.trim() }));
}

const valuesOf = (c: MeliChart["rows"][number]["attributes"] | MeliChart["attributes"], id: string | null) =>
  c.filter((a) => a.id === id).flatMap((a) => a.values.map((v) => v.name ?? "").filter(Boolean));

/**
 * The row we store for a chart: each row labelled with its SIZE (what an item's SIZE must equal), else its main
 * attribute's value; the domain as our categories name it (with the site prefix).
 */
export function storedChart(tenantId: string, groupId: string, site: MeliSiteNumber, domainId: string, c: MeliChart) {
  const main = mainAttributeOf(c);
  return {
    tenantId,
    id: randomUUID(),
    accountGroupId: groupId,
    chartId: c.id,
    site,
    domainId,
    name: c.names[MELI_SITES[site].meli] ?? Object.values(c.names)[0] ?? c.id,
    chartType: c.type ?? "SPECIFIC",
    gender: valuesOf(c.attributes, "GENDER")[0] ?? null,
    mainAttributeId: main,
    rows: c.rows.map((r) => ({ id: r.id, label: (valuesOf(r.attributes, "SIZE")[0] ?? valuesOf(r.attributes, main)[0]) || r.id })),
  };
}

/** Stores charts (a chart already stored for the group is updated in place). */
export async function upsertCharts(tx: Tx, rows: ReturnType<typeof storedChart>[]) {
  if (!rows.length) return [];
  return tx
    .insert(meliSizeCharts)
    .values(rows)
    .onConflictDoUpdate({
      target: [meliSizeCharts.tenantId, meliSizeCharts.accountGroupId, meliSizeCharts.chartId],
      set: {
        name: sql`excluded.name`,
        rows: sql`excluded.rows`,
        gender: sql`excluded.gender`,
        domainId: sql`excluded.domain_id`,
        mainAttributeId: sql`excluded.main_attribute_id`,
        fetchedAt: sql`now()`,
      },
    })
    .returning();
}

export const toChart = (r: typeof meliSizeCharts.$inferSelect): SizeChart => ({
  id: r.id,
  accountGroupId: r.accountGroupId,
  chartId: r.chartId,
  site: r.site as MeliSiteNumber,
  domainId: r.domainId,
  name: r.name,
  chartType: r.chartType,
  gender: r.gender,
  mainAttributeId: r.mainAttributeId,
  rows: (r.rows ?? []) as SizeChart["rows"],
  fetchedAt: r.fetchedAt.toISOString(),
});
