// The collect button on amazon product pages.
import { defineContentScript } from "wxt/utils/define-content-script";
import { amazon } from "#shared/extract/adapters/amazon.ts";
import { runCollector } from "../lib/collect-page.ts";
import { platformMatches } from "../lib/platform-matches.ts";

export default defineContentScript({
  matches: platformMatches["amazon"],
  runAt: "document_idle",
  main: (ctx) => runCollector(ctx, amazon),
});
