// Where the collect button runs: each platform's product pages as match patterns (a pattern without a port matches
// every port). The adapter's own match() then decides on the exact URL (Temu and Shein product URLs carry the item id
// in the path, which patterns cannot express).
import type { Platform } from "#shared/extract/product.ts";

export const platformMatches: Record<Exclude<Platform, "generic">, string[]> = {
  "1688": ["*://detail.1688.com/offer/*"],
  taobao: ["*://item.taobao.com/item.htm*"],
  tmall: ["*://detail.tmall.com/item.htm*", "*://detail.tmall.hk/item.htm*"],
  aliexpress: ["*://*.aliexpress.com/item/*", "*://*.aliexpress.us/item/*"],
  pinduoduo: ["*://mobile.yangkeduo.com/goods*", "*://mobile.pinduoduo.com/goods*"],
  temu: ["*://*.temu.com/*"],
  shein: ["*://*.shein.com/*"],
  amazon: ["*://*.amazon.com/*", "*://*.amazon.com.mx/*", "*://*.amazon.com.br/*", "*://*.amazon.co.uk/*", "*://*.amazon.de/*"],
  jd: ["*://item.jd.com/*"],
};

export const allPlatformMatches = Object.values(platformMatches).flat();
