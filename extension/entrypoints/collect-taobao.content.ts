// The collect button on taobao product pages.
import { defineContentScript } from "wxt/utils/define-content-script";
import { taobao } from "#shared/extract/adapters/taobao.ts";
import { runCollector } from "../lib/collect-page.ts";
import { platformMatches } from "../lib/platform-matches.ts";

export default defineContentScript({
  matches: platformMatches["taobao"],
  runAt: "document_idle",
  main: (ctx) => runCollector(ctx, taobao),
});
