// The JSON body parser of every route: Fastify's own (with its prototype-poisoning checks), after a bound on how deep
// the body nests. A body nested thousands deep parses (JSON.parse does not recurse) but overflows the stack of the
// first recursive code that walks it (a request hash, a serializer, a validator): it is refused first, as a 400.
import type { FastifyInstance } from "fastify";
import { badRequest } from "./errors.ts";

/** Far deeper than any body a call takes (a page's captured data included), far below what overflows the stack. */
export const MAX_JSON_DEPTH = 128;

/** Whether JSON text nests arrays and objects more than `limit` deep: one pass, skipping the strings' contents. */
export function jsonDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: on to its closing quote, an escaped character skipped whole.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Replaces the app's application/json parser with the bounded one (the app's body limit still applies). */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    if (jsonDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(badRequest(`请求内容嵌套过深（最多 ${MAX_JSON_DEPTH} 层）`, "JSON body nested too deep"), undefined);
      return;
    }
    parse(req, body as string, done);
  });
}
