// Server state of the collection screens: query keys per entity and the react-query hooks over api.collect and
// api.aquiredUrl. Errors are shown once by the query client's global handler; only what it leaves (409 on a stale
// edit, 413/415 on an upload) is the screens' to explain.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "@shared/api/errors.ts";
import type { AquiredUrl, CollectTask } from "@shared/contract/collect.ts";
import { MAX_PAGE_SIZE } from "@shared/contract/common.ts";
import { api } from "../../lib/feature-api.ts";
import { useConfigStore } from "../../stores/config.ts";
import { chunks } from "./format.ts";
import { isUnfinished } from "./labels.ts";
import type { CollectFilter, CollectQuery, TaskQuery } from "./search-params.ts";

/** How often a list with unfinished tasks or URLs asks again. */
export const POLL_MS = 3000;

type UpdateCollectBody = Parameters<typeof api.collect.updateCollect>[0];
type CrawlByToolBody = Parameters<typeof api.collect.crawlProductByTool>[0];
type UpdateConfigBody = Parameters<typeof api.collect.updateCollcetConfig>[0];
type UpdateRuleBody = Parameters<typeof api.collect.updateInfringementRuleSetting>[0];
export type UrlListQuery = Parameters<typeof api.aquiredUrl.getList>[0];
export type UrlFilter = Parameters<typeof api.aquiredUrl.getStatics>[0];
export type ImportOptions = { platformType?: number; isDiscountPrice?: boolean };

export const collectKeys = {
  all: ["collects"] as const,
  lists: () => [...collectKeys.all, "list"] as const,
  list: (q: CollectQuery) => [...collectKeys.lists(), q] as const,
  detail: (id: string) => [...collectKeys.all, "detail", id] as const,
};

export const collectTaskKeys = {
  all: ["collect-tasks"] as const,
  list: (q: TaskQuery) => [...collectTaskKeys.all, "list", q] as const,
};

export const urlKeys = {
  all: ["aquired-urls"] as const,
  list: (q: UrlListQuery) => [...urlKeys.all, "list", q] as const,
  statics: (f: UrlFilter) => [...urlKeys.all, "statics", f] as const,
  daily: (days: number) => [...urlKeys.all, "daily", days] as const,
};

export const collectSettingKeys = {
  config: ["collect-config"] as const,
  rule: ["infringement-rule-setting"] as const,
};

export const isConflict = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 409;

// ---------------------------------------------------------------------------------------------------------------
// Collected products.

export function useCollects(q: CollectQuery) {
  return useQuery({
    queryKey: collectKeys.list(q),
    queryFn: ({ signal }) => api.collect.getCollect(q, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** One collection, fresh from the server (the edit dialog needs the current concurrency stamp). */
export function useCollect(id: string | null) {
  return useQuery({
    queryKey: collectKeys.detail(id ?? ""),
    queryFn: ({ signal }) => api.collect.getCollectById({ id: id! }, { signal }),
    enabled: !!id,
    staleTime: 0,
  });
}

function useInvalidateCollects() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: collectKeys.all });
}

export function useUpdateCollect() {
  const invalidate = useInvalidateCollects();
  return useMutation({
    mutationFn: (body: UpdateCollectBody) => api.collect.updateCollect(body),
    // A 409 is the dialog's to explain (the global handler leaves it); the list is reloaded either way.
    onSettled: () => invalidate(),
  });
}

export function useDeleteCollect() {
  const invalidate = useInvalidateCollects();
  return useMutation({
    mutationFn: (id: string) => api.collect.deleteCollect({ id }),
    onSettled: () => invalidate(),
  });
}

/** The ids of every collection matching a filter (for "select all matching"), read a thousand at a time. */
export async function fetchAllCollectIds(filter: CollectFilter): Promise<string[]> {
  const ids: string[] = [];
  for (let skip = 0; ; skip += MAX_PAGE_SIZE) {
    const page = await api.collect.getCollect({ ...filter, skipCount: skip, maxResultCount: MAX_PAGE_SIZE, sorting: "creationTime desc" });
    for (const c of page.items) ids.push(c.id);
    if (!page.items.length || skip + MAX_PAGE_SIZE >= page.totalCount) return ids;
  }
}

/** Which collections a bulk action works on: the chosen ids, or every one matching the filter. */
export type BulkTarget = { ids: string[] } | { filter: CollectFilter };
const idsOf = async (t: BulkTarget) => ("ids" in t ? t.ids : fetchAllCollectIds(t.filter));

/** Runs a batch call over the ids a thousand at a time (the calls' limit) and sums the answers. */
async function inSlices<R extends Record<string, number | unknown>>(
  ids: string[],
  run: (slice: string[]) => Promise<R>,
  sum: (a: R, b: R) => R,
  empty: R,
): Promise<R> {
  let total = empty;
  for (const slice of chunks(ids, MAX_PAGE_SIZE)) total = sum(total, await run(slice));
  return total;
}

const addCount = (a: { count: number }, b: { count: number }) => ({ count: a.count + b.count });

export function useBatchDeleteCollects() {
  const invalidate = useInvalidateCollects();
  return useMutation({
    mutationFn: async (t: BulkTarget) =>
      inSlices(await idsOf(t), (ids) => api.collect.batchDeleteCollects({ ids }), addCount, { count: 0 }),
    onSettled: () => invalidate(),
  });
}

export function useBatchUpdateCollectStatus() {
  const invalidate = useInvalidateCollects();
  return useMutation({
    mutationFn: async ({ target, status }: { target: BulkTarget; status: number }) =>
      inSlices(await idsOf(target), (ids) => api.collect.batchUpdateCollectStatus({ ids, status }), addCount, { count: 0 }),
    onSettled: () => invalidate(),
  });
}

export function useMigratToProduct() {
  const invalidate = useInvalidateCollects();
  return useMutation({
    mutationFn: async (t: BulkTarget) =>
      inSlices(
        await idsOf(t),
        (ids) => api.collect.migratToProduct({ ids }),
        (a, b) => ({
          successCount: a.successCount + b.successCount,
          ignoreCount: a.ignoreCount + b.ignoreCount,
          productIds: [...a.productIds, ...b.productIds],
        }),
        { successCount: 0, ignoreCount: 0, productIds: [] as string[] },
      ),
    onSettled: () => invalidate(),
  });
}

export function useScreenInfringement() {
  const invalidate = useInvalidateCollects();
  return useMutation({
    mutationFn: async (t: BulkTarget) =>
      inSlices(
        await idsOf(t),
        (ids) => api.collect.screeningforInfringement({ ids }),
        (a, b) => ({ count: a.count + b.count, flagged: a.flagged + b.flagged }),
        { count: 0, flagged: 0 },
      ),
    onSettled: () => invalidate(),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Settings.

/** The tenant's collect settings; also kept in the config store (spec §3) for other screens. */
export function useCollectConfig() {
  return useQuery({
    queryKey: collectSettingKeys.config,
    queryFn: async ({ signal }) => {
      const config = await api.collect.getCollectConfig({ signal });
      useConfigStore.getState().setCollectConfig(config);
      return config;
    },
  });
}

export function useUpdateCollectConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateConfigBody) => api.collect.updateCollcetConfig(body),
    onSuccess: (config) => {
      queryClient.setQueryData(collectSettingKeys.config, config);
      useConfigStore.getState().setCollectConfig(config);
    },
  });
}

export function useInfringementRule() {
  return useQuery({
    queryKey: collectSettingKeys.rule,
    queryFn: ({ signal }) => api.collect.getInfringementRuleSetting({ signal }),
  });
}

export function useUpdateInfringementRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateRuleBody) => api.collect.updateInfringementRuleSetting(body),
    onSuccess: (rule) => queryClient.setQueryData(collectSettingKeys.rule, rule),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Collecting: URLs to tasks, files to the URL queue.

export function useCrawlByTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CrawlByToolBody) => api.collect.crawlProductByTool(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: collectTaskKeys.all }),
  });
}

/** ImportUrls: the file goes as multipart (field "file"); 413/415 are left to the screen (no global notice). */
export function useImportUrls() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, options }: { file: File; options: ImportOptions }) => {
      const form = new FormData();
      form.append("file", file, file.name);
      return api.aquiredUrl.importUrls(options, form);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: urlKeys.all }),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The URL queue.

const anyUnfinished = (items: { status?: number; taskStatus?: number }[] | undefined) =>
  !!items?.some((i) => isUnfinished(i.status ?? i.taskStatus ?? 0));

export function useAquiredUrls(q: UrlListQuery) {
  return useQuery({
    queryKey: urlKeys.list(q),
    queryFn: ({ signal }) => api.aquiredUrl.getList(q, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (anyUnfinished(query.state.data?.items as AquiredUrl[] | undefined) ? POLL_MS : false),
  });
}

export function useUrlStatics(f: UrlFilter) {
  return useQuery({
    queryKey: urlKeys.statics(f),
    queryFn: ({ signal }) => api.aquiredUrl.getStatics(f, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      const s = query.state.data;
      return s && s.pending + s.running > 0 ? POLL_MS : false;
    },
  });
}

/** URLs per day over the last `days` days (UTC days, as the server counts them). */
export function useUrlDaily(days: number) {
  return useQuery({
    queryKey: urlKeys.daily(days),
    queryFn: ({ signal }) =>
      api.aquiredUrl.getUrlSatatics({ startDate: new Date(Date.now() - (days - 1) * 86_400_000).toISOString() }, { signal }),
  });
}

function useInvalidateUrls() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: urlKeys.all });
}

/** Puts URLs back in the queue: the given ones, or (ids null) every failed one. */
export function useReCrawlUrls() {
  const invalidate = useInvalidateUrls();
  return useMutation({
    mutationFn: (ids: string[] | null) => api.aquiredUrl.reCrwalUrls({ ids }),
    onSettled: () => invalidate(),
  });
}

export function useDeleteUrls() {
  const invalidate = useInvalidateUrls();
  return useMutation({
    mutationFn: (ids: string[]) => api.aquiredUrl.delete({ ids }),
    onSettled: () => invalidate(),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Collection tasks.

export function useCollectTasks(q: TaskQuery) {
  return useQuery({
    queryKey: collectTaskKeys.list(q),
    queryFn: ({ signal }) => api.collect.getCollectTasks(q, { signal }),
    placeholderData: keepPreviousData,
    // While any task on the page is still waiting or running, the page follows it.
    refetchInterval: (query) => (anyUnfinished(query.state.data?.items as CollectTask[] | undefined) ? POLL_MS : false),
  });
}

export function useReCrawlTasks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => api.collect.reCrawlTasks({ ids }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectTaskKeys.all }),
  });
}
