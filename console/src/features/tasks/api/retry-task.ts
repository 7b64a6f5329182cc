// 重试: a failed crawl or URL import runs again (RetryTask); the list follows it from there.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { taskKeys } from "../../../lib/task-queries.ts";

export const retryTask = (id: string) => api.tasks.retryTask({ id });

export function useRetryTask({ mutationConfig }: MutationHookOptions<typeof retryTask> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig({ mutationFn: retryTask, onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }) }, mutationConfig),
  );
}
