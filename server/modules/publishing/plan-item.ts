// One product × site's plan from its pre-flight result: the item to send (title, price, stock, pictures, attributes,
// variations with their size chart rows, description), its global title and what is left to translate.
import type { CategoryAttribute } from "#shared/contract/category.ts";
import type { PublishRequest } from "#shared/contract/publish.ts";
import { SIZE_GRID_ID, SIZE_GRID_ROW_ID } from "#shared/contract/size-charts.ts";
import {
  cutTitle,
  framedTitle,
  packageOf,
  usablePictures,
  variantSizeRows,
  variationAttributeOf,
  type PreflightProduct,
  type PreflightResult,
  type PreflightSizeChart,
} from "#shared/publish/preflight.ts";
import { moneyNumber } from "#shared/publish/price.ts";
import { plainDescription, type ItemAttribute } from "./item-body.ts";
import type { PlanCategory, ProductRow } from "./plan-reads.ts";
import type { ListingPlan, ShopAccount } from "./types.ts";

/** A variant with its option names and value names in option order. */
export type Variant = { sku: string | null; keys: string[]; values: string[]; stock: number | null; gtin: string | null };
export type OwnAttr = { nameId: string; valueId: string | null; value: string | null };
type RequestAttr = PublishRequest["cateInfo"][number]["attrs"][number];

/** One pair to plan: the product as the pre-flight read it, the shop's account and category, the pre-flight's result. */
export type Pair = {
  p: ProductRow;
  product: PreflightProduct;
  variants: Variant[];
  ownAttrs: OwnAttr[];
  request: PublishRequest;
  account: ShopAccount;
  isCbt: boolean;
  cateId: string | null;
  category: PlanCategory | null;
  attributes: CategoryAttribute[];
  requestAttrs: RequestAttr[];
  shopCharts: PreflightSizeChart[] | undefined;
  result: PreflightResult;
  translate: boolean;
};

/**
 * The item's attributes: the product's own, the request's over them, the brand, the package and the condition where
 * the category asks for them.
 */
function itemAttributes(x: Pair): Map<string, ItemAttribute> {
  const { product, request, attributes } = x;
  const values = new Map<string, ItemAttribute>();
  for (const a of x.ownAttrs)
    if (a.nameId) values.set(a.nameId, a.valueId ? { id: a.nameId, value_id: a.valueId } : { id: a.nameId, value_name: a.value ?? "" });
  for (const a of x.requestAttrs)
    values.set(a.id, a.valueId ? { id: a.id, value_id: a.valueId } : { id: a.id, value_name: a.valueName ?? "" });
  if (product.brand && attributes.some((a) => a.id === "BRAND") && !values.has("BRAND"))
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
    if (value && attributes.some((a) => a.id === id) && !values.has(id)) values.set(id, { id, value_name: value });
  // The condition, where the category asks it as an attribute (global selling does): new, as the body's condition.
  const condition = attributes.find((a) => a.id === "ITEM_CONDITION" && !a.tags.includes("hidden"));
  if (condition && !values.has(condition.id)) {
    const isNew = condition.values.find((v) => /^(new|nuevo|novo)$/i.test(v.name));
    values.set(condition.id, isNew ? { id: condition.id, value_id: isNew.id } : { id: condition.id, value_name: "Nuevo" });
  }
  return values;
}

export function pairPlan(x: Pair): ListingPlan {
  const { p, product, variants, request, account, cateId, category, attributes, shopCharts, result, translate } = x;
  const price = result.price;
  const values = itemAttributes(x);
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
  return {
    site: account.site,
    accountId: account.id,
    cateId,
    cateName: category?.name ?? null,
    problems: result.problems,
    priceContent: price,
    gtinNeeded: result.gtinNeeded,
    // A global item's own title is English (Mercado Libre's global content); each site gets its own title.
    globalTitle: x.isCbt
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
            pictures: usablePictures(product.images, product.imageSizes).slice(0, category?.maxPictures ?? 10),
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
