// The collect button on tmall product pages.
import { defineContentScript } from "wxt/utils/define-content-script";
import { tmall } from "#shared/extract/adapters/tmall.ts";
import { runCollector } from "../lib/collect-page.ts";
import { platformMatches } from "../lib/platform-matches.ts";

export default defineContentScript({
  matches: platformMatches["tmall"],
  runAt: "document_idle",
  main: (ctx) => runCollector(ctx, tmall),
});
