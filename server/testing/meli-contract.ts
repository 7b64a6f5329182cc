// For the adapter's contract tests: a MeliSession that answers each call from a table of documented example answers
// (written by us from the documentation page the endpoint cites) and checks them with the endpoint's own schema, as
// the real client does. A call the table does not hold fails the test, so a test names every call its code makes.
import { checkAnswer, type MeliSession, type SendOptions } from "../integrations/mercadolibre/client.ts";

export type ContractCall = { method: string; path: string; query: SendOptions["query"]; body: unknown };

/** answers: keyed "METHOD /path" (no query); a Buffer answers a binary call (a label). */
export function contractSession(answers: Record<string, unknown>): MeliSession & { calls: ContractCall[] } {
  const calls: ContractCall[] = [];
  const send = async <T>(method: string, path: string, opts: SendOptions<T> = {}): Promise<T> => {
    calls.push({ method, path, query: opts.query, body: opts.body });
    const key = `${method} ${path}`;
    if (!(key in answers)) throw new Error(`contract session: no documented answer for ${key}`);
    const answer = answers[key];
    if (opts.binary) return answer as T;
    // Through JSON as on the wire: no Date or undefined slips past the schema.
    return checkAnswer(JSON.parse(JSON.stringify(answer)), opts.schema, key);
  };
  return { calls, send, get: (path, query, schema) => send("GET", path, { query, schema }) } as MeliSession & { calls: ContractCall[] };
}
