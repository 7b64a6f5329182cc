// The editor's suggestions: a weight predicted from the title (PredictWightByTitle) and the Mercado Libre categories
// that fit a title on a site (PredictMeliCategory). Nothing is cached: each is asked for by a click.
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

export const predictWeight = (body: { title: string; productId?: string | null }) => api.product.predictWeightByTitle(body);
/** The five categories that fit best. */
export const predictCategory = (input: { site: number; title: string }) => api.meliCategory.predictMeliCategory({ ...input, limit: 5 });

export const usePredictWeight = ({ mutationConfig }: MutationHookOptions<typeof predictWeight> = {}) =>
  useMutation(withCallerConfig({ mutationFn: predictWeight }, mutationConfig));

export const usePredictCategory = ({ mutationConfig }: MutationHookOptions<typeof predictCategory> = {}) =>
  useMutation(withCallerConfig({ mutationFn: predictCategory }, mutationConfig));
