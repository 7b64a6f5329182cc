// An order's profit (issue 18): sale price − sale fee − freight − product cost, in the order's currency, exactly: money
// is integer minor units (centavos; whole pesos for CLP and COP) with bigint arithmetic from decimal strings, and a
// conversion through the currency rates (CNY for one unit, as the settings store them) is rounded half up once, on
// the total, as the publish price formula converts (shared/publish/price.ts). Pure: no database, no marketplace.
import { currencyDecimals, formatMoney, parseDecimal, toMinor, type Decimal } from "#shared/publish/price.ts";
import type { ProfitBreakdown } from "#shared/contract/orders.ts";

type ProfitLine = {
  quantity: number;
  /** Mercado Libre's unit price and its sale fee per unit, in the order's currency. */
  unitPrice: Decimal;
  saleFee: Decimal;
  /** The linked product's price and currency; null when the line has no product (or the product no price). */
  productPrice: Decimal | null;
  productCurrency: string | null;
  /** What names the line in `missing` (the item id). */
  label: string;
  /** The line marked bought (issue 32): what it cost, all its quantity, in minor units of its currency; it is the line's cost. */
  purchase?: { cost: number; currency: string } | null;
};

export type ProfitInput = {
  currency: string;
  lines: ProfitLine[];
  /** The order's share of what the seller pays for its shipment (0 when the buyer pays it), in the order's currency. */
  freight: Decimal;
  rates: readonly { code: string; rate: Decimal }[];
};

/** n / d rounded half up (away from zero); d > 0. */
function halfUp(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  return (r < 0n ? -r : r) * 2n >= d ? (n < 0n ? q - 1n : q + 1n) : q;
}

const pow10 = (k: number) => 10n ** BigInt(k);

/** The seller's share of a shipment: its cost × this order's total ÷ the shipment's orders' total (half up). */
export function freightShare(sellerCost: Decimal, orderTotal: Decimal, shipmentTotal: Decimal | null, currency: string): number {
  const cost = toMinor(sellerCost, currency) ?? 0;
  const mine = toMinor(orderTotal, currency) ?? 0;
  const all = shipmentTotal === null ? null : toMinor(shipmentTotal, currency);
  if (!all || all <= mine) return cost;
  return Number(halfUp(BigInt(cost) * BigInt(mine), BigInt(all)));
}

export function orderProfit(
  input: ProfitInput,
): ProfitBreakdown & { minor: Record<"salePrice" | "saleFee" | "freight" | "productCost" | "profit", number> } {
  const currency = input.currency.toUpperCase();
  const decimals = currencyDecimals(currency);
  const missing: string[] = [];
  const rateOf = (code: string) => {
    const r = input.rates.find((x) => x.code.toUpperCase() === code.toUpperCase());
    const d = parseDecimal(r?.rate);
    return d && d.n > 0n ? { d, text: String(r!.rate) } : null;
  };
  const used = new Map<string, string>();
  const to = rateOf(currency);
  if (to) used.set(currency, to.text);

  let salePrice = 0n;
  let saleFee = 0n;
  // Product cost per product currency first (decimal, exact), converted once per currency.
  const costByCurrency = new Map<string, { n: bigint; scale: number }>();
  for (const l of input.lines) {
    const q = BigInt(l.quantity);
    salePrice += BigInt(toMinor(l.unitPrice, currency) ?? 0) * q;
    saleFee += BigInt(toMinor(l.saleFee, currency) ?? 0) * q;
    const bought = l.purchase ? l.purchase.currency.trim().toUpperCase() : "";
    const price = bought ? { n: BigInt(l.purchase!.cost), scale: currencyDecimals(bought) } : parseDecimal(l.productPrice);
    const pc = bought || (l.productCurrency ?? "").trim().toUpperCase();
    // A purchase is the whole line's cost; a product price is per unit.
    const units = bought ? 1n : q;
    if (!price || !pc) {
      missing.push(`${l.label}：未关联商品或商品没有价格，成本按 0 计`);
      continue;
    }
    const sum = costByCurrency.get(pc) ?? { n: 0n, scale: 0 };
    const scale = Math.max(sum.scale, price.scale);
    costByCurrency.set(pc, { n: sum.n * pow10(scale - sum.scale) + price.n * units * pow10(scale - price.scale), scale });
  }
  let productCost = 0n;
  for (const [pc, sum] of costByCurrency) {
    const from = rateOf(pc);
    if (!from || !to) {
      missing.push(`没有${!from ? pc : currency}的汇率，该币种商品成本按 0 计`);
      continue;
    }
    used.set(pc, from.text);
    // sum × from ÷ to, in minor units of the order's currency, half up.
    productCost += halfUp(sum.n * from.d.n * pow10(decimals) * pow10(to.d.scale), pow10(sum.scale) * pow10(from.d.scale) * to.d.n);
  }
  const freight = BigInt(toMinor(input.freight, currency) ?? 0);
  const profit = salePrice - saleFee - freight - productCost;
  // The profit in CNY (2 decimals), through the order currency's rate.
  const profitCny = to ? Number(formatMoney(Number(halfUp(profit * to.d.n * 100n, pow10(decimals) * pow10(to.d.scale))), "CNY")) : null;
  const num = (minor: bigint) => Number(formatMoney(Number(minor), currency));
  return {
    currency,
    salePrice: num(salePrice),
    saleFee: num(saleFee),
    freight: num(freight),
    productCost: num(productCost),
    profit: num(profit),
    profitCny,
    rates: [...used].map(([code, rate]) => ({ code, rate })),
    complete: missing.length === 0,
    missing,
    minor: {
      salePrice: Number(salePrice),
      saleFee: Number(saleFee),
      freight: Number(freight),
      productCost: Number(productCost),
      profit: Number(profit),
    },
  };
}
