// The product editor's model, one for the console's product editor (features/products/product-editor-schema.ts) and the
// extension's side panel (lib/panel-values.ts, panel-form.ts): a stored product's fields as the form shows them (text),
// and the form's values back into CreateOrUpdateProduct's body. The rules that check the typed values are
// product-form-rules.ts (zod), apart so the side panel's first chunk stays free of zod.
import type { ProductDetail } from "../contract/product.ts";

/** The languages a product's titles are edited in, in this order; a language the product has besides follows. */
export const EDIT_LANGUAGES = ["zh", "es", "pt", "en"] as const;
export const TITLE_MAX = 1000;
export const DESCRIPTION_MAX = 500_000;
export const MAX_IMAGES = 50;

/** The edit languages, then any other language of the texts (titles, descriptions) in their order. */
export function editLanguagesOf(...texts: Record<string, string>[]): string[] {
  const extra = texts.flatMap((t) => Object.keys(t)).filter((l) => !(EDIT_LANGUAGES as readonly string[]).includes(l));
  return [...EDIT_LANGUAGES, ...new Set(extra)];
}

/** A text per language ("" where it has none). */
export const textsIn = (languages: readonly string[], texts: Record<string, string>): Record<string, string> =>
  Object.fromEntries(languages.map((l) => [l, texts[l] ?? ""]));

/** A stored number as a form field's text: "" for none. */
export function numberTextOf(v: string | number | null | undefined): string {
  if (v === null || v === undefined || v === "") return "";
  const n = Number(v);
  return Number.isFinite(n) ? String(n) : String(v);
}

/** The product's images as the form lists them: its images, else its main image alone. */
export const imagesOf = (d: Pick<ProductDetail, "images" | "image">): string[] => (d.images.length ? d.images : d.image ? [d.image] : []);

/** The main image: the one named when it is among the images, else the first (null without images). */
export const mainImageAmong = (images: readonly string[], main: string | null | undefined): string | null =>
  main && images.includes(main) ? main : (images[0] ?? null);

/** The category fields as text: the category chosen for publishing (cateInfo) over the collected one; "" for none. */
export type CategoryValues = { site: string; cateId: string; categoryName: string };

export function categoryValuesOf(d: Pick<ProductDetail, "cateInfo" | "site" | "cateId" | "categoryName"> | null): CategoryValues {
  return {
    site: String(d?.cateInfo?.site ?? d?.site ?? ""),
    cateId: d?.cateInfo?.cateId ?? d?.cateId ?? "",
    categoryName: d?.categoryName ?? "",
  };
}

/** The body's titles: trimmed, the blank ones left out. */
export const titleBodyOf = (titles: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(titles)
      .map(([l, t]) => [l, t.trim()])
      .filter(([, t]) => t !== ""),
  );

type CateAttr = NonNullable<ProductDetail["cateInfo"]>["attrs"][number];

/**
 * The body's category: cateInfo once both a site and a category are chosen (with the attribute values given for it),
 * and its name; both null otherwise.
 */
export function categoryBodyOf(v: CategoryValues, attrs: CateAttr[]) {
  const site = v.site ? Number(v.site) : null;
  const cateInfo = site && v.cateId ? { cateId: v.cateId, site, attrs } : null;
  return { cateInfo, categoryName: cateInfo ? v.categoryName || null : null };
}

/** Whether the form's category is still the one the product was read with (its attribute values belong to it). */
export const sameCategory = (d: { cateInfo?: ProductDetail["cateInfo"] } | null | undefined, v: CategoryValues) =>
  !!d?.cateInfo && d.cateInfo.cateId === v.cateId && String(d.cateInfo.site) === v.site;
