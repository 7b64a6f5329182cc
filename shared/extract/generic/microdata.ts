// schema.org microdata (itemscope/itemprop attributes), turned into the JSON-LD object form and mapped the same way.
import { closeTagIndex, elementText, findTagsWithAttr, type Tag } from "../html.ts";
import type { PartialProduct } from "../product.ts";
import type { Obj } from "../values.ts";
import { mapSchemaOrg, type SourceContext } from "./schema-org.ts";

interface Scope {
  tag: Tag;
  end: number;
  item: Obj;
}

const URL_PROPS: Record<string, string> = {
  a: "href",
  area: "href",
  link: "href",
  img: "src",
  audio: "src",
  video: "src",
  source: "src",
  iframe: "src",
  embed: "src",
  track: "src",
  object: "data",
};

function propertyValue(html: string, tag: Tag): string {
  const a = tag.attrs;
  if (tag.name === "meta") return a.content ?? "";
  if (URL_PROPS[tag.name]) return a[URL_PROPS[tag.name]] ?? "";
  if (tag.name === "data" || tag.name === "meter") return a.value ?? "";
  if (tag.name === "time") return a.datetime ?? elementText(html, tag);
  // Widespread although not in the spec: <span itemprop="price" content="12.50">$12.50</span>
  return a.content ?? elementText(html, tag);
}

function add(item: Obj, name: string, value: unknown): void {
  const prev = item[name];
  item[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
}

/** Top-level microdata items of the page (each with its nested items), in the JSON-LD object form. */
export function microdataItems(html: string): Obj[] {
  if (html.indexOf("itemscope") < 0) return [];
  const scopeTags = findTagsWithAttr(html, "itemscope");
  const propTags = findTagsWithAttr(html, "itemprop");
  const scopes: Scope[] = scopeTags.map((tag) => {
    const close = closeTagIndex(html, tag);
    const types = (tag.attrs.itemtype ?? "")
      .split(/\s+/)
      .filter(Boolean)
      .map((t) => t.replace(/^https?:\/\/schema\.org\//i, ""));
    return { tag, end: close < 0 ? html.length : close, item: types.length ? { "@type": types.length === 1 ? types[0] : types } : {} };
  });
  const innermost = (pos: number, self?: Tag) => {
    let best: Scope | undefined;
    for (const s of scopes) if (s.tag !== self && s.tag.start < pos && pos < s.end && (!best || s.tag.start > best.tag.start)) best = s;
    return best;
  };
  const top: Obj[] = [];
  const scopeByStart = new Map(scopes.map((s) => [s.tag.start, s]));
  const all = [...new Map([...scopeTags, ...propTags].map((t) => [t.start, t])).values()].sort((a, b) => a.start - b.start);
  for (const tag of all) {
    const own = scopeByStart.get(tag.start);
    const parent = innermost(tag.start, tag);
    const names = (tag.attrs.itemprop ?? "").split(/\s+/).filter(Boolean);
    if (!names.length) {
      if (own) top.push(own.item);
      continue;
    }
    if (!parent) {
      if (own) top.push(own.item);
      continue;
    }
    const value = own ? own.item : propertyValue(html, tag);
    for (const n of names) add(parent.item, n, value);
  }
  return top;
}

export function fromMicrodata(ctx: SourceContext): PartialProduct | undefined {
  const items = microdataItems(ctx.html);
  if (!items.length) return undefined;
  return mapSchemaOrg(items, ctx);
}
