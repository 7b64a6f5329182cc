// Top-ups (spec §7 ChargeRecord): the seller uploads the transfer receipt (UploadReceipt, multipart field `file`), then
// submits the record with the image's pic (SubmitChagreRecord); the host lists every tenant's records
// (GetHostChargeRecords) and approves or rejects them (AuditChargeRecord). Submissions and audits send one
// Idempotency-Key per content (useSubmitKey), so a retry after a lost answer is answered by the first result.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import { chargeRecordCalls } from "#shared/api/wallet.ts";
import type { AuditChargeRecordInput, SubmitChargeRecordInput } from "#shared/contract/wallet.ts";
import { uploadReceiptResult } from "#shared/contract/wallet.ts";
import { api } from "../../../lib/feature-api.ts";
import { fetchApiFile } from "../../../lib/export-download.ts";
import { useSubmitKey, withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import type { ChargeRecordsQuery } from "../finance-search-params.ts";
import { financeKeys } from "./wallet-logs.ts";

const getChargeRecordsQueryOptions = (q: ChargeRecordsQuery) =>
  queryOptions({
    queryKey: financeKeys.charges(q),
    queryFn: ({ signal }) => api.chargeRecord.getChargeRecords(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useChargeRecords = (q: ChargeRecordsQuery, enabled = true) => useQuery({ ...getChargeRecordsQueryOptions(q), enabled });

const getHostChargeRecordsQueryOptions = (q: ChargeRecordsQuery) =>
  queryOptions({
    queryKey: financeKeys.hostCharges(q),
    queryFn: ({ signal }) => api.chargeRecord.getHostChargeRecords(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useHostChargeRecords = (q: ChargeRecordsQuery, enabled = true) =>
  useQuery({ ...getHostChargeRecordsQueryOptions(q), enabled });

/** UploadReceipt: the image as multipart (field `file`); answers its pic. 413/415 are the dialog's to explain. */
export async function uploadReceipt(file: File): Promise<string> {
  const form = new FormData();
  form.append("file", file, file.name);
  const answer = await api.client.request<unknown>({ method: "POST", path: chargeRecordCalls.uploadReceipt.path, body: form });
  return uploadReceiptResult.parse(answer).pic;
}

/** The receipt image (GetReceipt needs the session's headers) as an object URL, or its small preview; the caller revokes it. */
export async function receiptObjectUrl(pic: string, preview = false): Promise<string> {
  const res = await fetchApiFile(await api.chargeRecord.getReceipt(preview ? { pic, size: "preview" } : { pic }));
  return URL.createObjectURL(await res.blob());
}

/** Sent with the submission's Idempotency-Key (useSubmitKey). */
export const submitCharge = (body: SubmitChargeRecordInput, options?: CallOptions) => api.chargeRecord.submitChagreRecord(body, options);
export const auditCharge = (body: AuditChargeRecordInput, options?: CallOptions) => api.chargeRecord.auditChargeRecord(body, options);

function useInvalidateFinance() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: financeKeys.all });
}

export function useSubmitCharge({ mutationConfig }: MutationHookOptions<typeof submitCharge> = {}) {
  const invalidate = useInvalidateFinance();
  const mutationFn = useSubmitKey(submitCharge);
  return useMutation(withCallerConfig({ mutationFn, onSuccess: () => invalidate() }, mutationConfig));
}

export function useAuditCharge({ mutationConfig }: MutationHookOptions<typeof auditCharge> = {}) {
  const invalidate = useInvalidateFinance();
  const mutationFn = useSubmitKey(auditCharge);
  return useMutation(withCallerConfig({ mutationFn, onSettled: () => invalidate() }, mutationConfig));
}
