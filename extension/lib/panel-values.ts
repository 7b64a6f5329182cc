// The side panel's form values without their rules (panel-form.ts holds the zod rules, loaded only when saving): the
// fields as typed (text), made from a stored product or, before it is stored, from the collected page's product (the
// editable core the panel shows at once: images, titles, price), and the seller's edits of that core carried over to
// the stored product when it arrives. A product's fields become the form's text as in the console's editor (the shared
// product form, shared/publish/product-form.ts). Free of zod: it is part of the panel's first chunk.
import type { ProductDetail } from "#shared/contract/product.ts";
import {
  categoryValuesOf,
  editLanguagesOf,
  imagesOf,
  mainImageAmong,
  numberTextOf,
  textsIn,
  TITLE_MAX,
} from "#shared/publish/product-form.ts";

export const languageNames: Record<string, string> = { zh: "中文", es: "西语", pt: "葡语", en: "英语" };

export type AttrValue = { valueId: string | null; value: string };
type VariantRow = { kvId: string; values: string[]; price: string; stock: string; sku: string | null; images: string[] };

export type PanelValues = {
  titles: Record<string, string>;
  price: string;
  currency: string;
  stock: string;
  weight: string;
  size: string;
  images: string[];
  mainImage: string;
  /** The category's site ("" while none), id and full name. */
  site: string;
  cateId: string;
  categoryName: string;
  /** The category's attribute values by attribute id. */
  attrs: Record<string, AttrValue>;
  variants: VariantRow[];
};

/**
 * The editable core of a product page's collected product, kept by the worker from the collect message on (before the
 * server has stored anything): what the panel shows while the product is being made.
 */
export type ProductCore = {
  platform: string;
  itemId: string;
  title: Record<string, string>;
  images: string[];
  price: number | null;
  currency: string | null;
  stock: number | null;
};

/** At most this many images and title characters travel in a core (the page's own limits are far above). */
const CORE_IMAGES = 50;

/** The core of a collected product (the collect message's body, as the protocol checked it). */
export function coreOf(p: {
  platform: string;
  itemId: string;
  title: Record<string, string>;
  images: string[];
  price?: number | null;
  currency?: string | null;
  stock?: number | null;
}): ProductCore {
  return {
    platform: p.platform,
    itemId: p.itemId,
    title: Object.fromEntries(Object.entries(p.title).map(([l, t]) => [l, t.slice(0, TITLE_MAX)])),
    images: [...new Set(p.images)].slice(0, CORE_IMAGES),
    price: p.price ?? null,
    currency: p.currency ?? null,
    stock: p.stock ?? null,
  };
}

const titlesOf = (title: Record<string, string>) => textsIn(editLanguagesOf(title), title);

export function valuesOf(d: ProductDetail): PanelValues {
  const images = imagesOf(d);
  const attrs: Record<string, AttrValue> = {};
  for (const a of d.cateInfo?.attrs ?? []) attrs[a.nameId] = { valueId: a.valueId ?? null, value: a.value ?? "" };
  return {
    titles: titlesOf(d.title),
    price: numberTextOf(d.price),
    currency: d.currency ?? "",
    stock: numberTextOf(d.stock),
    weight: numberTextOf(d.weight),
    size: d.size ?? "",
    images,
    mainImage: mainImageAmong(images, d.image) ?? "",
    ...categoryValuesOf(d),
    attrs,
    variants: d.variantModel.items.map((i) => ({
      kvId: i.kvId,
      values: i.values,
      price: numberTextOf(i.price),
      stock: numberTextOf(i.stock),
      sku: i.sku,
      images: i.images,
    })),
  };
}

/** The form's values from a collected product's core (no category, weight or variants until the product is stored). */
export function coreValues(c: ProductCore): PanelValues {
  return {
    titles: titlesOf(c.title),
    price: numberTextOf(c.price),
    currency: c.currency ?? "",
    stock: numberTextOf(c.stock),
    weight: "",
    size: "",
    images: c.images,
    mainImage: c.images[0] ?? "",
    site: "",
    cateId: "",
    categoryName: "",
    attrs: {},
    variants: [],
  };
}

/**
 * The stored product's values with the seller's edits made since `shown` (the values the form started from) kept: a
 * field the seller changed keeps the seller's value, every other field takes the stored one. The main image stays
 * only when the stored product has it.
 */
export function withEdits(shown: PanelValues, edited: PanelValues, stored: PanelValues): PanelValues {
  const out = { ...stored } as Record<keyof PanelValues, unknown>;
  for (const key of Object.keys(stored) as (keyof PanelValues)[]) {
    if (edited[key] !== shown[key]) out[key] = edited[key];
  }
  const next = out as PanelValues;
  // Titles by language: a language the seller typed in keeps the seller's text.
  if (edited.titles !== shown.titles) {
    next.titles = { ...stored.titles };
    for (const [lang, text] of Object.entries(edited.titles)) if (text !== (shown.titles[lang] ?? "")) next.titles[lang] = text;
  }
  if (!next.images.includes(next.mainImage)) next.mainImage = next.images[0] ?? "";
  return next;
}

/** Moves the image at `from` one place left (-1) or right (+1). */
export function moveImage(images: string[], from: number, by: -1 | 1): string[] {
  const to = from + by;
  if (to < 0 || to >= images.length) return images;
  const next = [...images];
  [next[from], next[to]] = [next[to], next[from]];
  return next;
}

/** The languages one click translates into: the empty ones of es / pt / en, or all three when none is empty. */
export function translateTargets(titles: Record<string, string>): ("es" | "pt" | "en")[] {
  const all = ["es", "pt", "en"] as const;
  const empty = all.filter((l) => !titles[l]?.trim());
  return empty.length ? [...empty] : [...all];
}

/** The language translated from: Chinese when there is a Chinese title, else the first non-empty one. */
export function translateSource(titles: Record<string, string>): string | null {
  if (titles.zh?.trim()) return "zh";
  return Object.keys(titles).find((l) => titles[l]?.trim()) ?? null;
}
