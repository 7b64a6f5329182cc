// Every label of the tenant with the caller's product count (the list's filter and the label dialog). Quiet on
// failure: the labels are a helper, not the page's content.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

/** A bulk edit changes the counts, so product changes refresh it too. */
export const productLabelKeys = { all: ["product-labels"] as const };

const getProductLabelsQueryOptions = () =>
  queryOptions({
    queryKey: productLabelKeys.all,
    queryFn: ({ signal }) => api.productLabel.getProductLabels({ signal }),
    select: (list) => list.labels,
    meta: { silent: true },
    staleTime: 60_000,
  });

export const useProductLabels = () => useQuery(getProductLabelsQueryOptions());
