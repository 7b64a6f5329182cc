// The collect button on aliexpress product pages.
import { defineContentScript } from "wxt/utils/define-content-script";
import { aliexpress } from "#shared/extract/adapters/aliexpress.ts";
import { runCollector } from "../lib/collect-page.ts";
import { platformMatches } from "../lib/platform-matches.ts";

export default defineContentScript({
  matches: platformMatches["aliexpress"],
  runAt: "document_idle",
  main: (ctx) => runCollector(ctx, aliexpress),
});
