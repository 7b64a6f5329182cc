// Temu (www.temu.com/…-g-{goodsId}.html). `window.rawData.store` holds goods (goodsId, goodsName, gallery, currency,
// goodsProperty, detailGallery), sku[] (skuId, specs with specKey/specValue, salePrice/normalPrice, stockQuantity,
// thumbUrl) and mall. Prices there are integers in the currency's minor unit (799 = 7.99); a price string, when a page
// has one, is preferred.
import type { PartialProduct } from "../product.ts";
import type { Adapter, Located, Warn } from "../snapshot.ts";
import {
  absUrl,
  arr,
  currencyCode,
  findDeep,
  idOf,
  imageList,
  imagesToHtml,
  isObj,
  obj,
  objs,
  parsePrice,
  round2,
  stockOf,
  str,
  type Obj,
} from "../values.ts";
import { challengeInControl, compact, markupWithoutStyles, pageVariable, titleFields } from "./common.ts";
import { propertyAttributes, specVariants } from "./pinduoduo.ts";

function minorUnits(n: unknown, text: unknown): number | undefined {
  const fromText = parsePrice(text);
  if (fromText) return fromText;
  return typeof n === "number" && Number.isInteger(n) && n > 0 ? round2(n / 100) : undefined;
}

function map(store: Obj, warn: Warn): PartialProduct {
  const goods = obj(store.goods) ?? {};
  const mall = obj(store.mall) ?? {};
  const skus = specVariants(
    objs(store.sku),
    (s) => {
      const price = minorUnits(s.salePrice, s.salePriceStr);
      const normal = minorUnits(s.normalPrice, s.normalPriceStr);
      return {
        id: idOf(s.skuId, warn),
        price: price || normal,
        originalPrice: normal && price && normal > price ? normal : undefined,
        stock: stockOf(s.stockQuantity),
        image: absUrl(s.thumbUrl),
      };
    },
    warn,
  );
  const mallId = idOf(mall.mallId);
  return compact({
    ...titleFields(str(goods.goodsName), "en"),
    currency: currencyCode(goods.currency ?? store.currency),
    images: imageList(arr(goods.gallery)),
    video: absUrl(obj(goods.video)?.url),
    descriptionHtml: imagesToHtml(imageList(arr(goods.detailGallery))),
    attributes: propertyAttributes(goods.goodsProperty),
    ...skus,
    shop: compact({ id: mallId, name: str(mall.mallName), url: mallId ? `https://www.temu.com/mall.html?mall_id=${mallId}` : undefined }),
  });
}

// Temu's sign-in wall: a password field, or the login form that asks for an email or phone number.
const TEMU_LOGIN =
  /<input\b[^>]*\btype=["']?password\b|<form\b[^>]*\b(?:id|class|action)=["'][^"']*\b(?:login|sign-?in)[^"']*["']|<input\b[^>]*\b(?:id|name)=["'](?:user-account|login-(?:email|phone)|loginAccount)["']/i;

export const temu: Adapter<Obj> = {
  id: "temu",
  platform: "temu",
  hosts: /(^|\.)temu\.com$/,
  globals: ["rawData"],
  match(url) {
    if (!/(^|\.)temu\.com$/.test(url.hostname)) return null;
    return /-g-(\d+)\.html$/.exec(url.pathname)?.[1] ?? (/\/goods\.html$/.test(url.pathname) ? url.searchParams.get("goods_id") : null);
  },
  detectBlock(s) {
    const path = new URL(s.url).pathname;
    const html = s.html ?? "";
    // The login wall asks for an email or phone (its "verification code" wording is not a captcha).
    if (/\/login\.html$/.test(path) || TEMU_LOGIN.test(markupWithoutStyles(html))) return "login";
    if (/\/bgn_verification\.html$/.test(path) || challengeInControl(html)) return "captcha";
    return null;
  },
  locate(snapshot): Located<Obj> | null {
    const raw = pageVariable(snapshot, "rawData");
    const store = findDeep(raw, (o) => isObj(o.goods) && Array.isArray(o.sku), 6);
    return store ? { shape: "raw-data", data: store } : null;
  },
  map: (located, _s, warn) => map(located.data, warn),
};
