// MAIN-world half of the collect button (runs in the page's own JavaScript world, where its variables live): answers
// the isolated content script's request with a JSON copy of the variables an adapter named, without credentials.
import { defineContentScript } from "wxt/utils/define-content-script";
import { scrubSecrets } from "#shared/extract/snapshot.ts";
import { GLOBALS_ANSWER, GLOBALS_REQUEST, readPath, toJsonText, type GlobalsRequest } from "../lib/page-globals.ts";
import { allPlatformMatches } from "../lib/platform-matches.ts";

export default defineContentScript({
  matches: allPlatformMatches,
  world: "MAIN",
  runAt: "document_start",
  main() {
    window.addEventListener(GLOBALS_REQUEST, (e) => {
      const detail = (e as CustomEvent<unknown>).detail;
      if (typeof detail !== "string") return;
      let request: GlobalsRequest;
      try {
        request = JSON.parse(detail) as GlobalsRequest;
      } catch {
        return;
      }
      if (!Array.isArray(request.names) || request.names.length > 20) return;
      const values: Record<string, unknown> = {};
      for (const name of request.names) {
        // Dotted names only: no brackets, no calls. Cookies and storage are never named by adapters and never read.
        if (typeof name !== "string" || !/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(name)) continue;
        const v = readPath(window, name);
        if (v !== undefined) values[name] = v;
      }
      const json = toJsonText(values, scrubSecrets);
      window.dispatchEvent(new CustomEvent(GLOBALS_ANSWER, { detail: JSON.stringify({ id: request.id, json }) }));
    });
  },
});
