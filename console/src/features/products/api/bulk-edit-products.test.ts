// Each bulk edit a dialog names runs its own call of the product API with the body the dialog built and its key.
import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "../../../lib/feature-api.ts";
import { runBulkEdit, type BulkEdit } from "./bulk-edit-products.ts";

afterEach(() => vi.restoreAllMocks());

const calls: Record<BulkEdit["edit"], keyof typeof api.product> = {
  samePrice: "batchUpdateProductSamePrice",
  adjustPrice: "batchUpdateProductPrice",
  weight: "webBatchUpdateProductWeight",
  status: "batchUpdateProductStatus",
  category: "batchUpdateProductCategory",
  replace: "replaceKeyword",
  linkLabel: "linkProductLabel",
  unlinkLabel: "cancelLinkProductLabel",
  assign: "assignProduct",
  delete: "batchDeleteProducts",
};

describe("runBulkEdit", () => {
  it.each(Object.entries(calls))("%s runs %s with the body and the submit's Idempotency-Key", async (edit, call) => {
    const body = { productIds: ["p1"] };
    const spy = vi.spyOn(api.product, call).mockResolvedValue({ count: 1 } as never);
    await expect(runBulkEdit({ edit, body } as BulkEdit, { idempotencyKey: "submit-1" })).resolves.toEqual({ count: 1 });
    expect(spy).toHaveBeenCalledWith(body, { idempotencyKey: "submit-1" });
  });
});
