// The 刊登批次 view's URL state on /proudcts/publish-records/v2 (beside ?view=batches and ?batch=…, which the page reads
// itself): the shop group, the batch status and the page.
import { z } from "zod";
import { PAGE_SIZE_OPTIONS } from "#shared/ui/data-table.tsx";
import { ALL, choiceParam, idParam, pageParam, pageSizeParam } from "../../components/list/url-params.ts";
import type { PublishBatchesQuery } from "./api/get-publish-batches.ts";
import { batchStatusOptions } from "./publish-names.ts";

/** ?view=batches&shop=&status=&page=&size= */
export const batchListSchema = z.object({
  /** A shop group's id. */
  shop: idParam(),
  status: choiceParam(batchStatusOptions.map((o) => o.value)),
  page: pageParam(),
  size: pageSizeParam(PAGE_SIZE_OPTIONS, 20),
});
export type BatchListState = z.output<typeof batchListSchema>;

/** The batches' query, newest first. */
export const toBatchesQuery = (s: BatchListState): PublishBatchesQuery => ({
  ...(s.shop !== ALL ? { accountGroupId: s.shop } : {}),
  ...(s.status !== ALL ? { status: Number(s.status) } : {}),
  skipCount: (s.page - 1) * s.size,
  maxResultCount: s.size,
  sorting: "creationTime desc",
});
