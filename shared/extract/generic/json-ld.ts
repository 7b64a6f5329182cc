// schema.org JSON-LD blocks: Product, ProductGroup with hasVariant, AggregateOffer, @graph, top-level arrays,
// mainEntity, and @id references between nodes.
import { scripts } from "../html.ts";
import { parseData } from "../literal.ts";
import type { PartialProduct } from "../product.ts";
import { isObj, str, type Obj } from "../values.ts";
import { mapSchemaOrg, type SourceContext } from "./schema-org.ts";

/** Every node of the page's JSON-LD blocks, flattened (arrays, @graph, mainEntity), in page order. */
export function jsonLdNodes(html: string, ctx?: Pick<SourceContext, "warn">): Obj[] {
  if (!/application\/ld\+json/i.test(html)) return [];
  const nodes: Obj[] = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 6) return;
    if (Array.isArray(v)) return v.forEach((x) => visit(x, depth + 1));
    if (!isObj(v)) return;
    nodes.push(v);
    if (v["@graph"]) visit(v["@graph"], depth + 1);
    if (isObj(v.mainEntity) || Array.isArray(v.mainEntity)) visit(v.mainEntity, depth + 1);
  };
  let n = 0;
  for (const s of scripts(html)) {
    if (!/^\s*application\/ld\+json\s*$/i.test(s.attrs.type ?? "")) continue;
    n++;
    // Some CMSs wrap the block in HTML comments or CDATA markers.
    const text = s.text.replace(/^\s*(?:<!--|\/\/\s*<!\[CDATA\[)/, "").replace(/(?:-->|\/\/\s*\]\]>)\s*$/, "");
    if (!text.trim()) continue;
    try {
      visit(parseData(text), 0);
    } catch (e) {
      ctx?.warn(`json-ld: block ${n} unreadable (${(e as Error).message})`);
    }
  }
  return nodes;
}

export function fromJsonLd(ctx: SourceContext): PartialProduct | undefined {
  const nodes = jsonLdNodes(ctx.html, ctx);
  if (!nodes.length) return undefined;
  const byId = new Map<string, Obj>();
  for (const n of nodes) {
    const id = str(n["@id"]);
    if (id && Object.keys(n).length > 1) byId.set(id, n);
  }
  // A variant written as {"@id": "…"} points at a node elsewhere in the graph.
  const resolve = (v: unknown): Obj | undefined => {
    if (!isObj(v)) return undefined;
    const id = str(v["@id"]);
    return id && Object.keys(v).length === 1 ? byId.get(id) : v;
  };
  return mapSchemaOrg(nodes, ctx, resolve);
}
