// The source behind every order (issue 32): an order's lines with their collected sources (GetOrderSources, asked for
// when the drawer opens), the purchase list of the filter's ready orders (GetPurchaseList), a line marked bought
// (SetPurchase, with the action's Idempotency-Key), and the list's xlsx export (a task, then its file).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import { api } from "../../../lib/feature-api.ts";
import { TaskType } from "#shared/contract/enums.ts";
import { downloadTaskFile } from "../../../lib/export-download.ts";
import { useSubmitKey, withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import type { OrderQuery } from "../order-search-params.ts";

const sourceKeys = {
  all: ["order-sources"] as const,
  order: (orderId: string) => [...sourceKeys.all, "order", orderId] as const,
  purchases: (f: PurchaseFilter) => [...sourceKeys.all, "purchases", f] as const,
};

/** The list's filter (no paging) with its dates as text (the body is JSON). */
export type PurchaseFilter = Omit<OrderQuery, "StartTime" | "EndTime" | "Sorting" | "SkipCount" | "MaxResultCount"> & {
  StartTime?: string;
  EndTime?: string;
};
const isoOf = (d: string | Date | undefined) => (d instanceof Date ? d.toISOString() : d);
export const purchaseFilterOf = ({ Sorting: _s, SkipCount: _k, MaxResultCount: _m, ...f }: OrderQuery): PurchaseFilter => ({
  ...f,
  StartTime: isoOf(f.StartTime),
  EndTime: isoOf(f.EndTime),
});

const orderSourcesQueryOptions = (orderId: string) =>
  queryOptions({ queryKey: sourceKeys.order(orderId), queryFn: ({ signal }) => api.order.getOrderSources({ orderId }, { signal }) });

/** Nothing is asked while no order is open. */
export const useOrderSources = (orderId: string | null) => useQuery({ ...orderSourcesQueryOptions(orderId ?? ""), enabled: !!orderId });

const purchaseListQueryOptions = (f: PurchaseFilter) =>
  queryOptions({ queryKey: sourceKeys.purchases(f), queryFn: ({ signal }) => api.order.getPurchaseList(f, { signal }) });

export const usePurchaseList = (f: PurchaseFilter, enabled: boolean) => useQuery({ ...purchaseListQueryOptions(f), enabled });

/** SetPurchase of every order line of a purchase-list line: each its share (unit cost × its quantity), one key each. */
type MarkBought = { lines: { orderId: string; line: number; quantity: number }[]; unitCost: number | null; purchaseOrderNo: string };

const markBought = async (v: MarkBought, options?: CallOptions) => {
  for (const l of v.lines)
    await api.order.setPurchase(
      {
        orderId: l.orderId,
        line: l.line,
        cost: v.unitCost === null ? null : Math.round(v.unitCost * l.quantity * 100) / 100,
        purchaseOrderNo: v.purchaseOrderNo || null,
      },
      options?.idempotencyKey ? { ...options, idempotencyKey: `${options.idempotencyKey}-${l.orderId}-${l.line}` } : options,
    );
};

/** The purchase list, the opened order's sources and the orders' profits follow. */
export function useMarkBought({ mutationConfig }: MutationHookOptions<typeof markBought> = {}) {
  const queryClient = useQueryClient();
  const mutationFn = useSubmitKey(markBought);
  return useMutation(
    withCallerConfig(
      {
        mutationFn,
        onSettled: () =>
          Promise.all([
            queryClient.invalidateQueries({ queryKey: sourceKeys.all }),
            queryClient.invalidateQueries({ queryKey: ["orders"] }),
          ]),
      },
      mutationConfig,
    ),
  );
}

const exportPurchaseList = (f: PurchaseFilter, options?: CallOptions) =>
  api.order.exportPurchaseList({ ...f, UtcOffsetMinutes: -new Date().getTimezoneOffset() }, options);

export function useExportPurchaseList({ mutationConfig }: MutationHookOptions<typeof exportPurchaseList> = {}) {
  const mutationFn = useSubmitKey(exportPurchaseList);
  return useMutation(withCallerConfig({ mutationFn }, mutationConfig));
}

const downloadPurchaseList = (task: { taskId: string; taskRemark?: string | null }) =>
  downloadTaskFile({ ...task, taskType: TaskType.ExportPurchaseList });

/** Silent: the export dialog shows a failed download itself. */
export const useDownloadPurchaseList = () => useMutation({ mutationFn: downloadPurchaseList, meta: { silent: true } });
