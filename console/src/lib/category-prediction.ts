// PredictMeliCategory for the console: the Mercado Libre categories that fit a title on a site, asked for by a click
// (nothing cached), and the title a product is predicted from. The product editor and the publish screen use it.
import { useMutation } from "@tanstack/react-query";
import { api } from "./feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "./query-client.ts";

/** The five categories that fit best. */
export const predictCategory = (input: { site: number; title: string }) => api.meliCategory.predictMeliCategory({ ...input, limit: 5 });

export const usePredictCategory = ({ mutationConfig }: MutationHookOptions<typeof predictCategory> = {}) =>
  useMutation(withCallerConfig({ mutationFn: predictCategory }, mutationConfig));

/** The title Mercado Libre predicts best from: the site's language first (pt for Brazil, en for CBT), then any. */
export function categoryTitleOf(titles: Record<string, string>, site: number): string {
  const first = site === 2 ? "pt" : site === 5 ? "en" : "es";
  for (const lang of [first, "en", "es", "pt", "zh"]) if (titles[lang]?.trim()) return titles[lang].trim();
  return (
    Object.values(titles)
      .find((t) => t.trim())
      ?.trim() ?? ""
  );
}
