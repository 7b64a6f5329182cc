// /proudcts/selection's URL state: the item id (or link) filter, the site and the page.
import { z } from "zod";
import { MELI_SITES } from "#shared/contract/meli.ts";
import { PAGE_SIZE_OPTIONS } from "#shared/ui/data-table.tsx";
import { ALL, choiceParam, pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";
import type { SelectionQuery } from "./api/get-selection.ts";

export const siteOptions = Object.entries(MELI_SITES).map(([n, s]) => ({ value: n, label: s.name }));

/** ?sku=&site=&page=&size= */
export const selectionListSchema = z.object({
  /** An item id or a listing's link (exact). */
  sku: textParam(500),
  site: choiceParam(siteOptions.map((o) => o.value)),
  page: pageParam(),
  size: pageSizeParam(PAGE_SIZE_OPTIONS, 50),
});
export type SelectionListState = z.output<typeof selectionListSchema>;

/** GetMeliSelectionSku's query, newest first. */
export const toSelectionQuery = (s: SelectionListState): SelectionQuery => ({
  ...(s.sku.trim() ? { Skus: [s.sku.trim()] } : {}),
  ...(s.site !== ALL ? { Site: Number(s.site) } : {}),
  Sorting: "creationTime desc",
  SkipCount: (s.page - 1) * s.size,
  MaxResultCount: s.size,
});
