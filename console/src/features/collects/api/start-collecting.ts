// Collecting: URLs typed in become collection tasks (CrawlProductByTool); a file of URLs goes to the URL queue
// (ImportUrls), and failed tasks can be collected again (ReCrawlTasks).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { collectTaskKeys } from "./get-collect-tasks.ts";
import { urlKeys } from "./get-url-queue.ts";

export type ImportOptions = { platformType?: number; isDiscountPrice?: boolean };

export const crawlByTool = (body: Parameters<typeof api.collect.crawlProductByTool>[0]) => api.collect.crawlProductByTool(body);
export const reCrawlTasks = (ids: string[]) => api.collect.reCrawlTasks({ ids });

/** ImportUrls: the file goes as multipart (field "file"); 413/415 are left to the screen (no global notice). */
export function importUrls({ file, options }: { file: File; options: ImportOptions }) {
  const form = new FormData();
  form.append("file", file, file.name);
  return api.aquiredUrl.importUrls(options, form);
}

export function useCrawlByTool({ mutationConfig }: MutationHookOptions<typeof crawlByTool> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      { mutationFn: crawlByTool, onSuccess: () => queryClient.invalidateQueries({ queryKey: collectTaskKeys.all }) },
      mutationConfig,
    ),
  );
}

export function useReCrawlTasks({ mutationConfig }: MutationHookOptions<typeof reCrawlTasks> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      { mutationFn: reCrawlTasks, onSettled: () => queryClient.invalidateQueries({ queryKey: collectTaskKeys.all }) },
      mutationConfig,
    ),
  );
}

export function useImportUrls({ mutationConfig }: MutationHookOptions<typeof importUrls> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig({ mutationFn: importUrls, onSuccess: () => queryClient.invalidateQueries({ queryKey: urlKeys.all }) }, mutationConfig),
  );
}
