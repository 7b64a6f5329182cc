// The worked example of docs/decisions.md "Publish price" as the formula's input: the price test asserts the formula's
// answer to it, and the console's preview test formats that answer (so neither restates the other's numbers).
import type { SitePriceInput } from "./price.ts";

export const WORKED_EXAMPLE: SitePriceInput = {
  site: 1,
  price: "100.00",
  currency: "CNY",
  rates: [
    { code: "CNY", rate: "1" },
    { code: "MXN", rate: "0.395" },
    { code: "USD", rate: "7.1" },
    { code: "CLP", rate: "0.0076" },
    { code: "COP", rate: "0.00177" },
  ],
  shop: { adjustRate: 1.5, tinyPrice: 0.99, limitMinPrice: 100, limitMaxPrice: 2000, overPrice: 20 },
  category: { classicFee: "13.50", premiumFee: "17.50" },
  listingType: "gold_special",
  fixedFee: { amount: 25, under: 299 },
  listingFee: 0,
  isContainsFreight: true,
  freight: "45.50",
};
