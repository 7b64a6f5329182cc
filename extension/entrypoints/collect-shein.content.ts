// The collect button on shein product pages.
import { defineContentScript } from "wxt/utils/define-content-script";
import { shein } from "#shared/extract/adapters/shein.ts";
import { runCollector } from "../lib/collect-page.ts";
import { platformMatches } from "../lib/platform-matches.ts";

export default defineContentScript({
  matches: platformMatches["shein"],
  runAt: "document_idle",
  main: (ctx) => runCollector(ctx, shein),
});
