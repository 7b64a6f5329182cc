// What the planner reads before planning a selection: the products, the shops, the currency rates, the GTIN pool, whether
// a translation service is configured, the pictures' sizes, the chosen categories with their cached attributes, their
// fees, the freight rules and the size charts. Set-based: one query per kind of data for the whole selection.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { currencies, gtinCodes, meliAccounts, meliSizeCharts, products } from "../../db/schema.ts";
import { readTranslateSettings, createTranslator } from "../../integrations/translate/index.ts";
import { TranslationError } from "../../integrations/translate/types.ts";
import type { SecretBox } from "../../security/secrets.ts";
import type { CategoryAttribute } from "#shared/contract/category.ts";
import type { PublishRequest } from "#shared/contract/publish.ts";
import { SIZE_GRID_ID } from "#shared/contract/size-charts.ts";
import type { PreflightCategory, PreflightSizeChart } from "#shared/publish/preflight.ts";
import { imageSizesOf } from "./pictures.ts";
import { cachedFees } from "./fees.ts";
import type { PlannerFreight, ShopAccount } from "./types.ts";
import { categorySiteOf } from "#shared/publish/sites.ts";

export type ProductRow = typeof products.$inferSelect;
export type PlanCategory = PreflightCategory & { site: number; name: string; attributes: CategoryAttribute[] | null };

/** Whether the host configured a usable translation service (the planner only needs to know, not to translate). */
async function translationConfigured(tx: Tx, secrets: SecretBox): Promise<boolean> {
  try {
    createTranslator(await readTranslateSettings(tx, secrets));
    return true;
  } catch (e) {
    if (e instanceof TranslationError) return false;
    throw e;
  }
}

export type PlanInputs = Awaited<ReturnType<typeof readPlanInputs>>;

export async function readPlanInputs(
  tx: Tx,
  secrets: SecretBox,
  freight: PlannerFreight,
  { tenantId, request, productIds, accounts }: { tenantId: string; request: PublishRequest; productIds: string[]; accounts: ShopAccount[] },
) {
  const rows = await tx
    .select()
    .from(products)
    .where(and(eq(products.tenantId, tenantId), inArray(products.id, productIds)));
  const shops = await tx
    .select()
    .from(meliAccounts)
    .where(
      and(
        eq(meliAccounts.tenantId, tenantId),
        inArray(
          meliAccounts.id,
          accounts.map((a) => a.id),
        ),
      ),
    );
  const rates = await tx.select({ code: currencies.code, rate: currencies.rate }).from(currencies);
  const [{ n: gtinAvailable }] = rowsOf<{ n: number }>(
    await tx.execute(
      sql`select count(*)::int as n from ${gtinCodes} where ${and(eq(gtinCodes.tenantId, tenantId), isNull(gtinCodes.listingId))}`,
    ),
  );
  const translate = await translationConfigured(tx, secrets);
  // The pictures' probed sizes (pictures.ts), one query for the selection.
  const imageSizes = await imageSizesOf(
    tx,
    rows.flatMap((p) => (Array.isArray(p.images) ? (p.images as string[]) : [])),
  );

  // The category of each pair: the request's for the site, else the product's own when it is on that site.
  const requested = new Map(request.cateInfo.map((c) => [c.site, c]));
  const cateOf = (p: ProductRow, site: number) => requested.get(site)?.cateId ?? (p.site === site ? p.cateId : null);
  const wanted = new Set<string>();
  // A global-selling shop sells on a marketplace site but lists in a global (CBT) category (shared/publish/sites.ts).
  const isCbt = new Map(shops.map((s) => [s.id, s.isCbt]));
  const categorySite = (a: { id: string; site: number }) => categorySiteOf(!!isCbt.get(a.id), a.site);
  for (const p of rows)
    for (const a of accounts) {
      const c = cateOf(p, categorySite(a));
      if (c) wanted.add(`${categorySite(a)}|${c}`);
    }
  const keys = JSON.stringify([...wanted].map((k) => ({ site: Number(k.split("|")[0]), cateId: k.split("|")[1] })));
  // The category's name as the seller reads it (its Chinese name where one is stored): the pre-flight's messages,
  // the preview and the listing centre show it.
  const categories = new Map(
    rowsOf<PlanCategory>(
      await tx.execute(sql`select c.site, c.cate_id as "cateId", coalesce(c.zh, c.name) as name, c.is_leaf as "isLeaf", c.listing_allowed as "listingAllowed",
          c.max_title_length as "maxTitleLength", c.max_pictures as "maxPictures", c.meli_status as "meliStatus", c.enable,
          c.minimum_price as "minimumPrice", c.currency, c.classic_fee as "classicFee", c.premium_fee as "premiumFee",
          a.attributes
        from jsonb_to_recordset(${keys}::jsonb) as k(site int, "cateId" text)
        join meli_categories c on c.site = k.site and c.cate_id = k."cateId"
        left join meli_category_attributes a on a.site = c.site and a.cate_id = c.cate_id`),
    ).map((c) => [`${c.site}|${c.cateId}`, c]),
  );
  // Mercado Libre's fees for each category and the listing type, as fees.ts cached them before the call (the job
  // plans again with the same rows); a category without a row is priced from its row's percentage, with a warning.
  const fees = await cachedFees(tx, JSON.parse(keys) as { site: number; cateId: string }[], request.listingType);
  // The tenant's freight rules (PullMeliFreight) of each listing's site, global selling's (USD) for a global shop.
  const freightRules = request.isContainsFreight ? await freight.freightRulesOf(tx, tenantId, accounts.map(categorySite)) : new Map();
  // The shop groups' size charts (PullMeliChart), read only when a chosen category asks for one (SIZE_GRID_ID).
  const sizeCharts = [...categories.values()].some((c) => (c.attributes ?? []).some((a) => a.id === SIZE_GRID_ID))
    ? await tx
        .select({
          accountGroupId: meliSizeCharts.accountGroupId,
          site: meliSizeCharts.site,
          chartId: meliSizeCharts.chartId,
          name: meliSizeCharts.name,
          mainAttributeId: meliSizeCharts.mainAttributeId,
          rows: meliSizeCharts.rows,
        })
        .from(meliSizeCharts)
        .where(
          and(eq(meliSizeCharts.tenantId, tenantId), inArray(meliSizeCharts.accountGroupId, [...new Set(shops.map((x) => x.groupId))])),
        )
    : [];
  const chartsOf = (groupId: string, site: number): PreflightSizeChart[] =>
    sizeCharts
      .filter((c) => c.accountGroupId === groupId && c.site === site)
      .map((c) => ({ ...c, rows: (c.rows ?? []) as PreflightSizeChart["rows"] }));

  return {
    rows,
    shops,
    rates,
    gtinAvailable,
    translate,
    imageSizes,
    requested,
    cateOf,
    isCbt,
    categorySite,
    categories,
    fees,
    freightRules,
    chartsOf,
  };
}
