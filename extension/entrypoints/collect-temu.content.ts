// The collect button on temu product pages.
import { defineContentScript } from "wxt/utils/define-content-script";
import { temu } from "#shared/extract/adapters/temu.ts";
import { runCollector } from "../lib/collect-page.ts";
import { platformMatches } from "../lib/platform-matches.ts";

export default defineContentScript({
  matches: platformMatches["temu"],
  runAt: "document_idle",
  main: (ctx) => runCollector(ctx, temu),
});
