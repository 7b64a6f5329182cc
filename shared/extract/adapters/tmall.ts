// Tmall (detail.tmall.com/item.htm?id=, Tmall Global on tmall.hk): the same detail answer as Taobao, read the same way.
import type { Obj } from "../values.ts";
import type { Adapter } from "../snapshot.ts";
import { alibabaBlock, digitsParam } from "./common.ts";
import { locateTaobaoRes, mapTaobaoRes } from "./taobao.ts";

export const tmall: Adapter<Obj> = {
  id: "tmall",
  platform: "tmall",
  hosts: /(^|\.)tmall\.(com|hk)$/,
  globals: ["__ICE_APP_CONTEXT__", "_DATA_Detail"],
  match(url) {
    if (!/^(detail|detail\.m|chaoshi\.detail|detail\.liangxinyao)\.tmall\.(com|hk)$/.test(url.hostname)) return null;
    return digitsParam(url, "id");
  },
  detectBlock: (s) => alibabaBlock(s, /^login\.(tmall|taobao)\.com$/),
  locate: locateTaobaoRes,
  map: (located, _s, warn) => mapTaobaoRes(located.data, warn),
};
