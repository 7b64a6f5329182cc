// What the product list calls the server's numbers and names (shared/contract/enums.ts): product status, site,
// translation service, the languages a product is edited in, and the kind of a bulk edit (the call's name) as the undo
// button shows it.
import { ProductStatus, Site, ThirdPlatformType } from "#shared/contract/enums.ts";
import { productStatusNames } from "#shared/contract/names.ts";
import { productEditKindName } from "#shared/contract/product.ts";
import type { BadgeTone } from "../../lib/labels.ts";

const productStatusLabels = productStatusNames;

export const productStatusTones: Record<number, BadgeTone> = {
  [ProductStatus.Unedited]: "secondary",
  [ProductStatus.Ready]: "default",
  [ProductStatus.Published]: "success",
  [ProductStatus.Archived]: "outline",
};

export const productStatusLabel = (status: number) => productStatusLabels[status] ?? `状态 ${status}`;
export const productStatusOptions = Object.values(ProductStatus).map((value) => ({ value, label: productStatusLabel(value) }));

const siteLabels: Record<number, string> = {
  [Site.mx]: "墨西哥 (MX)",
  [Site.bl]: "巴西 (BL)",
  [Site.cl]: "智利 (CL)",
  [Site.co]: "哥伦比亚 (CO)",
  [Site.cbt]: "跨境 (CBT)",
};
const siteLabel = (site: number) => siteLabels[site] ?? `站点 ${site}`;
export const siteOptions = Object.values(Site).map((value) => ({ value, label: siteLabel(value) }));

const providerLabels: Record<number, string> = {
  [ThirdPlatformType.LibreTranslate]: "LibreTranslate",
  [ThirdPlatformType.DeepL]: "DeepL",
  [ThirdPlatformType.Google]: "Google 翻译",
  [ThirdPlatformType.OpenAI]: "OpenAI 兼容接口",
};
export const providerOptions = Object.values(ThirdPlatformType).map((value) => ({ value, label: providerLabels[value] }));

/** The languages the editor shows a tab for, in order (a product's other languages follow): the shared product form's. */
export { EDIT_LANGUAGES } from "#shared/publish/product-form.ts";
const languageNames: Record<string, string> = { zh: "中文", es: "西班牙语", pt: "葡萄牙语", en: "英语" };
export const languageName = (lang: string) => languageNames[lang] ?? lang;

/** A bulk edit's kind (the call's name, e.g. BatchUpdateProductPrice) in words. */
export const editKindLabel = productEditKindName;
