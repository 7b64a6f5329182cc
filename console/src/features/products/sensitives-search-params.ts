// /proudcts/sensitives' URL state: which list (the tenant's own words or the default ones), the search and the page.
import { z } from "zod";
import { PAGE_SIZE_OPTIONS } from "#shared/ui/data-table.tsx";
import { pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";
import type { InfringementWordQuery, WordList } from "./api/get-infringement-words.ts";

const WORD_LISTS = ["mine", "default"] as const satisfies readonly WordList[];

/** ?tab=&q=&page=&size= */
export const sensitivesListSchema = z.object({
  tab: z.enum(WORD_LISTS).catch("mine"),
  q: textParam(100),
  page: pageParam(),
  size: pageSizeParam(PAGE_SIZE_OPTIONS, 20),
});
export type SensitivesListState = z.output<typeof sensitivesListSchema>;

/** GetInfringementWord's (or the default list's) query, newest first. */
export const toWordQuery = (s: SensitivesListState): InfringementWordQuery => ({
  Search: s.q.trim() || undefined,
  Sorting: "creationTime desc",
  SkipCount: (s.page - 1) * s.size,
  MaxResultCount: s.size,
});
