// The collect button on jd product pages.
import { defineContentScript } from "wxt/utils/define-content-script";
import { jd } from "#shared/extract/adapters/jd.ts";
import { runCollector } from "../lib/collect-page.ts";
import { platformMatches } from "../lib/platform-matches.ts";

export default defineContentScript({
  matches: platformMatches["jd"],
  runAt: "document_idle",
  main: (ctx) => runCollector(ctx, jd),
});
