// A publish batch's progress as the console's screens and the extension's side panel follow it.
import { describe, expect, it } from "vitest";
import { ListingStatus, PublishBatchStatus } from "../contract/enums.ts";
import { batchPercent, isBatchRunning, isListingWaiting } from "./batch.ts";

describe("a batch's progress", () => {
  it("runs while queued or running, and has ended once it succeeded, partly succeeded or failed", () => {
    expect([PublishBatchStatus.Queued, PublishBatchStatus.Running].every(isBatchRunning)).toBe(true);
    expect([PublishBatchStatus.Succeeded, PublishBatchStatus.PartlySucceeded, PublishBatchStatus.Failed].some(isBatchRunning)).toBe(false);
  });

  it("has a listing waiting while it is pending or being published", () => {
    expect([ListingStatus.Pending, ListingStatus.Publishing].every(isListingWaiting)).toBe(true);
    expect([ListingStatus.Active, ListingStatus.Refused, ListingStatus.Skipped].some(isListingWaiting)).toBe(false);
  });

  it("counts every outcome (live, refused or failed, skipped) of the total", () => {
    expect(batchPercent({ total: 4, success: 1, fail: 1, skipped: 1 })).toBe(75);
    expect(batchPercent({ total: 0, success: 0, fail: 0, skipped: 0 })).toBe(100);
  });
});
