// The product list's bulk edits. Each dialog builds its edit's body from the target (bulk-forms.ts) and names the edit;
// the hook runs its call. Screening and translating take the target or body themselves. The product queries (the list
// and the undo state) follow whatever the outcome: a failed edit may have changed some rows.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import type { BulkEditResult } from "#shared/contract/product.ts";
import { api } from "../../../lib/feature-api.ts";
import { useSubmitKey, withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { selectionBody, type BulkTarget } from "../bulk-target.ts";
import { taskKeys } from "../../../lib/task-queries.ts";
import { productKeys, useInvalidateProducts } from "./get-products.ts";

type BodyOf<Call extends keyof typeof api.product> = Parameters<(typeof api.product)[Call]>[0];

/** One bulk edit: which, and its call's body. */
export type BulkEdit =
  | { edit: "samePrice"; body: BodyOf<"batchUpdateProductSamePrice"> }
  | { edit: "adjustPrice"; body: BodyOf<"batchUpdateProductPrice"> }
  | { edit: "weight"; body: BodyOf<"webBatchUpdateProductWeight"> }
  | { edit: "status"; body: BodyOf<"batchUpdateProductStatus"> }
  | { edit: "category"; body: BodyOf<"batchUpdateProductCategory"> }
  | { edit: "replace"; body: BodyOf<"replaceKeyword"> }
  | { edit: "linkLabel"; body: BodyOf<"linkProductLabel"> }
  | { edit: "unlinkLabel"; body: BodyOf<"cancelLinkProductLabel"> }
  | { edit: "assign"; body: BodyOf<"assignProduct"> }
  | { edit: "delete"; body: BodyOf<"batchDeleteProducts"> };

/**
 * The product queries and the bulk edit tasks: a large edit (or undo) answers a task (its taskId), which the list's
 * strips then show at once.
 */
export function useInvalidateEdits() {
  const queryClient = useQueryClient();
  const invalidateProducts = useInvalidateProducts();
  return () => Promise.all([invalidateProducts(), queryClient.invalidateQueries({ queryKey: taskKeys.all })]);
}

/** Runs the edit's call; `options` carries the submitted dialog's Idempotency-Key (useSubmitKey). */
export function runBulkEdit({ edit, body }: BulkEdit, options?: CallOptions): Promise<BulkEditResult> {
  switch (edit) {
    case "samePrice":
      return api.product.batchUpdateProductSamePrice(body, options);
    case "adjustPrice":
      return api.product.batchUpdateProductPrice(body, options);
    case "weight":
      return api.product.webBatchUpdateProductWeight(body, options);
    case "status":
      return api.product.batchUpdateProductStatus(body, options);
    case "category":
      return api.product.batchUpdateProductCategory(body, options);
    case "replace":
      return api.product.replaceKeyword(body, options);
    case "linkLabel":
      return api.product.linkProductLabel(body, options);
    case "unlinkLabel":
      return api.product.cancelLinkProductLabel(body, options);
    case "assign":
      return api.product.assignProduct(body, options);
    case "delete":
      return api.product.batchDeleteProducts(body, options);
  }
}

/** ScreeningforInfringement over the target: the chosen ids, or everything the filter matches (the server walks it). */
export const screenProducts = (t: BulkTarget) => api.product.screeningforInfringement(selectionBody(t));
/** TranslateProduct: a background task (its id in the answer, none when nothing needed translating). */
export const translateProducts = (body: BodyOf<"translateProduct">, options?: CallOptions) => api.product.translateProduct(body, options);

export function useBulkEdit({ mutationConfig }: MutationHookOptions<typeof runBulkEdit> = {}) {
  const invalidate = useInvalidateEdits();
  const mutationFn = useSubmitKey(runBulkEdit);
  return useMutation(withCallerConfig({ mutationFn, onSettled: invalidate }, mutationConfig));
}

export function useScreenProducts({ mutationConfig }: MutationHookOptions<typeof screenProducts> = {}) {
  const invalidate = useInvalidateProducts();
  return useMutation(withCallerConfig({ mutationFn: screenProducts, onSettled: invalidate }, mutationConfig));
}

/** A translation is an edit too: the lists and the undo button follow at once. An open editor keeps its product (the
 *  texts change when the task ends, and the editor reloads then). */
export function useTranslateProducts({ mutationConfig }: MutationHookOptions<typeof translateProducts> = {}) {
  const queryClient = useQueryClient();
  const invalidate = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: productKeys.lists() }),
      queryClient.invalidateQueries({ queryKey: productKeys.lastEdit() }),
    ]);
  const mutationFn = useSubmitKey(translateProducts);
  return useMutation(withCallerConfig({ mutationFn, onSettled: invalidate }, mutationConfig));
}
