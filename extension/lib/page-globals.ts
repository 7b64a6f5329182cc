// How the collect content script (isolated world) gets page variables from the MAIN-world script: a request event
// naming the variables an adapter declared, answered by an event carrying them as JSON text. Strings only cross the
// boundary (objects would not survive between worlds), and the MAIN side copies nothing but the named variables, with
// credential-looking keys removed.
export const GLOBALS_REQUEST = "mercado-erp:globals-request";
export const GLOBALS_ANSWER = "mercado-erp:globals-answer";

/** Upper bound of the JSON the MAIN world sends back (a product page's data is well under this). */
const MAX_GLOBALS_JSON = 8 * 1024 * 1024;

export type GlobalsRequest = { id: string; names: string[] };
type GlobalsAnswer = { id: string; json: string };

/** Reads `a.b.c` from a root object; undefined when any step is missing. */
export function readPath(root: unknown, name: string): unknown {
  let cur: unknown = root;
  for (const part of name.split(".")) {
    if (cur === null || (typeof cur !== "object" && typeof cur !== "function")) return undefined;
    try {
      cur = (cur as Record<string, unknown>)[part];
    } catch {
      return undefined; // a throwing getter on the page
    }
  }
  return cur;
}

/** JSON of a page value: functions, DOM nodes and cycles left out, the size capped. */
export function toJsonText(values: Record<string, unknown>, scrub: (v: unknown) => unknown): string {
  const seen = new WeakSet<object>();
  const json = JSON.stringify(scrub(values), (_key, v: unknown) => {
    if (typeof v === "function" || typeof v === "symbol" || typeof v === "bigint") return undefined;
    if (v && typeof v === "object") {
      if (typeof (v as { nodeType?: unknown }).nodeType === "number") return undefined;
      if (seen.has(v)) return undefined;
      seen.add(v);
    }
    return v;
  });
  return json && json.length <= MAX_GLOBALS_JSON ? json : "{}";
}

/** Isolated world: asks the MAIN-world script for the named variables; {} when it does not answer in time. */
export function requestGlobals(names: string[], timeoutMs = 1500): Promise<Record<string, unknown>> {
  if (names.length === 0) return Promise.resolve({});
  const id = Math.random().toString(36).slice(2);
  return new Promise((resolve) => {
    const done = (value: Record<string, unknown>) => {
      window.removeEventListener(GLOBALS_ANSWER, onAnswer);
      clearTimeout(timer);
      resolve(value);
    };
    const onAnswer = (e: Event) => {
      const detail = (e as CustomEvent<unknown>).detail;
      if (typeof detail !== "string") return;
      try {
        const answer = JSON.parse(detail) as GlobalsAnswer;
        if (answer.id !== id) return;
        done(JSON.parse(answer.json) as Record<string, unknown>);
      } catch {
        done({});
      }
    };
    const timer = setTimeout(() => done({}), timeoutMs);
    window.addEventListener(GLOBALS_ANSWER, onAnswer);
    window.dispatchEvent(new CustomEvent(GLOBALS_REQUEST, { detail: JSON.stringify({ id, names } satisfies GlobalsRequest) }));
  });
}
