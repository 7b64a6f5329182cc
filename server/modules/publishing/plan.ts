// Plans each product × site of a publish before anything is sent: reads the products, the chosen categories and their
// cached attributes, the shop's pricing rules, the currency rates, the GTIN pool and whether a translation service is
// configured, then runs the shared pre-flight check and price formula (shared/publish/) on every pair. Set-based reads:
// one query per kind of data for the whole selection.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { currencies, gtinCodes, meliAccounts, meliSizeCharts, products } from "../../db/schema.ts";
import { readTranslateSettings, createTranslator } from "../../integrations/translate/index.ts";
import { TranslationError } from "../../integrations/translate/types.ts";
import type { SecretBox } from "../../security/secrets.ts";
import type { CategoryAttribute } from "../../../shared/contract/category.ts";
import type { MeliSiteNumber } from "../../../shared/contract/meli.ts";
import { SIZE_GRID_ID, SIZE_GRID_ROW_ID } from "../../../shared/contract/size-charts.ts";
import {
  cutTitle,
  framedTitle,
  packageOf,
  preflight,
  usablePictures,
  variantSizeRows,
  variationAttributeOf,
  type PreflightCategory,
  type PreflightProduct,
  type PreflightSizeChart,
} from "../../../shared/publish/preflight.ts";
import { moneyNumber } from "../../../shared/publish/price.ts";
import { toVariantItems, type StoredOption, type StoredVariant } from "../products/variants.ts";
import { plainDescription, type ItemAttribute } from "./item-body.ts";
import { imageSizesOf } from "./pictures.ts";
import { cachedFees, feeInput } from "./fees.ts";
import { freightRulesOf } from "../freight/service.ts";
import { freightFor } from "../../../shared/contract/freight.ts";
import type { ListingPlan, Planner } from "./types.ts";
import { turnPause } from "../../turns.ts";

type ProductRow = typeof products.$inferSelect;
/** A variant with its option names and value names in option order. */
type Variant = { sku: string | null; keys: string[]; values: string[]; stock: number | null; gtin: string | null };
type CateAttr = { nameId?: string; id?: string; valueId?: string | null; value?: string | null; valueName?: string | null };

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

export function createPlanner(secrets: SecretBox): Planner {
  return async (tx, { tenantId, request, productIds, accounts }) => {
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
    // A global-selling shop sells on a marketplace site but lists in a global (CBT, site 5) category.
    const isCbt = new Map(shops.map((s) => [s.id, s.isCbt]));
    const categorySite = (a: { id: string; site: number }) => (isCbt.get(a.id) ? 5 : a.site);
    for (const p of rows)
      for (const a of accounts) {
        const c = cateOf(p, categorySite(a));
        if (c) wanted.add(`${categorySite(a)}|${c}`);
      }
    const keys = JSON.stringify([...wanted].map((k) => ({ site: Number(k.split("|")[0]), cateId: k.split("|")[1] })));
    // The category's name as the seller reads it (its Chinese name where one is stored): the pre-flight's messages,
    // the preview and the listing centre show it.
    const categories = new Map(
      rowsOf<PreflightCategory & { site: number; name: string; attributes: CategoryAttribute[] | null }>(
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
    const freightRules = request.isContainsFreight ? await freightRulesOf(tx, tenantId, accounts.map(categorySite)) : new Map();
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

    const out = new Map<string, ListingPlan[]>();
    // Thousands of products take seconds of pre-flight: the event loop is given back every few ms (turns.ts).
    const pause = turnPause();
    for (const p of rows) {
      await pause();
      // Variants as the wire names them: option names (keys) and value names in option order.
      const variants: Variant[] = toVariantItems(
        (Array.isArray(p.options) ? p.options : []) as StoredOption[],
        (Array.isArray(p.variants) ? p.variants : []) as StoredVariant[],
      ).map((v) => ({ sku: v.sku || null, keys: v.variant_Key, values: v.variant_Values, stock: v.stock, gtin: null }));
      // An option with one value for every variant ("Ships From: China") tells no variant apart: it is not a variation.
      const distinct = (variants[0]?.keys ?? []).map((_, i) => new Set(variants.map((v) => v.values[i])).size > 1);
      for (const v of variants) {
        v.keys = v.keys.filter((_, i) => distinct[i]);
        v.values = v.values.filter((_, i) => distinct[i]);
      }
      const ownAttrs = ((p.cateInfo as { attrs?: CateAttr[] } | null)?.attrs ?? []).map((a) => ({
        nameId: a.nameId ?? a.id ?? "",
        valueId: a.valueId ?? null,
        value: a.value ?? a.valueName ?? null,
      }));
      const product: PreflightProduct = {
        title: (p.title ?? {}) as Record<string, string>,
        description: (p.description ?? {}) as Record<string, string>,
        price: p.price,
        currency: p.currency,
        images: (Array.isArray(p.images) ? p.images : []) as string[],
        imageSizes,
        weight: p.weight,
        size: p.size,
        brand: request.brand ?? p.brand,
        variants: variants.map((v) => ({ sku: v.sku ?? null, keys: v.keys ?? [], values: v.values ?? [], gtin: v.gtin ?? null })),
        attrs: ownAttrs,
      };
      const plans: ListingPlan[] = [];
      for (const account of accounts) {
        const shop = shops.find((s) => s.id === account.id)!;
        const cateId = cateOf(p, categorySite(account));
        const category = cateId ? (categories.get(`${categorySite(account)}|${cateId}`) ?? null) : null;
        const attributes = category?.attributes ?? [];
        const requestAttrs = requested.get(categorySite(account))?.attrs ?? [];
        const shopCharts = attributes.some((a) => a.id === SIZE_GRID_ID) ? chartsOf(shop.groupId, account.site) : undefined;
        const result = preflight({
          product,
          site: account.site as MeliSiteNumber,
          isCbt: shop.isCbt,
          category,
          attributes,
          shop: {
            adjustRate: shop.adjustRate === null ? null : Number(shop.adjustRate),
            tinyPrice: shop.tinyPrice === null ? null : Number(shop.tinyPrice),
            limitMinPrice: shop.limitMinPrice === null ? null : Number(shop.limitMinPrice),
            limitMaxPrice: shop.limitMaxPrice === null ? null : Number(shop.limitMaxPrice),
            overPrice: shop.overPrice === null ? null : Number(shop.overPrice),
          },
          minMargin: shop.minMargin,
          rates,
          request: { ...request, attrs: requestAttrs },
          translationConfigured: translate,
          gtinAvailable,
          ...feeInput(cateId ? fees.get(`${categorySite(account)}|${cateId}`) : undefined, request.listingType),
          // The rule for the parcel's weight; none (no rules pulled, or none covers the weight): the pre-flight refuses.
          freight: freightFor(freightRules.get(categorySite(account)) ?? [], packageOf(product, request).weight)?.freight ?? null,
          sizeCharts: shopCharts,
        });
        const price = result.price;
        const values = new Map<string, ItemAttribute>();
        for (const a of ownAttrs)
          if (a.nameId)
            values.set(a.nameId, a.valueId ? { id: a.nameId, value_id: a.valueId } : { id: a.nameId, value_name: a.value ?? "" });
        for (const a of requestAttrs)
          values.set(a.id, a.valueId ? { id: a.id, value_id: a.valueId } : { id: a.id, value_name: a.valueName ?? "" });
        if (product.brand && attributes.some((x) => x.id === "BRAND") && !values.has("BRAND"))
          values.set("BRAND", { id: "BRAND", value_name: product.brand });
        // The package, where the category asks for it (global selling does): the request's override or the product's.
        const pack = packageOf(product, request);
        const packageValues: Record<string, string | null> = {
          PACKAGE_LENGTH: pack.sides ? `${pack.sides[0]} cm` : null,
          PACKAGE_WIDTH: pack.sides ? `${pack.sides[1]} cm` : null,
          PACKAGE_HEIGHT: pack.sides ? `${pack.sides[2]} cm` : null,
          PACKAGE_WEIGHT: pack.weight !== null ? `${pack.weight} g` : null,
        };
        for (const [id, value] of Object.entries(packageValues))
          if (value && attributes.some((x) => x.id === id) && !values.has(id)) values.set(id, { id, value_name: value });
        // The condition, where the category asks it as an attribute (global selling does): new, as the body's condition.
        const condition = attributes.find((x) => x.id === "ITEM_CONDITION" && !x.tags.includes("hidden"));
        if (condition && !values.has(condition.id)) {
          const isNew = condition.values.find((v) => /^(new|nuevo|novo)$/i.test(v.name));
          values.set(condition.id, isNew ? { id: condition.id, value_id: isNew.id } : { id: condition.id, value_name: "Nuevo" });
        }
        const stockOf = (own: number | null | undefined) =>
          request.isForceReplaceStock && request.stock != null ? request.stock : (own ?? request.stock ?? 1);
        const combinable =
          variants.length > 1 &&
          variants.every((v) => (v.keys ?? []).length > 0 && (v.keys ?? []).every((k) => variationAttributeOf(k, attributes)));
        // The size chart's row of each variation (SIZE_GRID_ROW_ID goes on the variation, as Mercado Libre wants it):
        // the row of its size when the variations differ by size, else the item's chosen row for every one.
        const chart = shopCharts?.find((c) => c.chartId === (values.get(SIZE_GRID_ID)?.value_name ?? values.get(SIZE_GRID_ID)?.value_id));
        const itemRow = values.get(SIZE_GRID_ROW_ID);
        const variantRows = combinable && chart ? variantSizeRows(chart, variants, attributes) : null;
        const rowOf = (i: number): ItemAttribute[] => {
          const id = variantRows ? variantRows[i].rowId : (itemRow?.value_name ?? itemRow?.value_id ?? null);
          return id ? [{ id: SIZE_GRID_ROW_ID, value_name: id }] : [];
        };
        if (combinable && shopCharts) values.delete(SIZE_GRID_ROW_ID);
        plans.push({
          site: account.site,
          accountId: account.id,
          cateId,
          cateName: category?.name ?? null,
          problems: result.problems,
          priceContent: price,
          gtinNeeded: result.gtinNeeded,
          // A global item's own title is English (Mercado Libre's global content); each site gets its own title.
          globalTitle: isCbt.get(account.id)
            ? cutTitle(
                framedTitle(product.title.en ?? result.title ?? "", request.prefixTitle, request.suffixTitle),
                category?.maxTitleLength ?? 60,
              ) || null
            : null,
          // No title in the site's language but a translation service: the job translates it before sending.
          translate:
            !result.title && translate
              ? { text: sourceTitle(product.title, result.language), to: result.language, max: category?.maxTitleLength ?? 60 }
              : null,
          item:
            price && (result.title || translate)
              ? {
                  title: result.title ?? "",
                  categoryId: cateId!,
                  price: moneyNumber(price.price, price.currency),
                  currency: price.currency,
                  stock: stockOf(p.stock),
                  listingType: request.listingType,
                  pictures: usablePictures(product.images, imageSizes).slice(0, category?.maxPictures ?? 10),
                  attributes: [...values.values()].filter((a) => a.value_id || a.value_name),
                  variants: combinable
                    ? variants.map((v, n) => ({
                        ...(shopCharts ? { attributes: rowOf(n) } : {}),
                        combinations: (v.keys ?? []).map((k, i) => ({
                          id: variationAttributeOf(k, attributes)!.id,
                          value_name: v.values?.[i] ?? "",
                        })),
                        price: moneyNumber(price.price, price.currency),
                        stock: stockOf(v.stock),
                        sku: v.sku ?? null,
                        gtin: v.gtin ?? null,
                        pictures: [],
                      }))
                    : [],
                  sku: p.sku,
                  gtin: null,
                  warranty: { type: request.warrantType ?? null, days: request.warrantyDay ?? null },
                  description: plainDescription(
                    [request.prefixDescription, descriptionIn(product.description ?? {}, result.language), request.suffixDescription]
                      .filter(Boolean)
                      .join("\n"),
                  ),
                  freeShipping: false,
                }
              : null,
        });
      }
      out.set(p.id, plans);
    }
    return out;
  };
}

/** The title a translation starts from: Chinese, English, Spanish, Portuguese, else any. */
function sourceTitle(titles: Record<string, string>, target: string): { from: string | null; text: string } {
  for (const from of ["zh", "en", "es", "pt", ...Object.keys(titles)]) {
    const text = titles[from]?.trim();
    if (from !== target && text) return { from, text };
  }
  return { from: null, text: "" };
}

function descriptionIn(d: Record<string, string>, language: string): string {
  return d[language] ?? d.en ?? Object.values(d)[0] ?? "";
}
