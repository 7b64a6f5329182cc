// Whether a price earns enough (issue 28 "The default price sells at a loss"): the one rule the pre-flight, the side
// panel and the order list colour a margin by. The margin % is the share of the price the buyer pays that the seller
// keeps after fees, freight and cost (price.ts `marginPercent`; an order's profit ÷ its amount), compared with the
// shop's minimum margin (minMargin, a percent; not set: DEFAULT_MIN_MARGIN). Pure: no server or DOM imports.
import { parseDecimal, type Decimal } from "./price.ts";

/** The minimum margin of a shop that set none, in % of the price. */
export const DEFAULT_MIN_MARGIN = 10;

/** How far automatic repricing moves a price in a day at most, in %, when the shop set no bound (issue 32). */
export const AUTO_REPRICE_DEFAULT_MAX_PERCENT = 5;

export type MarginStatus = "negative" | "low" | "ok";

/** The pre-flight's warning codes for a margin that is negative or under the shop's minimum. */
export const MARGIN_PROBLEM_CODES = { negative: "price.marginNegative", low: "price.marginLow" } as const;

/** The shop's minimum margin in basis points (12.5 % → 1250), the default when not set or not a percent. */
function minBasisPoints(minMargin: Decimal | null | undefined): bigint {
  const d = parseDecimal(minMargin ?? DEFAULT_MIN_MARGIN) ?? parseDecimal(DEFAULT_MIN_MARGIN)!;
  const scaled = d.scale <= 2 ? d.n * 10n ** BigInt(2 - d.scale) : d.n / 10n ** BigInt(d.scale - 2);
  return scaled;
}

/**
 * negative: the seller loses money (margin < 0); low: margin ÷ price under the minimum; ok otherwise. `margin` and
 * `price` are in one unit: minor units (a price breakdown), or amounts with at most 2 decimals (an order's profit and
 * amount). A price of 0 is "low" unless the minimum is 0 (nothing is earned).
 */
export function marginStatus(margin: number, price: number, minMargin: Decimal | null | undefined): MarginStatus {
  if (margin < 0) return "negative";
  const min = minBasisPoints(minMargin);
  if (min === 0n) return "ok";
  const cents = (x: number) => BigInt(Math.round(x * 100));
  return price <= 0 || cents(margin) * 10_000n < min * cents(price) ? "low" : "ok";
}

/** margin ÷ price in % with 2 decimals, half away from zero ("12.34"; "0.00" for no price): an order's margin %. */
export function marginPercentOf(margin: number, price: number): string {
  const cents = (x: number) => BigInt(Math.round(x * 100));
  const den = cents(price);
  if (den <= 0n) return "0.00";
  const num = cents(margin) * 10_000n;
  const neg = num < 0n;
  const abs = neg ? -num : num;
  const q = abs / den + ((abs % den) * 2n >= den ? 1n : 0n);
  const s = q.toString().padStart(3, "0");
  return `${neg && q !== 0n ? "-" : ""}${s.slice(0, -2)}.${s.slice(-2)}`;
}

/** The effective minimum margin as the screens show it ("10"、"12.5"). */
export const minMarginText = (minMargin: Decimal | null | undefined) => {
  const bp = minBasisPoints(minMargin);
  const whole = bp / 100n;
  const cents = bp % 100n;
  return cents === 0n ? whole.toString() : `${whole}.${cents.toString().padStart(2, "0").replace(/0$/, "")}`;
};

/** The Chinese warning for a status other than ok (the pre-flight's message, the side panel's and the order list's). */
export function marginWarning(status: MarginStatus, marginPercent: string, minMargin: Decimal | null | undefined): string | null {
  if (status === "negative") return `利润为负（${marginPercent}%），刊登后每单亏损，请调整店铺定价规则`;
  if (status === "low") return `利润率${marginPercent}%低于店铺最低利润率${minMarginText(minMargin)}%`;
  return null;
}

/** Whether a pre-flight problem is one of the margin warnings. */
export const isMarginProblem = (code: string) => code === MARGIN_PROBLEM_CODES.negative || code === MARGIN_PROBLEM_CODES.low;

/** A pair's margin warning (a loss, or under the shop's minimum) among its problems, null when the margin is fine. */
export const marginWarningOf = (problems: readonly { code: string; message: string }[]): string | null =>
  problems.find((x) => isMarginProblem(x.code))?.message ?? null;
