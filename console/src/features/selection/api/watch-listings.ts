// Watching listings (CreawlUrl) and pushing a watched one into the collection path (Collect CrawlProductByTool: the
// crawler collects the listing page as a new product to collect, as a pasted URL would be).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CompetitorListing } from "#shared/contract/selection.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { selectionKeys } from "./get-selection.ts";

export const watchListings = (urls: string[]) => api.meliSelectionSku.creawlUrl({ urls });
/** The listing's page with its title and picture as the task's; the server picks the extractor from the URL. */
export const collectListing = (l: Pick<CompetitorListing, "permalink" | "title" | "image">) =>
  api.collect.crawlProductByTool({ urls: [{ url: l.permalink!, title: l.title, image: l.image }] });

export function useWatchListings({ mutationConfig }: MutationHookOptions<typeof watchListings> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      { mutationFn: watchListings, onSuccess: () => queryClient.invalidateQueries({ queryKey: selectionKeys.all }) },
      mutationConfig,
    ),
  );
}

export function useCollectListing({ mutationConfig }: MutationHookOptions<typeof collectListing> = {}) {
  return useMutation(withCallerConfig({ mutationFn: collectListing }, mutationConfig));
}
