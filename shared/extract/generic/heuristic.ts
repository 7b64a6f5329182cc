// Last resort for a page no structured source describes fully: the <h1>, else the document <title>.
import { documentTitle, elementText, tagsNamed } from "../html.ts";
import type { PartialProduct } from "../product.ts";
import { titleLanguage } from "../values.ts";
import type { SourceContext } from "./schema-org.ts";

export function fromHeuristics(ctx: SourceContext): PartialProduct | undefined {
  const h1 = tagsNamed(ctx.html, "h1").next().value;
  const title = (h1 && elementText(ctx.html, h1)) || documentTitle(ctx.html);
  if (!title) return undefined;
  const lang = titleLanguage(title, ctx.lang);
  return { title: { [lang]: title.slice(0, 500) }, titleLanguage: lang };
}
