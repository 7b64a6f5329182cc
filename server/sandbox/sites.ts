// The five sites the product sells on, with what the sandbox needs of each: language of its texts, currency, the
// minimum prices its categories draw from, and the fixed fee charged on cheap items.

export const SITE_IDS = ["MLM", "MLB", "MLC", "MCO", "CBT"] as const;
export type SiteId = (typeof SITE_IDS)[number];
export const LOCAL_SITES = ["MLM", "MLB", "MLC", "MCO"] as const satisfies readonly SiteId[];
export type LocalSiteId = (typeof LOCAL_SITES)[number];
export type Language = "es" | "pt" | "en";

export type SiteInfo = {
  id: SiteId;
  name: string;
  countryId: string;
  currency: string;
  language: Language;
  /** Units of the currency per US dollar, for net proceeds of global items. */
  perUsd: number;
  /** Category minimum prices are drawn from these. */
  minimumPrices: number[];
  /** Under this price a sale also pays fixedFee. */
  fixedFeeUnder: number;
  fixedFee: number;
  /** Whole units only (CLP, COP have no cents). */
  wholeUnits: boolean;
  permalinkHost: string;
};

export const SITES: Record<SiteId, SiteInfo> = {
  MLM: {
    id: "MLM",
    name: "Mexico",
    countryId: "MX",
    currency: "MXN",
    language: "es",
    perUsd: 17,
    minimumPrices: [10, 35, 60, 100],
    fixedFeeUnder: 299,
    fixedFee: 25,
    wholeUnits: false,
    permalinkHost: "articulo.mercadolibre.com.mx",
  },
  MLB: {
    id: "MLB",
    name: "Brasil",
    countryId: "BR",
    currency: "BRL",
    language: "pt",
    perUsd: 5,
    minimumPrices: [5, 8, 10, 20],
    fixedFeeUnder: 79,
    fixedFee: 6.25,
    wholeUnits: false,
    permalinkHost: "produto.mercadolivre.com.br",
  },
  MLC: {
    id: "MLC",
    name: "Chile",
    countryId: "CL",
    currency: "CLP",
    language: "es",
    perUsd: 930,
    minimumPrices: [1000, 2000, 3500],
    fixedFeeUnder: 9990,
    fixedFee: 700,
    wholeUnits: true,
    permalinkHost: "articulo.mercadolibre.cl",
  },
  MCO: {
    id: "MCO",
    name: "Colombia",
    countryId: "CO",
    currency: "COP",
    language: "es",
    perUsd: 4000,
    minimumPrices: [5000, 10000, 15000],
    fixedFeeUnder: 40000,
    fixedFee: 2500,
    wholeUnits: true,
    permalinkHost: "articulo.mercadolibre.com.co",
  },
  CBT: {
    id: "CBT",
    name: "Global Selling",
    countryId: "CN",
    currency: "USD",
    language: "en",
    perUsd: 1,
    minimumPrices: [1, 2, 5],
    fixedFeeUnder: 0,
    fixedFee: 0,
    wholeUnits: false,
    permalinkHost: "global-selling.mercadolibre.com",
  },
};

export function isSiteId(value: string): value is SiteId {
  return (SITE_IDS as readonly string[]).includes(value);
}

export function isLocalSite(value: string): value is LocalSiteId {
  return (LOCAL_SITES as readonly string[]).includes(value);
}

export const LISTING_TYPES = ["gold_pro", "gold_special", "free"] as const;
export type ListingTypeId = (typeof LISTING_TYPES)[number];

const listingTypeNames: Record<Language, Record<ListingTypeId, string>> = {
  es: { gold_pro: "Premium", gold_special: "Clásica", free: "Gratuita" },
  pt: { gold_pro: "Premium", gold_special: "Clássico", free: "Grátis" },
  en: { gold_pro: "Premium", gold_special: "Classic", free: "Free" },
};

/** Global items list as classic or premium only. */
export function listingTypesOf(site: SiteId): ListingTypeId[] {
  return site === "CBT" ? ["gold_pro", "gold_special"] : [...LISTING_TYPES];
}

export function listingTypeName(site: SiteId, id: ListingTypeId): string {
  return listingTypeNames[SITES[site].language][id];
}

/** Rounds a price the way the site's currency is written. */
export function roundPrice(site: SiteId, value: number): number {
  return SITES[site].wholeUnits ? Math.round(value) : Math.round(value * 100) / 100;
}
