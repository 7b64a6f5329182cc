// Taobao (item.taobao.com/item.htm?id=). The page keeps the mtop detail answer in `window.__ICE_APP_CONTEXT__`
// (…loaderData.home.data.res); the extension may also hand us the mtop.taobao.pcdetail.data.get response itself.
// res.item (title, images, videos, description URL), res.skuBase (props with pid/vid values; skus with propPath
// "pid:vid;pid:vid"), res.skuCore.sku2info[skuId] (price.priceText, subPrice.priceText = promotion price, quantity),
// res.seller, attributes in componentsVO.extensionInfoVO (BASE_PROPS) or props.groupProps. Tmall has the same shape.
// The mobile detail pages (main.m.taobao.com, detail.m.tmall.com) keep the same item, skuBase and seller in
// `var _DATA_Detail`, with the prices and stock under mock.skuCore and the price block under mock.price.
import type { PartialProduct, ProductOption, ProductVariant } from "../product.ts";
import type { Adapter, Located, Snapshot, Warn } from "../snapshot.ts";
import {
  absUrl,
  arr,
  at,
  findDeep,
  idOf,
  imageList,
  isObj,
  obj,
  objs,
  originalAlicdnImage,
  parsePrice,
  parsePriceRange,
  stockOf,
  str,
  type Obj,
} from "../values.ts";
import { alibabaBlock, compact, digitsParam, interceptedBodies, pageVariable, titleFields } from "./common.ts";

const isRes = (o: Obj) => isObj(o.item) && (isObj(o.skuBase) || isObj(o.skuCore));

/** The detail `res` object, from the page context or an intercepted mtop detail response. */
export function locateTaobaoRes(snapshot: Snapshot): Located<Obj> | null {
  const ice = pageVariable(snapshot, "__ICE_APP_CONTEXT__");
  const res = findDeep(ice, isRes, 10);
  if (res) return { shape: "ice-app-context", data: res };
  const mobile = obj(pageVariable(snapshot, "_DATA_Detail"));
  const mock = obj(mobile?.mock);
  if (mobile && isObj(mobile.item) && (isObj(mobile.skuBase) || isObj(mock?.skuCore))) {
    return { shape: "data-detail", data: { ...mobile, skuCore: mock?.skuCore ?? mobile.skuCore, price: mock?.price } };
  }
  for (const body of interceptedBodies(snapshot, /mtop\.taobao\.(?:pcdetail\.data\.get|detail\.getdetail)/i)) {
    const hit = findDeep(body, isRes, 6);
    if (hit) return { shape: "mtop-detail", data: hit };
  }
  return null;
}

function attributes(res: Obj): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const info of objs(at(res, "componentsVO.extensionInfoVO.infos"))) {
    if (str(info.type) !== "BASE_PROPS") continue;
    for (const item of objs(info.items)) {
      const name = str(item.title);
      const value = arr(item.text).map(str).filter(Boolean).join(", ");
      if (name && value) out.push({ name, value });
    }
  }
  if (out.length) return out;
  // Older answers: props.groupProps = [{"基本信息": [{"品牌": "X"}, …]}]
  for (const group of objs(at(res, "props.groupProps"))) {
    for (const list of Object.values(group)) {
      for (const pair of objs(list)) {
        for (const [name, value] of Object.entries(pair)) {
          const v = str(value);
          if (name && v) out.push({ name, value: v });
        }
      }
    }
  }
  return out;
}

export function mapTaobaoRes(res: Obj, warn: Warn): PartialProduct {
  const item = obj(res.item) ?? {};
  const seller = obj(res.seller) ?? {};
  const title = str(item.title) ?? str(at(res, "componentsVO.titleVO.title.title"));
  const images = imageList(
    arr(item.images).length ? arr(item.images) : arr(at(res, "componentsVO.headImageVO.images")),
    undefined,
    originalAlicdnImage,
  );
  const sku2info = obj(at(res, "skuCore.sku2info")) ?? {};

  const options: ProductOption[] = [];
  const pids: string[] = [];
  for (const prop of objs(at(res, "skuBase.props"))) {
    const pid = idOf(prop.pid);
    const name = str(prop.name);
    if (!pid || !name) continue;
    const values = objs(prop.values).flatMap((v) => {
      const id = idOf(v.vid);
      const vname = str(v.name);
      if (!id || !vname) return [];
      const image = absUrl(v.image);
      return [{ id, name: vname, ...(image ? { image: originalAlicdnImage(image) } : {}) }];
    });
    if (!values.length) continue;
    pids.push(pid);
    options.push({ name, values });
  }
  const imageOption = options.findIndex((o) => o.values.some((v) => v.image));

  const variants: ProductVariant[] = [];
  for (const sku of objs(at(res, "skuBase.skus"))) {
    const skuId = idOf(sku.skuId, warn);
    if (!skuId) continue;
    const path = new Map(
      (str(sku.propPath) ?? "")
        .split(";")
        .map((pair) => pair.split(":"))
        .filter((p) => p.length === 2) as [string, string][],
    );
    const optionValues = pids.map((pid) => path.get(pid) ?? "");
    if (optionValues.some((v, i) => !options[i].values.some((x) => x.id === v))) {
      warn(`sku ${skuId} has an unknown propPath "${str(sku.propPath)}"; skipped`);
      continue;
    }
    const info = obj(sku2info[skuId]) ?? {};
    const listed = parsePrice(at(info, "price.priceText"));
    const promo = parsePrice(at(info, "subPrice.priceText"));
    const v: ProductVariant = { sku: skuId, optionValues };
    const price = promo || listed;
    if (price) v.price = price;
    if (promo && listed && listed > promo) v.originalPrice = listed;
    const stock = stockOf(info.quantity);
    if (stock !== undefined) v.stock = stock;
    const image = imageOption >= 0 ? options[imageOption].values.find((x) => x.id === optionValues[imageOption])?.image : undefined;
    if (image) v.image = image;
    variants.push(v);
  }

  // A product without sku properties keeps its one price and stock under sku2info["0"].
  const single: PartialProduct = {};
  if (!variants.length) {
    const info = obj(sku2info["0"]) ?? {};
    const listed = parsePriceRange(
      at(info, "price.priceText") ?? at(res, "componentsVO.priceVO.price.priceText") ?? at(res, "price.price.priceText"),
    );
    const promo = parsePriceRange(at(info, "subPrice.priceText") ?? at(res, "componentsVO.priceVO.extraPrice.priceText"));
    const range = promo ?? listed;
    if (range) {
      single.price = range.min;
      if (range.max > range.min) single.priceRange = range;
      if (promo && listed && listed.min > promo.min) single.originalPrice = listed.min;
    }
    single.stock = stockOf(info.quantity);
  }
  const video = objs(item.videos)[0] ?? obj(at(res, "componentsVO.headImageVO.videos.0"));
  const categoryId = idOf(item.categoryId);
  return compact({
    ...titleFields(title, "zh"),
    currency: "CNY",
    ...single,
    images,
    video: absUrl(video?.url ?? video?.videoUrl),
    descriptionUrl: absUrl(item.pcADescUrl ?? item.taobaoPcDescUrl ?? item.descUrl ?? item.tmallDescUrl ?? item.taobaoDescUrl),
    attributes: attributes(res),
    ...(variants.length ? { options, variants } : {}),
    shop: compact({ id: idOf(seller.shopId), name: str(seller.shopName), url: absUrl(seller.shopUrl) }),
    sourceCategory: categoryId ? { id: categoryId } : undefined,
  });
}

export const taobao: Adapter<Obj> = {
  id: "taobao",
  platform: "taobao",
  hosts: /(^|\.)taobao\.com$/,
  globals: ["__ICE_APP_CONTEXT__", "_DATA_Detail"],
  match(url) {
    const host = url.hostname;
    if (/^(item|item\.m|h5\.m|main\.m|world)\.taobao\.com$/.test(host)) {
      return digitsParam(url, "id") ?? /\/item\/(\d+)\.htm/.exec(url.pathname)?.[1] ?? null;
    }
    return null;
  },
  detectBlock: (s) => alibabaBlock(s, /^login\.(taobao|m\.taobao)\.com$/),
  locate: locateTaobaoRes,
  map: (located, _s, warn) => mapTaobaoRes(located.data, warn),
};
