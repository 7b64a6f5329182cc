// @vitest-environment happy-dom
// The record lists as the host's review screen wires them: only the shown tab's list is asked for, its rows with the
// status badge (the rejection reason under it), 审核 on pending rows only, the filters of the tab's kind, and the
// empty text that says whether filters hide the rows.
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChargeStatus, WithdrawStatus } from "#shared/contract/enums.ts";
import type { ChargeRecord, Withdrawal } from "#shared/contract/wallet.ts";
import { useListUrlState, useReplaceSearchParams } from "../../components/list/use-list-url-state.ts";
import { chargeColumns, withdrawColumns } from "./finance-columns.tsx";
import { rechargeReviewSchema, type ChargeRecordsQuery } from "./finance-search-params.ts";
import { RecordLists, useRecordQueries } from "./record-lists.tsx";

const charge = (id: string, status: number, reason: string | null = null): ChargeRecord => ({
  id,
  tenantId: "t1",
  tenantName: "甲公司",
  userId: null,
  userName: null,
  money: 100,
  payType: 1,
  pic: `receipts/${id}.png`,
  remark: null,
  status,
  reason,
  auditTime: null,
  creationTime: "2026-01-01T00:00:00.000Z",
});
const withdrawal = (id: string, status: number): Withdrawal => ({
  id,
  tenantId: "t1",
  tenantName: "甲公司",
  status,
  auditTime: null,
  money: 50,
  alipayAccount: "a@example.com",
  pic: null,
  reason: null,
  creationTime: "2026-01-01T00:00:00.000Z",
  remark: null,
  source: 1,
});

let charges: ChargeRecord[];
let withdrawals: Withdrawal[];
/** Which lists were asked for (enabled), in order. */
let asked: string[];

const fakeQuery =
  <T,>(name: string, rows: () => T[]) =>
  (q: ChargeRecordsQuery, enabled: boolean) => {
    if (enabled) asked.push(`${name}:${q.Status ?? "all"}`);
    return {
      data: enabled ? { items: rows(), totalCount: rows().length } : undefined,
      isFetching: false,
      isPlaceholderData: false,
      refetch: () => {},
    };
  };
const useCharges = fakeQuery("charges", () => charges);
const useWithdraws = fakeQuery("withdraws", () => withdrawals);

function Host({ onReview }: { onReview: (id: string) => void }) {
  const listState = useListUrlState(rechargeReviewSchema, useReplaceSearchParams());
  const queries = useRecordQueries(listState, useCharges, useWithdraws);
  const { state } = listState;
  return (
    <RecordLists
      list={listState}
      queries={queries}
      charge={{
        label: "充值审核",
        columns: chargeColumns({ host: { onReview: (r) => onReview(r.id) } }),
        empty: "无充值",
        emptyFiltered: "无符合充值",
      }}
      withdraw={{
        label: "提现审核",
        columns: withdrawColumns({ host: { onReview: (r) => onReview(r.id) } }),
        empty: "无提现",
        emptyFiltered: "无符合提现",
      }}
      tabSuffix="审核"
      onTab={(tab) => listState.update({ tab })}
      filtered={state.status !== "1"}
      onReset={() => listState.update({ status: "1" })}
      testId="recharge"
      tableClassName=""
    >
      <span data-testid="recharge-total">{queries.total}</span>
    </RecordLists>
  );
}

beforeEach(() => {
  asked = [];
  vi.spyOn(globalThis, "fetch").mockRejectedValue(new Error("offline"));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("RecordLists", () => {
  it("shows the top-ups first, with 审核 on pending rows and the reason of a rejected one", () => {
    charges = [charge("c1", ChargeStatus.Pending), charge("c2", ChargeStatus.Rejected, "凭证不清晰")];
    withdrawals = [];
    const reviewed: string[] = [];
    render(
      <MemoryRouter initialEntries={["/admin/recharge?status=all"]}>
        <Host onReview={(id) => reviewed.push(id)} />
      </MemoryRouter>,
    );
    expect(asked.every((a) => a.startsWith("charges:"))).toBe(true);
    const table = screen.getByRole("table", { name: "充值审核" });
    expect(
      within(table)
        .getAllByTestId("charge-status")
        .map((b) => b.dataset.status),
    ).toEqual(["1", "3"]);
    expect(within(table).getByText("原因：凭证不清晰")).toBeTruthy();
    expect(within(table).getAllByTestId("charge-receipt-thumb")).toHaveLength(2);
    fireEvent.click(within(table).getByTestId("charge-review"));
    expect(reviewed).toEqual(["c1"]);
    expect(within(table).getByText("已处理")).toBeTruthy();
    expect(screen.getByTestId("recharge-total").textContent).toBe("2");
  });

  it("switches to the withdrawals, asking for them only then; with no filter set the empty text is the plain one", () => {
    charges = [];
    withdrawals = [withdrawal("w1", WithdrawStatus.Approved)];
    render(
      <MemoryRouter initialEntries={["/admin/recharge"]}>
        <Host onReview={() => {}} />
      </MemoryRouter>,
    );
    // Pending by default: not a filter, so the plain empty text.
    expect(screen.getByText("无充值")).toBeTruthy();
    expect(asked).not.toContain("withdraws:1");
    fireEvent.click(screen.getByTestId("finance-tab-withdraw"));
    expect(asked).toContain("withdraws:1");
    const table = screen.getByRole("table", { name: "提现审核" });
    expect(within(table).getByTestId("withdraw-status").dataset.status).toBe(String(WithdrawStatus.Approved));
    expect(within(table).queryByTestId("withdraw-review")).toBeNull();

    withdrawals = [];
    fireEvent.click(screen.getByTestId("finance-tab-charge"));
    fireEvent.click(screen.getByTestId("finance-tab-withdraw"));
    expect(screen.getByText("无提现")).toBeTruthy();
  });
});
