// The orders screen's calls (spec §7 Order): the list and its tab counts (refetched when an order arrives or changes,
// and when a task reports progress: a FetchOrders pull lands orders), one order re-read from Mercado Libre
// (GetNewOrder), its invoice, its label (a PDF fetched with the session's headers and saved) and FetchOrders (a task).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import { ApiError } from "#shared/api/errors.ts";
import { api } from "../../../lib/feature-api.ts";
import { downloadFile } from "../../../lib/export-download.ts";
import { liveProgressMeta, pollUnlessLive } from "../../../lib/live-progress.ts";
import { useSubmitKey, withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import type { OrderQuery } from "../order-search-params.ts";

const orderKeys = {
  all: ["orders"] as const,
  list: (q: OrderQuery) => [...orderKeys.all, "list", q] as const,
  groups: (q: OrderQuery) => [...orderKeys.all, "groups", q] as const,
  invoice: (orderId: string) => [...orderKeys.all, "invoice", orderId] as const,
};

/** What refetches the orders: a new or changed order, and a task's progress (a pull). */
const ORDER_EVENTS = liveProgressMeta("order", "task");
/** While the event stream is down, the list is asked again this often (while it is live, rarely: a backstop). */
export const ORDER_POLL_MS = 30_000;

const getOrdersQueryOptions = (q: OrderQuery) =>
  queryOptions({
    queryKey: orderKeys.list(q),
    queryFn: ({ signal }) => api.order.getOrders(q, { signal }),
    placeholderData: keepPreviousData,
    meta: ORDER_EVENTS,
    refetchInterval: () => pollUnlessLive(ORDER_POLL_MS),
  });

export const useOrders = (q: OrderQuery) => useQuery(getOrdersQueryOptions(q));

const getOrderGroupsQueryOptions = (q: OrderQuery) =>
  queryOptions({
    queryKey: orderKeys.groups(q),
    queryFn: ({ signal }) => api.order.getMeliOrderGroupInfo(q, { signal }),
    placeholderData: keepPreviousData,
    meta: ORDER_EVENTS,
    refetchInterval: () => pollUnlessLive(ORDER_POLL_MS),
  });

export const useOrderGroups = (q: OrderQuery) => useQuery(getOrderGroupsQueryOptions(q));

/** The invoice Mercado Libre holds for the order (asked for when the seller opens it). Silent: an order without an
 *  invoice yet is a normal state, not a failure, so the drawer's invoice section says why instead of a red toast. */
const getOrderInvoiceQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: orderKeys.invoice(orderId),
    queryFn: ({ signal }) => api.order.getMeliOrderInvoice({ orderId }, { signal }),
    retry: false,
    meta: { silent: true },
  });

/** Nothing is asked while no order is open. */
export const useOrderInvoice = (orderId: string | null) => useQuery({ ...getOrderInvoiceQueryOptions(orderId ?? ""), enabled: !!orderId });

/** What the invoice section says when there is no invoice to show: the server's own words (a 404 here is "no invoice
 *  yet", not spec §8's unknown company), else the notice the call would have shown. */
export const invoiceProblemText = (error: unknown) =>
  error instanceof ApiError ? error.serverMessage || error.message : error instanceof Error ? error.message : String(error);

/** GetNewOrder: the order read again from Mercado Libre now. */
export const refreshOrder = (id: string) => api.order.getNewOrder({ id });

/** FetchOrders: pull a time range's orders of one shop group (or every shop receiving orders) now, as a task; sent
 *  with the dialog's Idempotency-Key (useSubmitKey). */
export const fetchOrders = (q: { StartTime?: string; EndTime?: string; GroupId?: string }, options?: CallOptions) =>
  api.order.fetchOrders(q, options);

/** The lists follow, whatever the answer. */
export function useRefreshOrder({ mutationConfig }: MutationHookOptions<typeof refreshOrder> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      { mutationFn: refreshOrder, onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }) },
      mutationConfig,
    ),
  );
}

export function useFetchOrders({ mutationConfig }: MutationHookOptions<typeof fetchOrders> = {}) {
  const mutationFn = useSubmitKey(fetchOrders);
  return useMutation(withCallerConfig({ mutationFn }, mutationConfig));
}

/** Saves the order's shipping label (PDF); a label not ready yet throws the server's message. */
export async function downloadOrderLabel(order: { id: string; orderNo: string }): Promise<string> {
  const url = await api.order.getOrderLabel({ orderId: order.id });
  return downloadFile(url, `面单-${order.orderNo}.pdf`);
}
