// /admin/package's URL state: the purchase list's search (tenant or package name), status and paging.
import { z } from "zod";
import { ALL, choiceParam, pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";
import type { HostPurchasesQuery } from "./api/host-packages.ts";

export const PURCHASE_PAGE_SIZES = [20, 50, 100];

export const hostPurchaseSchema = z.object({
  q: textParam(64),
  active: choiceParam(["true", "false"]),
  page: pageParam(),
  size: pageSizeParam(PURCHASE_PAGE_SIZES, 20),
});
export type HostPurchaseState = z.output<typeof hostPurchaseSchema>;

export const toHostPurchasesQuery = (s: HostPurchaseState): HostPurchasesQuery => ({
  ...(s.q.trim() ? { KeyWord: s.q.trim() } : {}),
  ...(s.active !== ALL ? { IsActive: s.active === "true" } : {}),
  SkipCount: (s.page - 1) * s.size,
  MaxResultCount: s.size,
});
