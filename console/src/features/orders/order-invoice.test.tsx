// @vitest-environment happy-dom
// Issue 28: an order whose seller has not uploaded an invoice yet. GetMeliOrderInvoice answers 404 with its own words;
// the drawer's invoice section shows them (not spec §8's 404 text, 公司未找到) and no red toast goes up, while another
// query's 404 still goes through the shared handler.
import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { cleanup, render, renderHook, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorFromBody, messages } from "#shared/api/errors.ts";
import { useToastStore } from "#shared/ui/toast.tsx";
import { api } from "../../lib/feature-api.ts";
import { queryClient } from "../../lib/query-client.ts";
import { OrderInvoice } from "./order-detail-drawer.tsx";

const NO_INVOICE = "该订单还没有发票：卖家尚未在美客多上传发票";
const notFoundAnswer = (message: string) => errorFromBody(404, { error: { code: "NotFound", message } });
const toasts = () => useToastStore.getState().toasts.map((t) => [t.type, t.message]);
const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  queryClient.clear();
  useToastStore.setState({ toasts: [] });
});

describe("the order drawer's invoice section", () => {
  it("an invoice not issued yet: the server's message in the section, no toast", async () => {
    vi.spyOn(api.order, "getMeliOrderInvoice").mockRejectedValue(notFoundAnswer(NO_INVOICE));
    render(<OrderInvoice orderId="o-1" />, { wrapper });
    expect((await screen.findByTestId("order-invoice-missing")).textContent).toBe(NO_INVOICE);
    expect(screen.queryByText(messages.notFound)).toBeNull();
    expect(toasts()).toEqual([]);
  });

  it("a query that does not opt out still raises the shared 404 notice (the toast the section avoids)", async () => {
    const { result } = renderHook(
      () => useQuery({ queryKey: ["other"], queryFn: () => Promise.reject(notFoundAnswer("x")), retry: false }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(toasts()).toEqual([["error", messages.notFound]]);
  });
});
