// Plans each product × site of a publish before anything is sent: reads what the selection needs (plan-reads.ts), then
// runs the shared pre-flight check and price formula (shared/publish/) on every pair and builds the item each pair
// would send (plan-item.ts).
import type { SecretBox } from "../../security/secrets.ts";
import type { MeliSiteNumber } from "#shared/contract/meli.ts";
import { SIZE_GRID_ID } from "#shared/contract/size-charts.ts";
import { packageOf, preflight, type PreflightProduct } from "#shared/publish/preflight.ts";
import { withoutConstantOptions } from "#shared/publish/variations.ts";
import { freightFor } from "#shared/contract/freight.ts";
import type { PublishRequest } from "#shared/contract/publish.ts";
import { toVariantItems, type StoredOption, type StoredVariant } from "../products/index.ts";
import { feeInput } from "./fees.ts";
import { pairPlan, type OwnAttr, type Variant } from "./plan-item.ts";
import { readPlanInputs, type PlanInputs, type ProductRow } from "./plan-reads.ts";
import type { ListingPlan, Planner, PlannerFreight } from "./types.ts";
import { turnPause } from "../../turns.ts";

type CateAttr = { nameId?: string; id?: string; valueId?: string | null; value?: string | null; valueName?: string | null };

/** A product as the pre-flight reads it: its variants (told apart by their options), its own attributes, the request's overrides. */
function productOf(p: ProductRow, request: PublishRequest, imageSizes: PlanInputs["imageSizes"]) {
  // Variants as the wire names them: option names (keys) and value names in option order.
  // An option with one value for every variant ("Ships From: China") tells no variant apart: it is not a variation.
  const variants: Variant[] = withoutConstantOptions(
    toVariantItems(
      (Array.isArray(p.options) ? p.options : []) as StoredOption[],
      (Array.isArray(p.variants) ? p.variants : []) as StoredVariant[],
    ).map((v) => ({ sku: v.sku || null, keys: v.variant_Key, values: v.variant_Values, stock: v.stock, gtin: null })),
  );
  const ownAttrs: OwnAttr[] = ((p.cateInfo as { attrs?: CateAttr[] } | null)?.attrs ?? []).map((a) => ({
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
  return { variants, ownAttrs, product };
}

export function createPlanner(secrets: SecretBox, freight: PlannerFreight): Planner {
  return async (tx, input) => {
    const { request, accounts } = input;
    const read = await readPlanInputs(tx, secrets, freight, input);
    const { shops, categories, categorySite, requested, fees, freightRules } = read;
    const out = new Map<string, ListingPlan[]>();
    // Thousands of products take seconds of pre-flight: the event loop is given back every few ms (turns.ts).
    const pause = turnPause();
    for (const p of read.rows) {
      await pause();
      const { variants, ownAttrs, product } = productOf(p, request, read.imageSizes);
      const plans: ListingPlan[] = [];
      for (const account of accounts) {
        const shop = shops.find((s) => s.id === account.id)!;
        const cateId = read.cateOf(p, categorySite(account));
        const category = cateId ? (categories.get(`${categorySite(account)}|${cateId}`) ?? null) : null;
        const attributes = category?.attributes ?? [];
        const requestAttrs = requested.get(categorySite(account))?.attrs ?? [];
        const shopCharts = attributes.some((a) => a.id === SIZE_GRID_ID) ? read.chartsOf(shop.groupId, account.site) : undefined;
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
          rates: read.rates,
          request: { ...request, attrs: requestAttrs },
          translationConfigured: read.translate,
          gtinAvailable: read.gtinAvailable,
          ...feeInput(cateId ? fees.get(`${categorySite(account)}|${cateId}`) : undefined, request.listingType),
          // The rule for the parcel's weight; none (no rules pulled, or none covers the weight): the pre-flight refuses.
          freight: freightFor(freightRules.get(categorySite(account)) ?? [], packageOf(product, request).weight)?.freight ?? null,
          sizeCharts: shopCharts,
        });
        plans.push(
          pairPlan({
            p,
            product,
            variants,
            ownAttrs,
            request,
            account,
            isCbt: !!read.isCbt.get(account.id),
            cateId,
            category,
            attributes,
            requestAttrs,
            shopCharts,
            result,
            translate: read.translate,
          }),
        );
      }
      out.set(p.id, plans);
    }
    return out;
  };
}
