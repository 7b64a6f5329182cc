// @vitest-environment happy-dom
// The wallet log's total as the pager gets it: an exact total is the pager's own "共 N 条"; a capped one (GetWalletLogs
// stops counting at WALLET_LOG_COUNT_CAP) reads "1,000+" above the table, the pager's total is hidden, and the page is
// not pulled back to a last page that is not known, as in the listing list.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { WalletLogType } from "#shared/contract/enums.ts";
import { WALLET_LOG_COUNT_CAP, type WalletLogPage } from "#shared/contract/wallet.ts";
import { settledTotal } from "../../components/list/use-keep-page-in-range.ts";
import { WalletLogTable } from "./wallet-log-table.tsx";

afterEach(cleanup);

const entry = (i: number) => ({
  id: `e${i}`,
  type: WalletLogType.TopUp,
  money: 1,
  balance: i,
  remark: "充值",
  userId: null,
  userName: null,
  inviteTenantName: null,
  refId: null,
  creationTime: "2026-01-01T00:00:00.000Z",
});
const pageOf = (totalCount: number, totalCountCapped: boolean): WalletLogPage => ({
  items: [entry(1), entry(2)],
  totalCount,
  totalCountCapped,
  balance: 2,
});
const table = (data: WalletLogPage) => (
  <WalletLogTable
    query={{ data, isFetching: false, isPlaceholderData: false }}
    list={{ state: { page: 1, size: 20 }, onPageChange: () => {} }}
    emptyText="无"
  />
);
const pagerHidden = () =>
  screen
    .getByText(/^共 \d+ 条$/)
    .closest("[data-slot=data-table]")!
    .className.includes("[&_[data-slot=pagination-total]]:hidden");

describe("WalletLogTable", () => {
  it("shows an exact total in the pager", () => {
    render(table(pageOf(42, false)));
    const total = screen.getByTestId("wallet-total");
    expect(total.textContent).toBe("共 42 条记录");
    expect(total.getAttribute("data-capped")).toBe("false");
    expect(screen.getByText("共 42 条")).toBeTruthy();
    expect(pagerHidden()).toBe(false);
    expect(settledTotal({ data: pageOf(42, false), isPlaceholderData: false }, false)).toBe(42);
  });

  it("reports a capped total as capped: 1,000+, the pager's total hidden, no last page", () => {
    const data = pageOf(WALLET_LOG_COUNT_CAP, true);
    render(table(data));
    const total = screen.getByTestId("wallet-total");
    expect(total.textContent).toBe("共 1,000+ 条记录");
    expect(total.getAttribute("data-total")).toBe(String(WALLET_LOG_COUNT_CAP));
    expect(total.getAttribute("data-capped")).toBe("true");
    expect(pagerHidden()).toBe(true);
    expect(settledTotal({ data, isPlaceholderData: false }, data.totalCountCapped)).toBeUndefined();
  });
});
