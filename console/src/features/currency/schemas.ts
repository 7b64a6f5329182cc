// The currency form: the contract's rules for code, name and rate (the server validates with the same ones).
import { z } from "zod";
import { BASE_CURRENCY, createOrUpdateCurrencyInput, type Currency } from "#shared/contract/settings.ts";

// The contract's rate accepts a number or a string and answers the trimmed decimal string; the form always has text.
const rateRule = createOrUpdateCurrencyInput.shape.rate as unknown as z.ZodType<string, string>;

export const currencyForm = z.object({
  code: createOrUpdateCurrencyInput.shape.code,
  zh: createOrUpdateCurrencyInput.shape.zh,
  rate: z.string().pipe(rateRule),
});
export type CurrencyFormValues = z.input<typeof currencyForm>;

export const emptyCurrencyValues: CurrencyFormValues = { code: "", zh: "", rate: "" };

export const currencyValuesOf = (c: Currency): CurrencyFormValues => ({ code: c.code, zh: c.zh, rate: c.rate });

export const isBaseCurrency = (c: Pick<Currency, "code"> | null | undefined) => c?.code === BASE_CURRENCY;

/** "1 USD = 7.1 CNY". */
export const rateText = (c: Pick<Currency, "code" | "rate">) => `1 ${c.code} = ${c.rate} ${BASE_CURRENCY}`;

/** Case-insensitive match on code or Chinese name. */
export function filterCurrencies(list: Currency[], search: string): Currency[] {
  const s = search.trim().toLowerCase();
  if (!s) return list;
  return list.filter((c) => c.code.toLowerCase().includes(s) || c.zh.toLowerCase().includes(s));
}
