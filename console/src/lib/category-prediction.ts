// PredictMeliCategory for the console: the Mercado Libre categories that fit a title on a site, asked for by a click
// (nothing cached), and the title a product is predicted from. The product editor and the publish screen use it.
import { useMutation } from "@tanstack/react-query";
import { api } from "./feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "./query-client.ts";

/** The five categories that fit best. */
export const predictCategory = (input: { site: number; title: string }) => api.meliCategory.predictMeliCategory({ ...input, limit: 5 });

export const usePredictCategory = ({ mutationConfig }: MutationHookOptions<typeof predictCategory> = {}) =>
  useMutation(withCallerConfig({ mutationFn: predictCategory }, mutationConfig));

/** The title Mercado Libre predicts best from (shared with the extension's side panel). */
export { categoryTitleOf } from "#shared/publish/category-form.ts";
