// The collect button on pinduoduo product pages.
import { defineContentScript } from "wxt/utils/define-content-script";
import { pinduoduo } from "#shared/extract/adapters/pinduoduo.ts";
import { runCollector } from "../lib/collect-page.ts";
import { platformMatches } from "../lib/platform-matches.ts";

export default defineContentScript({
  matches: platformMatches["pinduoduo"],
  runAt: "document_idle",
  main: (ctx) => runCollector(ctx, pinduoduo),
});
