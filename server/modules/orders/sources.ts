// The source behind every order line (issue 32). A line links to the product it was published from (order_items.
// product_id, recorded when the order was stored: by the listing, else by SKU) and the product to the collection it
// came from (products.source_collection_id). The variant is the product's variant whose SKU the line carries (the
// publisher sends each variant's SKU as the variation's SELLER_SKU, and a collected variant's SKU is the source
// platform's sku id), else the one whose option values the variation's attributes name, else the product's only
// variant; the source's variant is the collection's with that SKU (or those option values). One statement reads the
// lines of every order matching a filter with all of it, the variant picked in SQL (laterals over the jsonb arrays),
// so a list is one query whatever its size.
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { currencies, orders } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { notFound } from "../../http/errors.ts";
import { purchaseUrlOf, type OrderLineSource, type OrderSourceLine, type OrderSources } from "#shared/contract/order-sources.ts";
import type { SourceMargin } from "#shared/contract/orders.ts";
import { formatMoney } from "#shared/publish/price.ts";
import { orderProfit } from "./profit.ts";

/** An order line with what its source says, as the statement answers it. */
export type SourceRow = {
  orderId: string;
  orderNo: string;
  orderCurrency: string;
  freightFee: string;
  line: number;
  itemId: string;
  variationId: string | null;
  title: string;
  thumb: string | null;
  quantity: number;
  unitPrice: string;
  saleFee: string;
  sku: string | null;
  vkes: string[];
  purchaseCost: string | null;
  purchaseCurrency: string | null;
  purchaseOrderNo: string | null;
  purchaseTime: string | null;
  productId: string | null;
  collectionId: string | null;
  platformType: number | null;
  offerUrl: string | null;
  sourceItemId: string | null;
  sourceTitle: string | null;
  sourceImage: string | null;
  shop: { id?: string; name?: string; url?: string } | null;
  productCurrency: string | null;
  sourceCurrency: string | null;
  variantSku: string | null;
  variantValues: string[] | null;
  variantImage: string | null;
  variantMatch: "sku" | "values" | "only" | null;
  collectedPrice: string | null;
  lastKnownPrice: string | null;
};

/** A jsonb value as an array (anything else: empty). */
const arr = (v: string) => `(case when jsonb_typeof(${v}) = 'array' then ${v} else '[]'::jsonb end)`;
/** The name of option value id `vid` at 1-based position `n` of the product's options (else the id itself). */
const valueName = (options: string, n: string, vid: string) =>
  `coalesce((select e->>'name' from jsonb_array_elements(${arr(`${options}->(${n}::int - 1)->'values'`)}) e where e->>'id' = ${vid} limit 1), ${vid})`;

/**
 * Every line of the orders matching `where` (a condition on "orders"), in order and line order, with its source;
 * at most `limit` lines.
 */
export async function sourceRows(tx: Tx, where: SQL, limit: number): Promise<SourceRow[]> {
  const pv = "pv.v";
  // The variation's values ("Color: Rojo" → "rojo") all among the variant's value names.
  const valuesMatch = `jsonb_array_length(${arr("i.vkes")}) > 0 and not exists (select 1 from jsonb_array_elements_text(${arr("i.vkes")}) k(t)
      where not exists (select 1 from jsonb_array_elements_text(${arr("x.v->'optionValues'")}) with ordinality ov(vid, n)
        where lower(${valueName("p.options", "ov.n", "ov.vid")}) = lower(trim(substr(k.t, strpos(k.t, ':') + 1)))))`;
  const statement = sql`
    select orders.id as "orderId", orders.meli_order_id as "orderNo", orders.currency as "orderCurrency",
      orders.freight_fee::text as "freightFee",
      i.line, i.item_id as "itemId", i.variation_id as "variationId", i.title, i.thumb, i.quantity,
      i.unit_price::text as "unitPrice", i.sale_fee::text as "saleFee", i.sku, i.vkes,
      i.purchase_cost::text as "purchaseCost", i.purchase_currency as "purchaseCurrency", i.purchase_order_no as "purchaseOrderNo",
      to_char(i.purchase_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "purchaseTime",
      p.id as "productId", c.id as "collectionId", coalesce(c.platform_type, p.platform_type) as "platformType",
      coalesce(c.source_url, p.source_url) as "offerUrl", coalesce(c.item_id, p.item_id) as "sourceItemId",
      coalesce(nullif(c.title_text, ''), nullif(p.title_text, '')) as "sourceTitle", coalesce(c.image, p.image) as "sourceImage",
      c.shop as "shop", p.currency as "productCurrency", coalesce(c.currency, p.currency) as "sourceCurrency",
      coalesce(cv.v->>'sku', ${sql.raw(pv)}->>'sku') as "variantSku",
      (select jsonb_agg(${sql.raw(valueName("p.options", "k.n", "k.vid"))} order by k.n)
        from jsonb_array_elements_text(${sql.raw(arr(`${pv}->'optionValues'`))}) with ordinality k(vid, n)) as "variantValues",
      coalesce(cv.v->>'image', ${sql.raw(pv)}->>'image') as "variantImage", pv.how as "variantMatch",
      coalesce(${sql.raw(pv)}->>'price', p.price::text) as "collectedPrice",
      coalesce(cv.v->>'price', c.price::text, ${sql.raw(pv)}->>'price', p.price::text) as "lastKnownPrice"
    from orders
    join order_items i on i.tenant_id = orders.tenant_id and i.order_id = orders.id
    left join products p on p.tenant_id = i.tenant_id and p.id = i.product_id
    left join collections c on c.tenant_id = p.tenant_id and c.id = p.source_collection_id
    left join lateral (
      select x.v, case when i.sku is not null and x.v->>'sku' = i.sku then 'sku'
          when ${sql.raw(valuesMatch)} then 'values' else 'only' end as how
      from jsonb_array_elements(${sql.raw(arr("p.variants"))}) with ordinality x(v, n)
      where (i.sku is not null and x.v->>'sku' = i.sku) or (${sql.raw(valuesMatch)}) or jsonb_array_length(${sql.raw(arr("p.variants"))}) = 1
      order by (i.sku is not null and x.v->>'sku' = i.sku) desc, (${sql.raw(valuesMatch)}) desc, x.n
      limit 1
    ) pv on true
    left join lateral (
      select y.v from jsonb_array_elements(${sql.raw(arr("c.variants"))}) with ordinality y(v, n)
      where y.v->>'sku' = coalesce(${sql.raw(pv)}->>'sku', i.sku) or y.v->'optionValues' = ${sql.raw(pv)}->'optionValues'
      order by coalesce(y.v->>'sku' = coalesce(${sql.raw(pv)}->>'sku', i.sku), false) desc, y.n
      limit 1
    ) cv on true
    where ${where}
    order by orders.order_time desc, orders.id, i.line
    limit ${limit}`;
  return rowsOf<SourceRow>(await tx.execute(statement));
}

const num = (v: string | null) => (v === null || v === "" || !Number.isFinite(Number(v)) ? null : Number(v));

/** The source of a row (null: the line has no product). */
export function sourceOf(r: SourceRow): OrderLineSource | null {
  if (!r.productId) return null;
  return {
    productId: r.productId,
    collectionId: r.collectionId,
    platformType: r.platformType,
    offerUrl: r.offerUrl,
    sourceItemId: r.sourceItemId,
    title: r.sourceTitle,
    image: r.variantImage ?? r.sourceImage,
    shopId: r.shop?.id ?? null,
    shopName: r.shop?.name ?? null,
    shopUrl: r.shop?.url ?? null,
    variant:
      r.variantSku && r.variantMatch
        ? { sku: r.variantSku, values: r.variantValues ?? [], image: r.variantImage, match: r.variantMatch }
        : null,
    purchaseUrl: purchaseUrlOf(r.platformType, r.offerUrl, r.variantSku),
    currency: r.sourceCurrency,
    collectedPrice: num(r.collectedPrice),
    lastKnownPrice: num(r.lastKnownPrice),
  };
}

/** A row's purchase as the wire shows it (the cost back in units of its currency). */
export function purchaseOf(r: Pick<SourceRow, "purchaseCost" | "purchaseCurrency" | "purchaseOrderNo" | "purchaseTime">) {
  if (r.purchaseCost === null || !r.purchaseCurrency) return null;
  return {
    cost: Number(formatMoney(Number(r.purchaseCost), r.purchaseCurrency)),
    currency: r.purchaseCurrency,
    purchaseOrderNo: r.purchaseOrderNo,
    purchaseTime: r.purchaseTime,
  };
}

export const readRates = (tx: Tx) => tx.select({ code: currencies.code, rate: currencies.rate }).from(currencies);

/** One order's margin at its sources' last known prices (bought lines at their cost), from its rows. */
export function marginOf(rows: SourceRow[], rates: Awaited<ReturnType<typeof readRates>>): SourceMargin {
  const profit = orderProfit({
    currency: rows[0].orderCurrency,
    freight: rows[0].freightFee,
    rates,
    lines: rows.map((r) => ({
      quantity: r.quantity,
      unitPrice: r.unitPrice,
      saleFee: r.saleFee,
      productPrice: r.lastKnownPrice,
      productCurrency: r.sourceCurrency,
      label: r.itemId,
      purchase: r.purchaseCost !== null && r.purchaseCurrency ? { cost: Number(r.purchaseCost), currency: r.purchaseCurrency } : null,
    })),
  });
  const m = profit.minor;
  return {
    currency: profit.currency,
    salePrice: profit.salePrice,
    cost: profit.productCost,
    profit: profit.profit,
    profitCny: profit.profitCny,
    margin: m.salePrice > 0 ? Math.round((m.profit * 1000) / m.salePrice) / 10 : null,
    complete: profit.complete,
    missing: profit.missing,
  };
}

/** The list's margins at the source: for each of these orders (of the caller's tenant, in its scope) with a line
 *  linked to a product, its margin; one statement for all their lines. */
export async function sourceMargins(tx: Tx, tenantId: string, orderIds: string[]): Promise<Map<string, SourceMargin>> {
  const out = new Map<string, SourceMargin>();
  if (!orderIds.length) return out;
  const rows = await sourceRows(tx, and(eq(orders.tenantId, tenantId), inArray(orders.id, orderIds))!, 100_000);
  const byOrder = new Map<string, SourceRow[]>();
  for (const r of rows) {
    const lines = byOrder.get(r.orderId);
    if (lines) lines.push(r);
    else byOrder.set(r.orderId, [r]);
  }
  const rates = await readRates(tx);
  for (const [orderId, lines] of byOrder) if (lines.some((l) => l.productId)) out.set(orderId, marginOf(lines, rates));
  return out;
}
