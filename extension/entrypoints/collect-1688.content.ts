// The collect button on 1688 product pages.
import { defineContentScript } from "wxt/utils/define-content-script";
import { alibaba1688 } from "#shared/extract/adapters/1688.ts";
import { runCollector } from "../lib/collect-page.ts";
import { platformMatches } from "../lib/platform-matches.ts";

export default defineContentScript({
  matches: platformMatches["1688"],
  runAt: "document_idle",
  main: (ctx) => runCollector(ctx, alibaba1688),
});
