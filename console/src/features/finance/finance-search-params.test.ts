import { describe, expect, it } from "vitest";
import { ChargeStatus, WalletLogType } from "#shared/contract/enums.ts";
import { getChargeRecordsQuery, getWalletLogsQuery, getWithdrawsQuery } from "#shared/contract/wallet.ts";
import {
  chargeListSchema,
  rechargeReviewSchema,
  toRecordsQuery,
  toWalletFilter,
  toWalletQuery,
  walletListSchema,
} from "./finance-search-params.ts";
import { receiptFileProblem } from "./receipt.ts";

const USER = "0b9c2a52-6a53-4a6e-9a3b-6f7b1f0d9e11";

describe("the wallet ledger's URL state", () => {
  it("turns every set param into GetWalletLogs' names, which the contract accepts", () => {
    const s = walletListSchema.parse({
      type: String(WalletLogType.Purchase),
      user: USER.toUpperCase(),
      sort: "money asc",
      page: "2",
      size: "50",
    });
    const q = toWalletQuery(s);
    expect(q).toEqual({ Type: WalletLogType.Purchase, UserId: USER, Sorting: "money asc", SkipCount: 50, MaxResultCount: 50 });
    expect(getWalletLogsQuery.safeParse(q).success).toBe(true);
    expect(toWalletFilter(walletListSchema.parse({}))).toEqual({ Sorting: "creationTime desc" });
  });

  it("turns a local day range into instants covering whole days", () => {
    const f = toWalletFilter(walletListSchema.parse({ from: "2026-11-01", to: "2026-11-02" }));
    expect(f.StartTime).toBe(new Date(2026, 10, 1).toISOString());
    expect(f.EndTime).toBe(new Date(2026, 10, 2, 23, 59, 59, 999).toISOString());
    expect(getWalletLogsQuery.safeParse({ ...f, SkipCount: 0, MaxResultCount: 20 }).success).toBe(true);
  });

  it("falls back to the defaults on broken params", () => {
    const s = walletListSchema.parse({ type: "99", user: "x", sort: "balance desc", size: "7", page: "-1", from: "2026-02-30" });
    expect(s).toMatchObject({ type: "all", user: "all", sort: "creationTime desc", size: 20, page: 1, from: "" });
  });
});

describe("the top-up and withdrawal lists' URL state", () => {
  it("the seller's lists start on top-ups of every status; the host's on pending ones", () => {
    expect(chargeListSchema.parse({})).toMatchObject({ tab: "charge", status: "all" });
    expect(toRecordsQuery(chargeListSchema.parse({}))).toEqual({ Sorting: "creationTime desc", SkipCount: 0, MaxResultCount: 20 });
    const host = rechargeReviewSchema.parse({});
    expect(host).toMatchObject({ tab: "charge", status: String(ChargeStatus.Pending) });
    expect(toRecordsQuery(host)).toMatchObject({ Status: ChargeStatus.Pending });
  });

  it("sends the search, status and days in the names both record calls accept", () => {
    const s = rechargeReviewSchema.parse({ tab: "withdraw", status: "3", q: "  acme  ", from: "2026-11-01", sort: "money desc" });
    const q = toRecordsQuery(s);
    expect(q).toMatchObject({ Status: 3, Search: "acme", Sorting: "money desc", StartTime: new Date(2026, 10, 1).toISOString() });
    expect(getChargeRecordsQuery.safeParse(q).success).toBe(true);
    expect(getWithdrawsQuery.safeParse(q).success).toBe(true);
    expect(rechargeReviewSchema.parse({ tab: "refund", status: "7" })).toMatchObject({ tab: "charge", status: "1" });
    expect(rechargeReviewSchema.parse({ status: "all" }).status).toBe("all");
  });
});

describe("the receipt file check", () => {
  it("takes the server's image types up to 5 MB and says why it refuses the rest", () => {
    expect(receiptFileProblem({ type: "image/png", size: 1000 })).toBeNull();
    expect(receiptFileProblem({ type: "image/jpeg", size: 5 * 1024 * 1024 })).toBeNull();
    expect(receiptFileProblem({ type: "image/jpeg", size: 5 * 1024 * 1024 + 1 })).toMatch(/5 MB/);
    expect(receiptFileProblem({ type: "application/pdf", size: 1000 })).toMatch(/JPG/);
    expect(receiptFileProblem({ type: "image/svg+xml", size: 1000 })).toMatch(/JPG/);
    expect(receiptFileProblem({ type: "image/png", size: 0 })).toBe("图片是空文件");
  });
});
