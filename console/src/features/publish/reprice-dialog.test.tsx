// @vitest-environment happy-dom
// 重新定价's 确认 starts a task: the dialog says it started as soon as the call answers. The listing queries on the
// screen are read again behind it; a seller does not wait for them (in CI, a loaded machine took over 15 s to answer
// them all and the badge waited that long).
import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RepriceResult } from "#shared/contract/margin-drift.ts";
import { api } from "../../lib/feature-api.ts";
import { queryClient } from "../../lib/query-client.ts";
import { listingKeys } from "./api/listings.ts";
import { RepriceDialog } from "./listing-margin.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  queryClient.clear();
});

const answer = (dryRun: boolean): RepriceResult => ({
  dryRun,
  taskId: dryRun ? null : "00000000-0000-4000-8000-0000000000aa",
  total: 1,
  changed: 1,
  unpriced: 0,
  changes: [
    {
      id: "00000000-0000-4000-8000-000000000001",
      itemId: "MLM1",
      title: "Taza",
      listingCurrency: "MXN",
      listingPrice: 19900,
      nextListingPrice: 21900,
      currency: "CNY",
      marginNow: { margin: 500, marginPercent: "10.00" },
      marginNext: { margin: 900, marginPercent: "18.00" },
    },
  ],
  reasons: [],
});

/** A listing query on the screen: its first read answers, every later one never does. */
let reads = 0;
function OpenListingQuery() {
  const q = useQuery({
    queryKey: [...listingKeys.all, "probe"],
    queryFn: () => (reads++ === 0 ? Promise.resolve(1) : new Promise<number>(() => {})),
  });
  return <span data-testid="probe">{q.data}</span>;
}

describe("重新定价's 确认", () => {
  it("shows the started task while the listing queries are still being read again", async () => {
    reads = 0;
    vi.spyOn(api.meliStatListing, "reprice").mockImplementation(async (body) => answer(body.dryRun === true));
    const started = vi.fn();
    render(
      <QueryClientProvider client={queryClient}>
        <OpenListingQuery />
        <RepriceDialog kind="local" body={{ ids: ["00000000-0000-4000-8000-000000000001"] }} onClose={() => {}} onStarted={started} />
      </QueryClientProvider>,
    );
    await screen.findByTestId("reprice-summary");
    expect((await screen.findByTestId("probe")).textContent).toBe("1");
    fireEvent.click(screen.getByTestId("reprice-submit"));
    await screen.findByTestId("reprice-started");
    expect(started).toHaveBeenCalledWith({ taskId: "00000000-0000-4000-8000-0000000000aa", total: 1, label: "重新定价" });
    // The listing queries were sent again (and are still out).
    await waitFor(() => expect(queryClient.isFetching({ queryKey: listingKeys.all })).toBe(1));
  });
});
