// The editor's suggestions: a weight predicted from the title (PredictWightByTitle). Nothing is cached: it is asked for
// by a click. The category prediction (PredictMeliCategory) is lib/category-prediction.ts, shared with publishing.
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

export const predictWeight = (body: { title: string; productId?: string | null }) => api.product.predictWeightByTitle(body);

export const usePredictWeight = ({ mutationConfig }: MutationHookOptions<typeof predictWeight> = {}) =>
  useMutation(withCallerConfig({ mutationFn: predictWeight }, mutationConfig));
