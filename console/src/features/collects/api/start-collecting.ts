// Collecting: URLs pasted in (CreateUrls) and a file of URLs (ImportUrls) both go to the URL queue, so the screen shows
// them in one place with their progress; failed tasks can be collected again (ReCrawlTasks).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { collectTaskKeys } from "./get-collect-tasks.ts";
import { urlKeys } from "./get-url-queue.ts";

export type ImportOptions = { platformType?: number; isDiscountPrice?: boolean };

export const createUrls = (body: Parameters<typeof api.aquiredUrl.createUrls>[0]) => api.aquiredUrl.createUrls(body);
export const reCrawlTasks = (ids: string[]) => api.collect.reCrawlTasks({ ids });

/** ImportUrls: the file goes as multipart (field "file"); 413/415 are left to the screen (no global notice). */
export function importUrls({ file, options }: { file: File; options: ImportOptions }) {
  const form = new FormData();
  form.append("file", file, file.name);
  return api.aquiredUrl.importUrls(options, form);
}

export function useCreateUrls({ mutationConfig }: MutationHookOptions<typeof createUrls> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig({ mutationFn: createUrls, onSuccess: () => queryClient.invalidateQueries({ queryKey: urlKeys.all }) }, mutationConfig),
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
